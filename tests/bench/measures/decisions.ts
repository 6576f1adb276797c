/**
 * Measure 3: validate_user_right round trips through supabase-js while many reviewers decide at once. Each reviewer
 * (a signed-in client) approves its own queue items one after another; all reviewers run concurrently.
 */
import { apiAs, type Api } from '../support/api'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { collectGarbage } from '../support/garbage'
import { percentile, round } from '../support/stats'

export interface QueueRow {
  right_id: string
  campaign_id: string | null
  approve_status: string | null
  /** Whose right it is and its application: the live-updates measure knows from them who is told of the decision. */
  holder_id: string
  application_id: string
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
  /** Decisions per reviewer before the timed round, not counted. */
  warmupPerReviewer: number
  decisions: number
  failures: number
  firstFailure: string | null
  p50Ms: number
  p95Ms: number
  maxMs: number
  wallMs: number
  /** CPU that the process of the reviewers' clients spent per timed decision (all its threads). */
  clientCpuMs: number
  /** One reviewer alone, same number of decisions: the round trip without queueing behind the others. */
  alone: { decisions: number; p50Ms: number; p95Ms: number } | null
  /** Realtime connections the reviewers held open meanwhile, each joined to its reviewer's topic. */
  liveConnections?: number
}

/**
 * Signs the accounts in and keeps those with at least `needed` approvable items of their own (first 1000 of the queue),
 * stopping once `enough.accounts` of them have at least `enough.items`.
 */
export async function loadReviewers(
  backendUrl: string,
  emails: readonly string[],
  needed: number,
  enough?: { accounts: number; items: number },
): Promise<Reviewer[]> {
  const reviewers: Reviewer[] = []
  // A right in two queues (two reviewers at one stage) is given to the first only: the second would be refused.
  const claimed = new Set<string>()
  for (const email of emails) {
    const api = await apiAs(backendUrl, email)
    const { data, error } = await api.rpc('review_queue', { p_limit: 1000 })
    if (error) throw new Error(`review_queue for ${email}: ${error.message}`)
    // Only the fields the rounds use: the reviewers' process keeps these through the timed round, where whole rows
    // (up to 1,000 an account) would only give its collector more to mark.
    const items = ((data ?? []) as unknown as QueueRow[])
      .filter((item) => item.approve_status !== null && !claimed.has(item.right_id))
      .map(({ right_id, campaign_id, approve_status, holder_id, application_id }) => ({ right_id, campaign_id, approve_status, holder_id, application_id }))
    if (items.length < needed) continue
    for (const item of items) claimed.add(item.right_id)
    reviewers.push({ email, api, items })
    if (enough && reviewers.filter((reviewer) => reviewer.items.length >= enough.items).length >= enough.accounts) break
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
 * `slots` concurrent reviewers, each deciding `perReviewer` times after a warm-up round of as many decisions, not
 * counted (one when the queues are too short). The bench starts its server moments before: the first round after a
 * start, while the server's compiler and each connection's plans warm up, was 20-40 ms slower at the p95 at scale 10,
 * which a server that has run for a while no longer pays. With fewer accounts than slots, an account's queue is split
 * into disjoint slices (several sessions of one person).
 */
export async function measureDecisions(accounts: Reviewer[], slots: number, perReviewer: number): Promise<DecisionsResult> {
  // Small datasets (the demo) cannot feed every session: a shorter warm-up, then fewer decisions each, rather than none.
  let sessions: { api: Api; items: QueueRow[] }[] = []
  let warmup = 1
  choosing: for (; perReviewer >= 1; perReviewer -= 1) {
    for (const candidate of [perReviewer, 1]) {
      sessions = sessionsOf(accounts, slots, perReviewer + candidate)
      warmup = candidate
      if (sessions.length >= Math.min(slots, accounts.length)) break choosing
    }
    if (perReviewer === 1) break
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
  await Promise.all(
    sessions.map(async ({ api, items }) => {
      for (const item of items.slice(0, warmup)) await decide(api, item, null)
    }),
  )
  collectGarbage()
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  await Promise.all(
    sessions.map(async ({ api, items }) => {
      for (const item of items.slice(warmup)) await decide(api, item, durations)
    }),
  )
  const wallMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)

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
    warmupPerReviewer: warmup,
    decisions: durations.length,
    failures: failures.length,
    firstFailure: failures[0] ?? null,
    p50Ms: round(percentile(durations, 50), 1),
    p95Ms: round(percentile(durations, 95), 1),
    maxMs: round(Math.max(...durations), 1),
    wallMs: round(wallMs),
    clientCpuMs: round((cpu.user + cpu.system) / 1000 / Math.max(1, durations.length + failures.length), 2),
    alone,
  }
}

/**
 * measureDecisions with the accounts among `emails`, in a child process that holds nothing but the reviewers' clients.
 * Each reviewer is a browser on a machine of its own; here they share the server's cores, and in the bench's own
 * process they also shared a heap with the browser driver and the app's preview server, whose young collections
 * (15-19 ms at scale 10, several per round) stopped every reviewer's response handling at once.
 */
export function measureDecisionsApart(backendUrl: string, emails: readonly string[], slots: number, perReviewer: number): Promise<DecisionsResult> {
  const entry = fileURLToPath(new URL('./decisions-process.ts', import.meta.url))
  const child = spawn(process.execPath, [...process.execArgv, entry, JSON.stringify({ backendUrl, emails, slots, perReviewer })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as DecisionsResult)
      else reject(new Error(`The reviewers' process failed (exit code ${code}): ${stderr.trim().split('\n').slice(-5).join(' ')}`))
    })
  })
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
 * Reviewers who keep deciding while `task` runs (a campaign's start must not block the reviewers of other campaigns).
 * Each takes its items in turn with `pauseMs` between two decisions, as a person reading the next line would, and
 * stops when the task has settled or its items run out; `task`'s own outcome is returned untouched.
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
