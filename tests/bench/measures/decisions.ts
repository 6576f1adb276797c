/**
 * Measure 3: validate_user_right round trips through supabase-js while many reviewers decide at once. Each reviewer
 * (a signed-in client) approves its own queue items one after another; all reviewers run concurrently.
 */
import { apiAs, type Api } from '../support/api'
import { percentile, round } from '../support/stats'

interface QueueRow {
  right_id: string
  campaign_id: string | null
  approve_status: string | null
}

export interface Reviewer {
  email: string
  api: Api
  items: QueueRow[]
}

export interface DecisionsResult {
  reviewers: number
  distinctAccounts: number
  decisionsPerReviewer: number
  decisions: number
  failures: number
  firstFailure: string | null
  p50Ms: number
  p95Ms: number
  maxMs: number
  wallMs: number
  /** One reviewer alone, same number of decisions: the round trip without queueing behind the others. */
  alone: { decisions: number; p50Ms: number; p95Ms: number } | null
}

/** Signs the accounts in and keeps those with at least `needed` approvable items of their own (first 1000 of the queue). */
export async function loadReviewers(backendUrl: string, emails: readonly string[], needed: number): Promise<Reviewer[]> {
  const reviewers: Reviewer[] = []
  // A right in two queues (two reviewers at one stage) is given to the first only: the second would be refused.
  const claimed = new Set<string>()
  for (const email of emails) {
    const api = await apiAs(backendUrl, email)
    const { data, error } = await api.rpc('review_queue', { p_limit: 1000 })
    if (error) throw new Error(`review_queue for ${email}: ${error.message}`)
    const items = ((data ?? []) as unknown as QueueRow[]).filter((item) => item.approve_status !== null && !claimed.has(item.right_id))
    if (items.length < needed) continue
    for (const item of items) claimed.add(item.right_id)
    reviewers.push({ email, api, items })
  }
  return reviewers
}

/** Up to `slots` sessions with `perSlot` items each, an account's queue split into disjoint slices when needed. */
function sessionsOf(accounts: Reviewer[], slots: number, perSlot: number) {
  const sessions: { api: Api; items: QueueRow[] }[] = []
  for (let slot = 0; sessions.length < slots && slot < slots * accounts.length; slot += 1) {
    const account = accounts[slot % accounts.length]!
    const slice = Math.floor(slot / accounts.length)
    const items = account.items.slice(slice * perSlot, (slice + 1) * perSlot)
    if (items.length === perSlot) sessions.push({ api: account.api, items })
  }
  return sessions
}

/**
 * `slots` concurrent reviewers, each deciding `perReviewer` times after one warm-up decision. With fewer accounts than
 * slots, an account's queue is split into disjoint slices (several sessions of one person).
 */
export async function measureDecisions(accounts: Reviewer[], slots: number, perReviewer: number): Promise<DecisionsResult> {
  // Small datasets (the demo) cannot feed every session: fewer decisions each, rather than none.
  let sessions: { api: Api; items: QueueRow[] }[] = []
  for (; perReviewer >= 1; perReviewer -= 1) {
    sessions = sessionsOf(accounts, slots, perReviewer + 1)
    if (sessions.length >= Math.min(slots, accounts.length) || perReviewer === 1) break
  }
  if (sessions.length === 0) throw new Error('No reviewer has enough pending items')

  const durations: number[] = []
  const failures: string[] = []
  /** One decision; its round trip goes to `into` when it succeeded. */
  const decide = async (api: Api, item: QueueRow, into: number[] | null) => {
    const started = performance.now()
    const { error } = await api.rpc('validate_user_right', { right_id: item.right_id, new_status: item.approve_status as never })
    const elapsed = performance.now() - started
    if (error) failures.push(error.message)
    else into?.push(elapsed)
  }
  // Warm-up: one decision per session, all at once, not counted.
  await Promise.all(sessions.map(({ api, items }) => decide(api, items[0]!, null)))
  const started = performance.now()
  await Promise.all(
    sessions.map(async ({ api, items }) => {
      for (const item of items.slice(1)) await decide(api, item, durations)
    }),
  )
  const wallMs = performance.now() - started

  const used = new Set(sessions.flatMap((session) => session.items.map((item) => item.right_id)))
  const spare = accounts
    .map((account) => ({ api: account.api, items: account.items.filter((item) => !used.has(item.right_id)).slice(0, perReviewer) }))
    .find((candidate) => candidate.items.length === perReviewer)
  let alone: DecisionsResult['alone'] = null
  if (spare) {
    const single: number[] = []
    for (const item of spare.items) await decide(spare.api, item, single)
    alone = { decisions: single.length, p50Ms: round(percentile(single, 50), 1), p95Ms: round(percentile(single, 95), 1) }
  }
  return {
    reviewers: sessions.length,
    distinctAccounts: new Set(sessions.map((session) => session.api)).size,
    decisionsPerReviewer: perReviewer,
    decisions: durations.length,
    failures: failures.length,
    firstFailure: failures[0] ?? null,
    p50Ms: round(percentile(durations, 50), 1),
    p95Ms: round(percentile(durations, 95), 1),
    maxMs: round(Math.max(...durations), 1),
    wallMs: round(wallMs),
    alone,
  }
}

export interface BackgroundDecisions {
  reviewers: number
  decisions: number
  failures: number
  firstFailure: string | null
  p50Ms: number | null
  p95Ms: number | null
  maxMs: number | null
}

/**
 * Reviewers who keep deciding while `task` runs (issue 19: a campaign's start must not block the reviewers of other
 * campaigns). Each takes its items in turn with `pauseMs` between two decisions, as a person reading the next line
 * would, and stops when the task has settled or its items run out; `task`'s own outcome is returned untouched.
 */
export async function decideDuring<T>(reviewers: Reviewer[], task: Promise<T>, pauseMs: number): Promise<{ value: T; decisions: BackgroundDecisions }> {
  let settled = false
  const done = task.finally(() => {
    settled = true
  })
  const durations: number[] = []
  const failures: string[] = []
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, pauseMs))
  const loops = reviewers.map(async ({ api, items }) => {
    for (const item of items) {
      if (settled) return
      const started = performance.now()
      const { error } = await api.rpc('validate_user_right', { right_id: item.right_id, new_status: item.approve_status as never })
      if (error) failures.push(error.message)
      else durations.push(performance.now() - started)
      await Promise.race([pause(), done.catch(() => undefined)])
    }
  })
  const [value] = await Promise.all([done, ...loops])
  const stat = (value: number) => (durations.length > 0 ? round(value, 1) : null)
  return {
    value,
    decisions: {
      reviewers: reviewers.length,
      decisions: durations.length,
      failures: failures.length,
      firstFailure: failures[0] ?? null,
      p50Ms: stat(percentile(durations, 50)),
      p95Ms: stat(percentile(durations, 95)),
      maxMs: stat(Math.max(...durations)),
    },
  }
}
