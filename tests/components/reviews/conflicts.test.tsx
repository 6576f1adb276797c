import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { makeQueueItem } from '../support/queue-items'
import type { QueueItem, RightConflict } from '@/features/reviews/model'

// The control rules' incompatible roles where the decision is taken, in Mes revues and in the
// validation dialog. The API answers review_conflicts as Postgres would for the ids asked.
const api = vi.hoisted(() => ({ conflicts: [] as RightConflict[], asked: [] as string[][] }))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    async rpc(name: string, args: { p_right_ids: string[] }) {
      if (name !== 'review_conflicts') throw new Error(`unexpected rpc ${name}`)
      api.asked.push(args.p_right_ids)
      return { data: api.conflicts.filter((conflict) => args.p_right_ids.includes(conflict.right_id)), error: null }
    },
  }),
}))

const { ReviewQueue } = await import('@/features/reviews/components/ReviewQueue')

const SENTENCE =
  'Ce collaborateur détient aussi « Approbateur factures » sur SAP Finance : combinaison interdite par la règle « Séparation saisie / validation ».'

function queueItem(id: string, overrides: Partial<QueueItem> = {}): QueueItem {
  return makeQueueItem(id, {
    holder_id: 'h-thomas',
    holder_name: 'Thomas Roux',
    holder_email: 'thomas.roux@example.com',
    application_id: 'a-sap',
    application_name: 'SAP Finance',
    ...overrides,
  })
}

function setup(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>)
  return userEvent.setup()
}

beforeEach(() => {
  api.asked = []
  api.conflicts = [
    {
      right_id: 'r1',
      rule_id: 'rule-1',
      rule_name: 'Séparation saisie / validation',
      other_right_id: 'r-other',
      other_role_name: 'Approbateur factures',
      other_application_name: 'SAP Finance',
    },
  ]
})

describe('Conflicts of incompatible roles', () => {
  const items = [
    queueItem('r1', { role_name: 'Comptable' }),
    queueItem('r2', { role_name: 'Lecteur', last_used_at: '2026-11-10', days_unused: 11, suggests_refusal: false, recommendation: null }),
  ]

  it('shows the conflict on its row in Mes revues, with the advice to refuse one of the two, and nothing on the others', async () => {
    setup(<ReviewQueue items={items} decide={vi.fn()} />)
    const table = screen.getByRole('table', { name: 'Droits en attente de ma décision' })
    const conflictRow = (await within(table).findByText(SENTENCE)).closest('tr')
    expect(conflictRow).not.toBeNull()
    expect(within(conflictRow as HTMLElement).getByText('Comptable')).toBeInTheDocument()
    expect(within(conflictRow as HTMLElement).getByText('Rôles incompatibles')).toBeInTheDocument()
    expect(within(conflictRow as HTMLElement).getByText('Recommandation : refuser l’un des deux droits.')).toBeInTheDocument()
    const otherRow = within(table).getByText('Lecteur').closest('tr') as HTMLElement
    expect(within(otherRow).queryByText('Rôles incompatibles')).not.toBeInTheDocument()
    // One call for the page on screen.
    expect(api.asked).toEqual([['r1', 'r2']])
  })

  it('explains both recommendations in the validation dialog, one sentence each', async () => {
    const user = setup(<ReviewQueue items={items} decide={vi.fn()} />)
    await user.click(screen.getByRole('button', { name: /^Refuser .*Comptable/ }))
    const dialog = screen.getByRole('dialog', { name: 'Revue du droit' })
    expect(await within(dialog).findByText(SENTENCE)).toBeInTheDocument()
    expect(
      within(dialog).getByText(
        'Recommandation : refuser l’un des deux droits, car une même personne qui cumule deux rôles incompatibles peut mener seule une opération que la règle impose de partager.',
      ),
    ).toBeInTheDocument()
    expect(within(dialog).getByText('Jamais utilisé')).toBeInTheDocument()
    expect(
      within(dialog).getByText(
        'Recommandation : refuser ce droit, car un accès qui n’a pas servi depuis plus de 90 jours n’est sans doute plus nécessaire et expose le compte sans utilité.',
      ),
    ).toBeInTheDocument()
  })

  it('says nothing of conflicts or inactivity in the dialog of a right in use without any', async () => {
    const user = setup(<ReviewQueue items={items} decide={vi.fn()} />)
    await user.click(screen.getByRole('button', { name: /^Refuser .*Lecteur/ }))
    const dialog = screen.getByRole('dialog', { name: 'Revue du droit' })
    await vi.waitFor(() => expect(api.asked).toContainEqual(['r2']))
    expect(within(dialog).queryByText('Rôles incompatibles')).not.toBeInTheDocument()
    expect(within(dialog).queryByText(/Recommandation/)).not.toBeInTheDocument()
  })

  it('gives the RA the treatment’s advice, in the RA’s own words, never « refuser »', async () => {
    const raItems = [
      queueItem('r1', { role_name: 'Comptable', status: 'refused_manager', stage: 'ra', approve_status: 'treated', refuse_status: 'treatment_required' }),
    ]
    const user = setup(<ReviewQueue items={raItems} decide={vi.fn()} />)
    await user.click(screen.getByRole('button', { name: /^Marquer traité .*Comptable/ }))
    const dialog = screen.getByRole('dialog', { name: 'Revue du droit' })
    expect(await within(dialog).findByText(SENTENCE)).toBeInTheDocument()
    expect(within(dialog).queryByText(/Recommandation : refuser/)).not.toBeInTheDocument()
    expect(within(dialog).getAllByText(/^Recommandation : retirer ce droit dans l’application, puis le marquer traité/)).toHaveLength(2)
  })
})
