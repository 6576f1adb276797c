/**
 * The reviewers of the decisions measure, in a process of their own (measureDecisionsApart). Input: one JSON argument
 * { backendUrl, emails, slots, perReviewer }; output: the DecisionsResult as JSON on stdout.
 */
import { DEV_ANON_KEY } from '../../../supabase/local/keys'
import { LiveSocket } from '../support/phoenix'
import { loadReviewers, measureDecisions } from './decisions'

const input = JSON.parse(process.argv[2] ?? '{}') as { backendUrl: string; emails: string[]; slots: number; perReviewer: number }
// Enough accounts for every session to warm up and decide on an account of its own, where the dataset has them.
const accounts = await loadReviewers(input.backendUrl, input.emails, 2, { accounts: input.slots, items: 2 * input.perReviewer })
// Reviewers decide with their browser's live connection open, joined to their own topic as the SPA joins it.
const sockets: LiveSocket[] = []
for (const account of accounts.slice(0, input.slots)) {
  const { data } = await account.api.auth.getSession()
  const session = data.session
  if (!session) continue
  const socket = await LiveSocket.open(input.backendUrl, DEV_ANON_KEY, () => undefined)
  await socket.join(`user:${session.user.id}`, session.access_token)
  sockets.push(socket)
}
const heartbeats = setInterval(() => sockets.forEach((socket) => socket.heartbeat()), 25_000)
const result = await measureDecisions(accounts, input.slots, input.perReviewer)
clearInterval(heartbeats)
await Promise.all(sockets.map((socket) => socket.close()))
process.stdout.write(JSON.stringify({ ...result, liveConnections: sockets.length }))
process.exit(0)
