import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { vi } from 'vitest'
import { ReviewQueue } from '@/features/reviews/components/ReviewQueue'
import { ValidationDialog } from '@/features/reviews/components/ValidationDialog'
import { makeQueueItem } from '../support/queue-items'
import type { DecisionInput, DecisionTarget, QueueItem } from '@/features/reviews/model'

function setup(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
  const user = userEvent.setup()
  render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>)
  return { user, invalidate }
}

const target: DecisionTarget = {
  rightId: 'right-1',
  applicationName: 'Active Directory',
  roleName: 'Utilisateur VPN',
  holderName: 'Julie Martin',
  approveStatus: 'validated_user',
  refuseStatus: 'refused_user',
}

function DialogHost({ decide }: { decide: (input: DecisionInput) => Promise<void> }) {
  const [current, setCurrent] = useState<DecisionTarget | null>(target)
  return <ValidationDialog target={current} onClose={() => setCurrent(null)} decide={decide} />
}

describe('Validation dialog', () => {
  it('shows application, role and user, an optional comment and Annuler / Refuser / Valider', () => {
    setup(<DialogHost decide={vi.fn()} />)
    const dialog = screen.getByRole('dialog', { name: 'Revue du droit' })
    expect(within(dialog).getByText('Active Directory')).toBeInTheDocument()
    expect(within(dialog).getByText('Utilisateur VPN')).toBeInTheDocument()
    expect(within(dialog).getByText('Julie Martin')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Commentaire (facultatif)')).toBeInTheDocument()
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['', 'Annuler', 'Refuser', 'Valider'])
  })

  it('closes on success and refreshes every view of rights', async () => {
    const decide = vi.fn().mockResolvedValue(undefined)
    const { user, invalidate } = setup(<DialogHost decide={decide} />)
    await user.type(screen.getByLabelText('Commentaire (facultatif)'), "Je n'en ai plus besoin")
    await user.click(screen.getByRole('button', { name: 'Refuser' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(decide).toHaveBeenCalledWith({ rightId: 'right-1', status: 'refused_user', comment: "Je n'en ai plus besoin" })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['rights'] })
  })

  it("stays open with the server's French message on failure, and refreshes the lists the right has left", async () => {
    const decide = vi.fn().mockRejectedValue(new Error("Ce droit n'est plus en attente de votre décision."))
    const { user, invalidate } = setup(<DialogHost decide={decide} />)
    await user.click(screen.getByRole('button', { name: 'Valider' }))
    expect(await screen.findByRole('alert')).toHaveTextContent("Ce droit n'est plus en attente de votre décision.")
    expect(screen.getByRole('dialog', { name: 'Revue du droit' })).toBeInTheDocument()
    expect(decide).toHaveBeenCalledWith({ rightId: 'right-1', status: 'validated_user', comment: '' })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['rights'] })
  })
})

const queueItem = makeQueueItem

describe('Review queue', () => {
  const items = [
    queueItem('r1'),
    queueItem('r2', { holder_id: 'h-lucas', holder_name: 'Lucas Bonnet', holder_email: 'lucas.bonnet@example.com', application_id: 'a-sap', application_name: 'SAP Finance', last_used_at: '2026-07-01', days_unused: 140, recommendation: 'Inutilisé depuis 140 jours' }),
    queueItem('r3', { last_used_at: '2026-11-10', days_unused: 11, suggests_refusal: false, recommendation: null }),
  ]

  it('groups by person and shows the inactivity recommendation', () => {
    setup(<ReviewQueue items={items} decide={vi.fn()} />)
    const table = screen.getByRole('table', { name: 'Droits en attente de ma décision' })
    const headers = within(table).getAllByRole('rowheader').map((cell) => cell.textContent)
    expect(headers[0]).toContain('Emma Girard')
    expect(headers[1]).toContain('Lucas Bonnet')
    expect(within(table).getByText('Jamais utilisé')).toBeInTheDocument()
    expect(within(table).getByText('Inutilisé depuis 140 jours')).toBeInTheDocument()
  })

  it('filters by application', async () => {
    const { user } = setup(<ReviewQueue items={items} decide={vi.fn()} />)
    await user.selectOptions(screen.getByLabelText('Application'), 'SAP Finance')
    expect(screen.queryByRole('checkbox', { name: /Rôle r1/ })).not.toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: /Rôle r2/ })).toBeInTheDocument()
  })

  it('decides the selected rights one call each, with one comment, and reports failures right by right', async () => {
    const decide = vi.fn(async (input: DecisionInput) => {
      if (input.rightId === 'r2') throw new Error('Décision impossible : ce droit a déjà été revu.')
    })
    const { user, invalidate } = setup(<ReviewQueue items={items} decide={decide} />)
    await user.click(screen.getByRole('checkbox', { name: /Rôle r1/ }))
    await user.click(screen.getByRole('checkbox', { name: /Rôle r2/ }))
    await user.click(screen.getByRole('checkbox', { name: /Rôle r3/ }))
    expect(screen.getByText('3 droits sélectionnés.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Commentaire pour la sélection (facultatif)'), 'Revue trimestrielle')
    await user.click(screen.getByRole('button', { name: 'Refuser la sélection' }))

    const failures = await screen.findByRole('list', { name: 'Décisions refusées' })
    expect(within(failures).getAllByRole('listitem').map((entry) => entry.textContent)).toEqual([
      'SAP Finance — Rôle r2 (Lucas Bonnet) : Décision impossible : ce droit a déjà été revu.',
    ])
    expect(screen.getByText('2 décisions enregistrées.')).toBeInTheDocument()
    expect(decide.mock.calls.map(([input]) => input)).toEqual([
      { rightId: 'r1', status: 'refused_manager', comment: 'Revue trimestrielle' },
      { rightId: 'r2', status: 'refused_manager', comment: 'Revue trimestrielle' },
      { rightId: 'r3', status: 'refused_manager', comment: 'Revue trimestrielle' },
    ])
    // The failed right stays selected for another try; the list is refreshed.
    expect(screen.getByText('1 droit sélectionné.')).toBeInTheDocument()
    // One refresh for the whole selection, not one per right.
    expect(invalidate.mock.calls).toEqual([[{ queryKey: ['rights'] }]])
  })

  it('opens the validation dialog for one right', async () => {
    const decide = vi.fn().mockResolvedValue(undefined)
    const { user } = setup(<ReviewQueue items={items} decide={decide} />)
    await user.click(screen.getByRole('button', { name: 'Valider SAP Finance — Rôle r2 (Lucas Bonnet)' }))
    const dialog = screen.getByRole('dialog', { name: 'Revue du droit' })
    await user.click(within(dialog).getByRole('button', { name: 'Valider' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(decide).toHaveBeenCalledWith({ rightId: 'r2', status: 'validated_manager', comment: '' })
  })
})

describe('After a decision', () => {
  /** The queue as the server gives it back: without the rights decided. */
  function LiveQueue({ initial }: { initial: QueueItem[] }) {
    const [items, setItems] = useState(initial)
    const decide = async (input: DecisionInput) => {
      setItems((current) => current.filter((item) => item.right_id !== input.rightId))
    }
    return <ReviewQueue items={items} decide={decide} />
  }

  it('moves focus to the next right’s decision button and says what was recorded', async () => {
    const { user } = setup(<LiveQueue initial={[queueItem('r1'), queueItem('r2'), queueItem('r3')]} />)
    await user.click(screen.getByRole('button', { name: 'Valider ServiceNow — Rôle r2 (Emma Girard)' }))
    await user.click(within(screen.getByRole('dialog', { name: 'Revue du droit' })).getByRole('button', { name: 'Valider' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Refuser ServiceNow — Rôle r3 (Emma Girard)'))
    expect(screen.getByRole('status')).toHaveTextContent('Décision enregistrée : Validé par le manager — ServiceNow — Rôle r2 (Emma Girard).')
  })

  it('moves focus to the list when the last right is decided', async () => {
    const { user } = setup(<LiveQueue initial={[queueItem('r1')]} />)
    await user.click(screen.getByRole('button', { name: 'Refuser ServiceNow — Rôle r1 (Emma Girard)' }))
    await user.click(within(screen.getByRole('dialog', { name: 'Revue du droit' })).getByRole('button', { name: 'Refuser' }))
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Droits en attente de ma décision'))
    expect(document.activeElement).not.toBe(document.body)
  })
})
