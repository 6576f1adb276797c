import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query'
import { RemovalRequestButton } from '@/features/reviews/components/removal/RemovalRequestButton'
import type { RemovalRequest } from '@/features/reviews/removal-api'

// The RA's « Demander la suppression »: a ticket's reference, or the connector where it manages the application; the
// request sent as request_right_removal takes it, and the server's refusal shown as it is.
const stubs = vi.hoisted(() => ({ request: vi.fn<(input: RemovalRequest) => Promise<void>>(), managed: new Set<string>() }))
vi.mock('@/features/reviews/removal-api', () => ({
  useConnectorApplications: () => ({ data: stubs.managed }),
  useRequestRemoval: () => useMutation<void, Error, RemovalRequest>({ mutationFn: (input) => stubs.request(input) }),
}))

const WHAT = 'SAP Finance — Comptable (Julie Martin)'

function renderButton(applicationId = 'app-sap') {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RemovalRequestButton rightId="right-1" applicationId={applicationId} what={WHAT} />
    </QueryClientProvider>,
  )
}

beforeEach(() => {
  stubs.request.mockReset()
  stubs.managed = new Set()
})

describe('Demander la suppression', () => {
  it('asks for the ticket’s reference before sending, then sends it trimmed and closes', async () => {
    stubs.request.mockResolvedValue()
    renderButton()
    await userEvent.click(screen.getByRole('button', { name: `Demander la suppression ${WHAT}` }))
    const dialog = await screen.findByRole('dialog', { name: 'Demander la suppression' })
    expect(screen.getByRole('radio', { name: /Par le connecteur d’annuaire \(cette application n’est pas gérée/ })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Demander la suppression' }))
    expect(await screen.findByText('Indiquez la référence du ticket de suppression.')).toBeInTheDocument()
    expect(stubs.request).not.toHaveBeenCalled()
    await userEvent.type(screen.getByRole('textbox', { name: 'Référence du ticket' }), '  INC-1234 ')
    await userEvent.click(screen.getByRole('button', { name: 'Demander la suppression' }))
    expect(stubs.request).toHaveBeenCalledWith({ rightId: 'right-1', method: 'ticket', ticket: 'INC-1234' })
    await vi.waitFor(() => expect(dialog).not.toBeInTheDocument())
  })

  it('offers the connector where it manages the application, and shows the server’s refusal', async () => {
    stubs.managed = new Set(['app-sap'])
    stubs.request.mockRejectedValue(new Error('Ce droit n’attend pas de suppression : seul un droit refusé ou non revu à la clôture peut être supprimé.'))
    renderButton()
    await userEvent.click(screen.getByRole('button', { name: `Demander la suppression ${WHAT}` }))
    await userEvent.click(await screen.findByRole('radio', { name: 'Par le connecteur d’annuaire' }))
    expect(screen.queryByRole('textbox', { name: 'Référence du ticket' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Demander la suppression' }))
    expect(stubs.request).toHaveBeenCalledWith({ rightId: 'right-1', method: 'connector', ticket: null })
    expect(await screen.findByRole('alert')).toHaveTextContent('Ce droit n’attend pas de suppression')
    expect(screen.getByRole('dialog', { name: 'Demander la suppression' })).toBeInTheDocument()
  })
})
