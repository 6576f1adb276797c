import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { NotificationsPage } from '@/features/notifications/NotificationsPage'
import type { OutboxSummary, SendNowResult } from '@/features/notifications/model'

const outbox: OutboxSummary = {
  queued: 1,
  sending: 0,
  failed: 1,
  rows: [
    {
      id: 'n1',
      recipient_email: 'paul.roux@example.org',
      kind: 'reminder',
      status: 'failed',
      attempts: 8,
      next_attempt_at: '2026-11-24T10:00:00Z',
      last_error: "Échec de l'envoi SMTP (code=EENVELOPE command=RCPT TO responseCode=451)",
      created_at: '2026-11-23T08:00:00Z',
      payload: { campaign_name: 'Revue T4' },
    },
    {
      id: 'n2',
      recipient_email: 'lea.petit@example.org',
      kind: 'campaign_started',
      status: 'queued',
      attempts: 0,
      next_attempt_at: '2026-11-24T10:00:00Z',
      last_error: null,
      created_at: '2026-11-24T08:00:00Z',
      payload: { campaign_name: 'Revue T4' },
    },
  ],
}

const sendNow = {
  mutate: vi.fn(),
  isPending: false,
  isError: false,
  isSuccess: false,
  error: null as Error | null,
  data: undefined as SendNowResult | undefined,
}

vi.mock('@/features/notifications/api', () => ({
  useOutbox: () => ({ isPending: false, isError: false, data: outbox }),
  useSendNow: () => sendNow,
}))

describe('NotificationsPage', () => {
  it('lists what waits and what was given up, with tries and last error, and sends now on demand', async () => {
    const user = userEvent.setup()
    render(<NotificationsPage title="Envois d'e-mails" />)
    expect(screen.getByText(/1 message en attente, 0 en cours d'envoi, 1 message abandonné\./)).toBeInTheDocument()
    const failed = screen.getByRole('row', { name: /paul\.roux@example\.org/ })
    expect(within(failed).getByText('Rappel')).toBeInTheDocument()
    expect(within(failed).getByText('Abandonné')).toBeInTheDocument()
    expect(within(failed).getByText('8')).toBeInTheDocument()
    expect(within(failed).getByText(/responseCode=451/)).toBeInTheDocument()
    expect(within(screen.getByRole('row', { name: /lea\.petit@example\.org/ })).getByText('Démarrage de campagne')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Envoyer maintenant' }))
    expect(sendNow.mutate).toHaveBeenCalledTimes(1)
  })

  it('says what the sending did, and shows a refusal as the server worded it', () => {
    Object.assign(sendNow, { isSuccess: true, data: { requeued: 3, sent: 2, failed: 1 } })
    const { unmount } = render(<NotificationsPage title="Envois d'e-mails" />)
    expect(screen.getByRole('status')).toHaveTextContent('2 messages envoyés, 1 échec, réessayé plus tard.')
    unmount()
    Object.assign(sendNow, { isSuccess: false, data: undefined, isError: true, error: new Error("Seuls les administrateurs et le RSSI peuvent relancer l'envoi des notifications.") })
    render(<NotificationsPage title="Envois d'e-mails" />)
    expect(screen.getByText(/Seuls les administrateurs et le RSSI/)).toBeInTheDocument()
  })
})
