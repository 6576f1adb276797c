// The campaign form's e-mail settings: the reminder days as chips, the escalation delay, their French refusals before
// anything is sent, and a running campaign's form that sends its e-mail settings only.
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query'
import type { Campaign } from '@/features/campaigns/model'
import { makeCampaign } from '../support/campaigns'

const save = vi.hoisted(() => vi.fn())

vi.mock('@/features/campaigns/api', () => ({
  useApplicationOptions: () => ({ data: [], error: null }),
  useSaveCampaign: () => useMutation({ mutationFn: (variables: unknown) => save(variables) as Promise<void> }),
}))

const { CampaignFormDialog } = await import('@/features/campaigns/CampaignFormDialog')

const RUNNING: Campaign = makeCampaign({
  id: 'a',
  name: 'Revue T4',
  status: 'active',
  createdAt: '2026-10-01T00:00:00Z',
  reminderDays: [3, 7, 1],
  escalationDelayDays: 2,
  progress: 0,
})

function renderForm(campaign: Campaign | null = null) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  const onClose = vi.fn()
  const user = userEvent.setup()
  render(
    <QueryClientProvider client={client}>
      <CampaignFormDialog campaign={campaign} onClose={onClose} />
    </QueryClientProvider>,
  )
  const dialog = screen.getByRole('dialog')
  const reminders = () => within(dialog).getByRole('group', { name: 'Jours de rappel avant la date de fin' })
  const chips = () => within(reminders()).queryAllByRole('listitem').map((chip) => chip.textContent)
  const addDay = async (text: string) => {
    const field = within(reminders()).getByLabelText('Ajouter un rappel (jours)')
    await user.clear(field)
    await user.type(field, `${text}{Enter}`)
  }
  return { user, dialog, reminders, chips, addDay, onClose }
}

async function fillReview(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, start: string, end: string) {
  await user.type(within(dialog).getByLabelText(/Nom/), 'Revue SAP')
  await user.type(within(dialog).getByLabelText(/Date de début/), start)
  await user.type(within(dialog).getByLabelText(/Date de fin/), end)
}

beforeEach(() => {
  save.mockReset().mockResolvedValue(undefined)
})

describe('the campaign form’s reminders', () => {
  it('starts from 7, 3 and 1 days, each with the day it goes, and adds and removes days', async () => {
    const { user, dialog, reminders, chips, addDay } = renderForm()
    expect(chips()).toEqual(['7 jours', '3 jours', '1 jour'])
    await fillReview(user, dialog, '01/03/2027', '31/03/2027')
    expect(chips()).toEqual(['7 jours · 24/03/2027', '3 jours · 28/03/2027', '1 jour · 30/03/2027'])
    await addDay('14')
    await user.click(within(reminders()).getByRole('button', { name: 'Retirer le rappel 3 jours avant la fin' }))
    expect(chips().map((chip) => chip?.split(' · ')[0])).toEqual(['14 jours', '7 jours', '1 jour'])
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(save).toHaveBeenCalledWith({ payload: expect.objectContaining({ reminder_days: [14, 7, 1], escalation_delay_days: 0 }) })
  })

  it('refuses, in French and before anything is sent, a day that is no day, twice, before the start, or an eleventh', async () => {
    const { user, dialog, reminders, chips, addDay } = renderForm()
    await fillReview(user, dialog, '01/03/2027', '31/03/2027')
    const field = () => within(reminders()).getByLabelText('Ajouter un rappel (jours)')
    await addDay('0')
    expect(field()).toHaveAccessibleDescription('Indiquez un nombre entier de jours, de 1 à 365.')
    await addDay('2,5')
    expect(field()).toHaveAccessibleDescription('Indiquez un nombre entier de jours, de 1 à 365.')
    await addDay('7')
    expect(field()).toHaveAccessibleDescription('Un rappel 7 jours avant la fin est déjà prévu.')
    // The campaign lasts 30 days: 31 days before its end is before its start.
    await addDay('31')
    expect(field()).toHaveAccessibleDescription('Le rappel 31 jours avant la fin tomberait avant le début de la campagne : 30 jours au plus.')
    expect(chips()).toHaveLength(3)
    for (const day of ['30', '20', '15', '10', '5', '4', '2']) await addDay(day)
    expect(chips()).toHaveLength(10)
    expect(field()).toBeDisabled()
    expect(reminders()).toHaveTextContent('10 rappels au plus : retirez-en un pour en ajouter un autre.')
    expect(save).not.toHaveBeenCalled()
  })

  it('keeps at submit the default days a short campaign leaves before its start, and refuses a delay out of range', async () => {
    const { user, dialog, reminders, chips } = renderForm()
    await fillReview(user, dialog, '01/03/2027', '05/03/2027')
    const delay = within(dialog).getByRole('textbox', { name: 'Escalade après la date de fin (jours)' })
    await user.clear(delay)
    await user.type(delay, '31')
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(reminders()).not.toHaveAccessibleDescription(/tomberait/)
    expect(chips()).toEqual(['7 jours · avant le début : pas envoyé', '3 jours · 02/03/2027', '1 jour · 04/03/2027'])
    expect(delay).toHaveAccessibleDescription(/^Le délai d'escalade est un nombre entier de jours, de 0 à 30\./)
    expect(save).not.toHaveBeenCalled()

    // Without reminders, their days no longer matter; the delay is said as a date.
    await user.click(within(dialog).getByRole('checkbox', { name: 'Rappels avant la date de fin' }))
    expect(within(dialog).queryByRole('group', { name: 'Jours de rappel avant la date de fin' })).toBeNull()
    await user.clear(delay)
    await user.type(delay, '3')
    expect(delay).toHaveAccessibleDescription(
      expect.stringContaining('Le 9 mars 2027 (4 jours après la date de fin), les managers des relecteurs en retard et le créateur de la campagne sont prévenus.'),
    )
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(save).toHaveBeenCalledWith({ payload: expect.objectContaining({ reminders_enabled: false, escalation_delay_days: 3 }) })
  })

  it('lets a running campaign change its e-mails only, and sends nothing else', async () => {
    const { user, dialog, chips, addDay } = renderForm(RUNNING)
    expect(dialog).toHaveAccessibleName('E-mails de « Revue T4 »')
    expect(within(dialog).queryByLabelText(/Nom/)).toBeNull()
    expect(within(dialog).queryByLabelText(/Date de début/)).toBeNull()
    expect(chips().map((chip) => chip?.split(' · ')[0])).toEqual(['7 jours', '3 jours', '1 jour'])
    await addDay('10')
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }))
    expect(save).toHaveBeenCalledWith({
      id: 'a',
      payload: { notifications_enabled: true, reminders_enabled: true, reminder_days: [10, 7, 3, 1], escalation_delay_days: 2 },
    })
  })

  it('keeps the dialog open with the database’s refusal', async () => {
    save.mockRejectedValue(new Error('Le rappel à 5 jours avant la fin est donné deux fois.'))
    const { user, dialog } = renderForm(RUNNING)
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Le rappel à 5 jours avant la fin est donné deux fois.')
  })
})
