import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { NotificationsPage } from '@/features/notifications/NotificationsPage'
import type { MessageRow, MessagesRequest, OutboxSummary, SendNowResult } from '@/features/notifications/model'

const summary: OutboxSummary = { queued: 1, sending: 0, sent: 120, failed: 1 }

const base = { recipient_name: null, campaign_name: 'Revue T4', sent_at: null, next_attempt_at: '2026-11-24T10:00:00Z', last_error: null }
const rows: MessageRow[] = [
  {
    ...base,
    id: 'n3',
    recipient_email: 'claire.martin@example.org',
    recipient_name: 'Claire Martin',
    kind: 'delegation',
    status: 'sent',
    attempts: 3,
    created_at: '2026-11-24T09:00:00Z',
    sent_at: '2026-11-24T09:20:00Z',
  },
  {
    ...base,
    id: 'n1',
    recipient_email: 'paul.roux@example.org',
    kind: 'reminder',
    status: 'failed',
    attempts: 8,
    created_at: '2026-11-23T08:00:00Z',
    last_error: "Échec de l'envoi SMTP (code=EENVELOPE command=RCPT TO responseCode=451)",
  },
  { ...base, id: 'n2', recipient_email: 'lea.petit@example.org', kind: 'campaign_started', status: 'queued', attempts: 0, created_at: '2026-11-22T08:00:00Z' },
]

const sendNow = {
  mutate: vi.fn(),
  isPending: false,
  isError: false,
  isSuccess: false,
  error: null as Error | null,
  data: undefined as SendNowResult | undefined,
}
const asked: MessagesRequest[] = []
let listed: MessageRow[] = rows

vi.mock('@/features/notifications/api', () => ({
  useOutbox: () => ({ isPending: false, isError: false, data: summary }),
  useMessagesPage: (request: MessagesRequest) => {
    asked.push(request)
    return { isPending: false, isError: false, isFetching: false, data: { rows: listed, total: listed.length } }
  },
  useSendNow: () => sendNow,
}))

beforeEach(() => {
  asked.length = 0
  listed = rows
})

describe('NotificationsPage', () => {
  it('lists the e-mails sent and not, newest first: to whom, which, when, how it went, with tries and last error', () => {
    render(<NotificationsPage title="Envois d'e-mails" />)
    expect(asked.at(-1)).toEqual({ page: 0, size: 50, search: '', filter: 'all' })
    const table = screen.getByRole('table', { name: 'E-mails de Recertif' })
    const [delegated, failed, waiting] = within(table).getAllByRole('row').slice(1)
    expect(delegated).toHaveTextContent('claire.martin@example.org')
    expect(within(delegated!).getByText('Claire Martin')).toBeInTheDocument()
    expect(within(delegated!).getByText('Revues déléguées')).toBeInTheDocument()
    expect(within(delegated!).getByText('Envoyé')).toBeInTheDocument()
    expect(within(delegated!).getByText(/^le 24 novembre 2026 à \d\d:20$/)).toBeInTheDocument()
    expect(within(delegated!).getByText('3 (2 nouveaux essais)')).toBeInTheDocument()
    expect(within(failed!).getByText('Rappel')).toBeInTheDocument()
    expect(within(failed!).getByText('Abandonné')).toBeInTheDocument()
    expect(within(failed!).getByText('8 (7 nouveaux essais)')).toBeInTheDocument()
    expect(within(failed!).getByText(/responseCode=451/)).toBeInTheDocument()
    expect(within(waiting!).getByText('Démarrage de campagne')).toBeInTheDocument()
    expect(within(waiting!).getByText(/^prochain essai le /)).toBeInTheDocument()
    expect(screen.getByText('1–3 sur 3 e-mails')).toBeInTheDocument()
  })

  it('filters by status on the server, back on the first page, and says in French when nothing is found', async () => {
    const user = userEvent.setup()
    render(<NotificationsPage title="Envois d'e-mails" />)
    const filters = screen.getByRole('group', { name: 'Afficher' })
    expect(within(filters).getByRole('button', { name: 'Tous (122)' })).toHaveAttribute('aria-pressed', 'true')
    expect(within(filters).getByRole('button', { name: 'Envoyés (120)' })).toHaveAttribute('aria-pressed', 'false')
    listed = []
    await user.click(within(filters).getByRole('button', { name: 'Abandonnés (1)' }))
    expect(asked.at(-1)).toMatchObject({ filter: 'failed', page: 0 })
    expect(within(filters).getByRole('button', { name: 'Abandonnés (1)' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByText("Aucun e-mail n'a été abandonné.")).toBeInTheDocument()
    await user.click(within(filters).getByRole('button', { name: 'En attente (1)' }))
    expect(asked.at(-1)).toMatchObject({ filter: 'waiting' })
    expect(screen.getByText("Aucun e-mail n'attend d'être envoyé.")).toBeInTheDocument()
  })

  it('sends now on demand, says what the sending did, and shows a refusal as the server worded it', async () => {
    const user = userEvent.setup()
    const first = render(<NotificationsPage title="Envois d'e-mails" />)
    await user.click(screen.getByRole('button', { name: 'Envoyer maintenant' }))
    expect(sendNow.mutate).toHaveBeenCalledTimes(1)
    first.unmount()
    Object.assign(sendNow, { isSuccess: true, data: { requeued: 3, sent: 2, failed: 1 } })
    const { unmount } = render(<NotificationsPage title="Envois d'e-mails" />)
    expect(screen.getByText('2 messages envoyés, 1 échec, réessayé plus tard.')).toBeInTheDocument()
    unmount()
    Object.assign(sendNow, { isSuccess: false, data: undefined, isError: true, error: new Error("Seuls les administrateurs et le RSSI peuvent relancer l'envoi des notifications.") })
    render(<NotificationsPage title="Envois d'e-mails" />)
    expect(screen.getByText(/Seuls les administrateurs et le RSSI/)).toBeInTheDocument()
  })
})
