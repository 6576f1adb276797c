import { screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'

// The neighbour stubbed is the supabase-js client, answering like the SQL functions over a small queue: a decision
// takes the right out of review_queue and out of review_queue_count, as validate_user_right does.
const backend = vi.hoisted(() => ({
  awaiting: [] as { right_id: string; holder_name: string; application_name: string; role_name: string }[],
  calls: [] as string[],
}))

vi.mock('@/lib/supabase', () => {
  const channel = { on: () => channel, subscribe: () => channel }
  return {
    getSupabase: () => ({
      channel: () => channel,
      removeChannel: async () => 'ok',
      async rpc(name: string, args: Record<string, unknown>) {
        backend.calls.push(name)
        switch (name) {
          case 'review_queue':
            return {
              data: backend.awaiting.map((right) => ({
                ...right,
                status: 'pending',
                last_used_at: null,
                recommendation: null,
                approve_status: 'validated_manager',
                refuse_status: 'refused_manager',
              })),
              error: null,
            }
          case 'review_queue_count':
            return { data: backend.awaiting.length, error: null }
          case 'manager_dashboard':
            return { data: [{ team_size: 2, pending_count: backend.awaiting.length, awaiting_decision_count: backend.awaiting.length }], error: null }
          case 'team_progress':
            return { data: [], error: null }
          case 'validate_user_right':
            backend.awaiting = backend.awaiting.filter((right) => right.right_id !== args.right_id)
            return { data: null, error: null }
          default:
            throw new Error(`unexpected rpc ${name}`)
        }
      },
    }),
  }
})

beforeEach(() => {
  backend.calls = []
  backend.awaiting = [
    { right_id: 'r1', holder_name: 'Julie Martin', application_name: 'SAP Finance', role_name: 'Comptable' },
    { right_id: 'r2', holder_name: 'Lucas Bonnet', application_name: 'Active Directory', role_name: 'Compte de service' },
  ]
})

it('refreshes the queue, the counters and the bell after a decision taken on the manager dashboard', async () => {
  const { user } = renderApp({
    path: '/app/dashboard',
    gateway: createFakeGateway({ sessionUser: makeUser('manager', { id: 'id-manager' }) }),
  })
  await screen.findByRole('link', { name: 'Notifications : mes revues, 2 droits en attente de ma décision' })
  const table = await screen.findByRole('table', { name: "Droits à valider pour l'équipe" })
  expect(screen.getByTestId('counter-En attente')).toHaveTextContent('2')

  await user.click(within(table).getByRole('button', { name: 'Refuser Active Directory — Compte de service (Lucas Bonnet)' }))
  const dialog = await screen.findByRole('dialog', { name: 'Revue du droit' })
  await user.click(within(dialog).getByRole('button', { name: 'Refuser' }))

  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  expect(await screen.findByRole('link', { name: 'Notifications : mes revues, 1 droit en attente de ma décision' })).toBeInTheDocument()
  await waitFor(() => expect(within(table).queryByText('Lucas Bonnet')).not.toBeInTheDocument())
  expect(within(table).getByText('Julie Martin')).toBeInTheDocument()
  expect(screen.getByTestId('counter-En attente')).toHaveTextContent('1')
  expect(backend.calls).toContain('validate_user_right')
})
