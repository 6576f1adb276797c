/**
 * The reviewers of the live-updates measure, in a process of their own as in the decisions measure (one signed-in
 * supabase-js client each): loaded once, they warm up with a round of untimed decisions, then decide one round per
 * number of open connections, each noting when every decision was sent and answered (now(), the clock the open
 * connections' process notes arrivals with), whose right it was and of which application.
 */
import { collectGarbage } from '../support/garbage'
import { serveHelper } from '../support/ipc'
import { now } from '../support/phoenix'
import { loadReviewers, type QueueRow, type Reviewer } from './decisions'

export interface LoadInput {
  backendUrl: string
  emails: string[]
  slots: number
  /** Timed rounds to come, each of perReviewer decisions per reviewer, after a warm-up round of as many. */
  rounds: number
  perReviewer: number
}

export interface Decided {
  right_id: string
  holder_id: string
  application_id: string
}

export interface LoadedReviewer {
  email: string
  id: string
  /** The items of each timed round. */
  rounds: Decided[][]
}

export interface DecisionRecord extends Decided {
  reviewer: string
  startAt: number
  endAt: number
  error: string | null
}

export interface RoundResult {
  records: DecisionRecord[]
  wallMs: number
  /** CPU this process spent per decision (its clients' share of the machine). */
  clientCpuMs: number
}

let reviewers: (Reviewer & { id: string })[] = []
let plan: { warmup: QueueRow[]; rounds: QueueRow[][] }[] = []

async function decide(reviewer: Reviewer & { id: string }, item: QueueRow): Promise<DecisionRecord> {
  const startAt = now()
  const { error } = await reviewer.api.rpc('validate_user_right', { right_id: item.right_id, new_status: item.approve_status as never })
  return {
    reviewer: reviewer.id,
    right_id: item.right_id,
    holder_id: item.holder_id,
    application_id: item.application_id,
    startAt,
    endAt: now(),
    error: error?.message ?? null,
  }
}

const decided = ({ right_id, holder_id, application_id }: QueueRow): Decided => ({ right_id, holder_id, application_id })

serveHelper({
  async load(input: LoadInput): Promise<LoadedReviewer[]> {
    const per = input.perReviewer
    const needed = (1 + input.rounds) * per
    const accounts = await loadReviewers(input.backendUrl, input.emails, needed, { accounts: input.slots, items: needed })
    reviewers = []
    for (const account of accounts.slice(0, input.slots)) {
      const { data } = await account.api.auth.getSession()
      const id = data.session?.user.id
      if (id) reviewers.push({ ...account, id })
    }
    plan = reviewers.map((reviewer) => ({
      warmup: reviewer.items.slice(0, per),
      rounds: Array.from({ length: input.rounds }, (_, round) => reviewer.items.slice((1 + round) * per, (2 + round) * per)),
    }))
    return reviewers.map((reviewer, i) => ({ email: reviewer.email, id: reviewer.id, rounds: plan[i]!.rounds.map((items) => items.map(decided)) }))
  },
  /** The untimed round: the server's compiler and each connection's plans warm up (see measureDecisions). */
  async warmup(): Promise<number> {
    const records = await Promise.all(
      reviewers.map(async (reviewer, i) => {
        const done: DecisionRecord[] = []
        for (const item of plan[i]!.warmup) done.push(await decide(reviewer, item))
        return done
      }),
    )
    return records.flat().filter((record) => record.error !== null).length
  },
  async round(input: { index: number }): Promise<RoundResult> {
    collectGarbage()
    const cpuBefore = process.cpuUsage()
    const started = now()
    const records = await Promise.all(
      reviewers.map(async (reviewer, i) => {
        const done: DecisionRecord[] = []
        for (const item of plan[i]!.rounds[input.index] ?? []) done.push(await decide(reviewer, item))
        return done
      }),
    )
    const wallMs = now() - started
    const cpu = process.cpuUsage(cpuBefore)
    const all = records.flat()
    return { records: all, wallMs: Math.round(wallMs), clientCpuMs: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, all.length)).toFixed(2)) }
  },
})
