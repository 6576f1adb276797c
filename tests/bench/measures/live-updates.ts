/**
 * Live updates with many browsers open. For each number N of open connections (ascending, each adding to
 * the last), N people of the generated organisation each hold one WebSocket to the backend's Realtime, signed in as
 * themselves and joined to the private topics the SPA joins (their own, and admin's or rssi's for those roles), in a
 * process of their own (live-connections-process.ts). With them open, the reviewers decide a round of their own items
 * (live-deciders-process.ts, as the decisions measure does), and the measure reports the decision round trips, the
 * processor time the backend and the database spent per decision (/proc, around the round and its deliveries), the
 * broadcasts the connections received per decision (and, on PostgreSQL, the messages the database inserted into
 * realtime.messages), and the delay from each decision's response to the arrival of its message on the topic of each
 * connected person it concerns. The reviewers, the holders of the rights they decide and the applications' owners
 * are connected first, so that the deliveries measured are theirs. Then, with the most connections open, the largest
 * active campaign is completed and a new one started over the same scope, as the campaign-record measure does: the
 * messages that start sent per affected person, and the time from its answer until every connected person it
 * concerns had received its message.
 */
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import type { Api } from '../support/api'
import { startHelper, type Helper } from '../support/ipc'
import { now } from '../support/phoenix'
import { parentPid, postgresCpuMs, processCpuMs, processRssBytes } from '../support/proc'
import { percentile, round } from '../support/stats'
import { largestActive, transition } from './campaign-record'
import type { OpenResult, Person, Receipts } from './live-connections-process'
import type { DecisionRecord, LoadedReviewer, RoundResult } from './live-deciders-process'

export interface LiveUpdatesOptions {
  backendUrl: string
  backendPid: number
  service: Api
  admin: Api
  /** Set on PostgreSQL: its processes' CPU and the messages inserted are read from it. */
  databaseUrl: string | undefined
  /** Numbers of open connections, one round of decisions each. */
  connections: number[]
  reviewerEmails: string[]
  reviewers: number
  perReviewer: number
  /** Complete the largest active campaign and start one over its scope with the most connections open. */
  campaignStart: boolean
  log: (message: string) => void
}

export interface Delivery {
  /** (decision, connected person it concerns) pairs timed. */
  pairs: number
  /** Of them, messages there before the decision's response reached its reviewer (counted as 0 ms). */
  beforeResponse: number
  p50Ms: number | null
  p95Ms: number | null
  maxMs: number | null
  /** Person topics whose messages matched the decisions that concern them one for one. */
  topics: number
  /** Person topics left out: more or fewer messages than decisions concerning them (an audience not modelled here). */
  unmatchedTopics: number
  /** Messages missing on those topics, against the decisions concerning them. */
  missing: number
}

export interface LiveRound {
  /** Sockets open during the round (one per person). */
  connections: number
  /** The round without connections run again after the others. */
  again: boolean
  opening: OpenResult | null
  /** The backend's resident memory before and after opening this round's new connections. */
  memory: { beforeBytes: number; afterBytes: number; perConnectionBytes: number | null } | null
  reviewers: number
  decisions: number
  failures: number
  firstFailure: string | null
  p50Ms: number
  p95Ms: number
  maxMs: number
  wallMs: number
  /** The backend's process (on PGlite, the database runs inside it), per decision. */
  serverCpuMs: number | null
  /** The PostgreSQL processes serving connections, per decision; null on PGlite. */
  databaseCpuMs: number | null
  /** The whole cluster, autovacuum and writers included, per decision. */
  databaseTotalCpuMs: number | null
  clientCpuMs: number
  /**
   * The open connections' process, per decision: receiving the broadcasts and heartbeating. Each of those clients is
   * a browser on a machine of its own; here they take their share of the server's two cores.
   */
  connectionsCpuMs: number | null
  /** Broadcast frames all connections received, per decision; to person topics in all, to admin and rssi per connection. */
  framesPerDecision: number
  framesByTopic: { person: number; admin: number; rssi: number; other: number }
  /** Rows inserted into realtime.messages per decision (PostgreSQL only). */
  messagesPerDecision: number | null
  delivery: Delivery | null
}

export interface LiveStart {
  campaign: string
  completion: { items: number; durationMs: number }
  items: number
  durationMs: number
  connections: number
  /** Everyone the new campaign's items name (holder, manager, BPOs, RA), and those of them connected. */
  affectedPeople: number
  affectedConnected: number
  reached: number
  /** Broadcast frames per person topic during the start: the most any connected person received, and the mean over the affected. */
  framesPerPersonMax: number
  framesPerPersonMean: number
  /** Frames per connection on the role topics. */
  audiences: Record<string, number>
  /** Rows inserted into realtime.messages by the start (PostgreSQL only). */
  messages: number | null
  /** From the start's answer (its commit) until the last affected connected person had its first message. */
  allCurrentMs: number | null
  /** The same from the request. */
  allCurrentFromRequestMs: number | null
  deliveryP95Ms: number | null
  serverCpuMs: number | null
  databaseCpuMs: number | null
}

export interface LiveUpdatesResult {
  backend: 'postgres' | 'pglite'
  /** Active people who may be connected. */
  people: number
  reviewers: number
  warmupFailures: number
  rounds: LiveRound[]
  start: LiveStart | { error: string } | null
}

const OPEN_CONCURRENCY = 64
const PAGE = 1000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Active people, in id order (service role, a page at a time). */
async function activePeople(service: Api): Promise<Person[]> {
  const people: Person[] = []
  for (let after: string | null = null; ; ) {
    let query = service.from('users').select('id, email, role').eq('active', true).order('id').limit(PAGE)
    if (after) query = query.gt('id', after)
    const { data, error } = await query
    if (error) throw new Error(`Listing the people: ${error.message}`)
    people.push(...data.map((row) => ({ id: row.id, email: row.email, role: String(row.role) })))
    if (data.length < PAGE) return people
    after = data[data.length - 1]!.id
  }
}

/** Everyone a decision on these rights concerns as the rights trigger sees them: holders, their managers, the applications' owners. */
async function audienceModel(service: Api, reviewers: LoadedReviewer[]) {
  const holders = [...new Set(reviewers.flatMap((reviewer) => reviewer.rounds.flat().map((item) => item.holder_id)))]
  const managerOf = new Map<string, string | null>()
  for (let start = 0; start < holders.length; start += 100) {
    const { data, error } = await service.from('users').select('id, manager_id').in('id', holders.slice(start, start + 100))
    if (error) throw new Error(`Reading the holders' managers: ${error.message}`)
    for (const row of data) managerOf.set(row.id, row.manager_id)
  }
  const owners = new Map<string, string[]>()
  for (let after: string | null = null; ; ) {
    let query = service.from('applications').select('id, bpo_metier_id, bpo_groupe_id, ra_id').order('id').limit(PAGE)
    if (after) query = query.gt('id', after)
    const { data, error } = await query
    if (error) throw new Error(`Reading the applications' owners: ${error.message}`)
    for (const row of data) owners.set(row.id, [row.bpo_metier_id, row.bpo_groupe_id, row.ra_id].filter((id): id is string => Boolean(id)))
    if (data.length < PAGE) break
    after = data[data.length - 1]!.id
  }
  return (decision: { reviewer?: string; holder_id: string; application_id: string }): Set<string> => {
    const people = new Set<string>([decision.holder_id, ...(owners.get(decision.application_id) ?? [])])
    const manager = managerOf.get(decision.holder_id)
    if (manager) people.add(manager)
    if (decision.reviewer) people.add(decision.reviewer)
    return people
  }
}

/**
 * Who to connect first: the reviewers, the administrators and security officers (their role topics hear of every
 * decision), then everyone each timed round's decisions concern, round by round, then everyone else in id order.
 */
function connectionOrder(people: Person[], reviewers: LoadedReviewer[], audienceOf: (decision: { holder_id: string; application_id: string }) => Set<string>, rounds: number[]): Person[] {
  const byId = new Map(people.map((person) => [person.id, person]))
  const order: Person[] = []
  const seen = new Set<string>()
  const add = (id: string) => {
    const person = byId.get(id)
    if (!person || seen.has(id)) return
    seen.add(id)
    order.push(person)
  }
  for (const reviewer of reviewers) add(reviewer.id)
  for (const person of people) if (person.role === 'admin' || person.role === 'rssi') add(person.id)
  rounds.forEach((connections, index) => {
    if (connections === 0) return
    for (const reviewer of reviewers) for (const item of reviewer.rounds[index] ?? []) for (const id of audienceOf(item)) add(id)
  })
  for (const person of people) add(person.id)
  return order
}

/**
 * Waits until no broadcast has arrived for `quietMs` (at least `minMs` in all, at most `maxMs`); with `expectSome`,
 * the quiet counts only once a first broadcast has arrived.
 */
async function waitForQuiet(connections: Helper, { quietMs, minMs, maxMs, expectSome = false }: { quietMs: number; minMs: number; maxMs: number; expectSome?: boolean }): Promise<void> {
  const started = now()
  await sleep(minMs)
  for (;;) {
    const { at } = await connections.call<{ frames: number; at: number | null }>('lastReceipt')
    if (now() - started >= maxMs) return
    if (at !== null || !expectSome) {
      const quietSince = Math.max(at ?? started, started)
      if (now() - quietSince >= quietMs) return
    }
    await sleep(100)
  }
}

/** The processor time of the backend and of the PostgreSQL cluster (its connections' processes, and in all) so far. */
async function cpuSample(backendPid: number, postmaster: number | null) {
  const database = postmaster === null ? null : await postgresCpuMs(postmaster)
  return { server: await processCpuMs(backendPid), database: database?.connections ?? null, databaseTotal: database?.total ?? null }
}

const perDecision = (after: number | null, before: number | null, decisions: number) =>
  after === null || before === null ? null : round((after - before) / Math.max(1, decisions), 2)

/** Pairs each person topic's messages with the decisions concerning that person, in order, and times the deliveries. */
function deliveries(records: DecisionRecord[], receipts: Receipts, connected: ReadonlyMap<string, string>, audienceOf: (decision: DecisionRecord) => Set<string>): Delivery {
  const expected = new Map<string, DecisionRecord[]>()
  for (const record of records) {
    if (record.error !== null) continue
    for (const person of audienceOf(record)) {
      if (!connected.has(person)) continue
      const list = expected.get(person) ?? []
      list.push(record)
      expected.set(person, list)
    }
  }
  const delays: number[] = []
  let beforeResponse = 0
  let topics = 0
  let unmatchedTopics = 0
  let missing = 0
  for (const [person, decisions] of expected) {
    const arrivals = [...(receipts.byTopic[`user:${person}`] ?? [])].sort((a, b) => a - b)
    if (arrivals.length !== decisions.length) {
      unmatchedTopics++
      missing += Math.max(0, decisions.length - arrivals.length)
      continue
    }
    topics++
    // Messages arrive in commit order; a person's decisions are ordered by their answers.
    decisions.sort((a, b) => a.endAt - b.endAt)
    decisions.forEach((decision, i) => {
      const delay = arrivals[i]! - decision.endAt
      if (delay < 0) beforeResponse++
      delays.push(Math.max(0, delay))
    })
  }
  const stat = (p: number) => (delays.length > 0 ? round(percentile(delays, p), 1) : null)
  return { pairs: delays.length, beforeResponse, p50Ms: stat(50), p95Ms: stat(95), maxMs: delays.length > 0 ? round(Math.max(...delays), 1) : null, topics, unmatchedTopics, missing }
}

/** Frames per decision: to person topics in all, and per connection joined to the admin and rssi topics. */
function framesByTopic(receipts: Receipts, decisions: number, connected: ReadonlyMap<string, string>): LiveRound['framesByTopic'] {
  const counts = { person: 0, admin: 0, rssi: 0, other: 0 }
  for (const [topic, arrivals] of Object.entries(receipts.byTopic)) {
    const kind = topic.startsWith('user:') ? 'person' : topic === 'admin' || topic === 'rssi' ? topic : 'other'
    counts[kind] += arrivals.length
  }
  const joined = (role: string) => Math.max(1, [...connected.values()].filter((value) => value === role).length)
  const per = (value: number, connections = 1) => round(value / connections / Math.max(1, decisions), 2)
  return { person: per(counts.person), admin: per(counts.admin, joined('admin')), rssi: per(counts.rssi, joined('rssi')), other: per(counts.other) }
}

/** The database side on PostgreSQL: its postmaster (for /proc) and the count of messages queued for delivery. */
async function postgresProbe(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
  const postmaster = await parentPid(rows[0]!.pid)
  return {
    postmaster,
    /** Every message inserted into realtime.messages is queued by the local server's trigger, one sequence value each. */
    async messages(): Promise<number | null> {
      const result = await client
        .query<{ value: string }>(`select (last_value - case when is_called then 0 else 1 end)::text as value from realtime_local.broadcasts_id_seq`)
        .catch(() => null)
      return result ? Number(result.rows[0]!.value) : null
    },
    /** The distinct people a campaign's items name, all of them. */
    async campaignPeople(campaignId: string): Promise<string[]> {
      const result = await client.query<{ id: string }>(
        `select distinct p::text as id
           from public.campaign_items i
          cross join lateral unnest(array[i.holder_id, i.manager_id, i.bpo_metier_id, i.bpo_groupe_id, i.ra_id]) p
          where i.campaign_id = $1 and p is not null`,
        [campaignId],
      )
      return result.rows.map((row) => row.id)
    },
    /**
     * Terminer as the administrator, straight on the database without the API roles' 8 s statement timeout, which
     * the completion of the largest campaign outlasts on a loaded machine (PGlite has no statement timeout).
     */
    async complete(campaignId: string): Promise<number> {
      const started = performance.now()
      await client.query('begin')
      try {
        await client.query(
          `select set_config('statement_timeout', '0', true), set_config('role', 'authenticated', true),
                  set_config('request.jwt.claims', json_build_object('sub', u.id, 'email', u.email, 'role', 'authenticated')::text, true)
             from public.users u where u.email = 'admin@example.com'`,
        )
        await client.query(`update public.campaigns set status = 'completed' where id = $1`, [campaignId])
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw new Error(`Setting the campaign completed: ${(error as Error).message}`, { cause: error })
      }
      return round(performance.now() - started)
    },
    end: () => client.end(),
  }
}

/** The same people through the API (PGlite has no other way in), a page of items at a time. */
async function campaignPeopleByApi(service: Api, campaignId: string): Promise<string[]> {
  const people = new Set<string>()
  for (let after: string | null = null; ; ) {
    let query = service.from('campaign_items').select('right_id, holder_id, manager_id, bpo_metier_id, bpo_groupe_id, ra_id').eq('campaign_id', campaignId).order('right_id').limit(PAGE)
    if (after) query = query.gt('right_id', after)
    const { data, error } = await query
    if (error) throw new Error(`Reading the new campaign's items: ${error.message}`)
    for (const row of data) for (const id of [row.holder_id, row.manager_id, row.bpo_metier_id, row.bpo_groupe_id, row.ra_id]) if (id) people.add(id)
    if (data.length < PAGE) return [...people]
    after = data[data.length - 1]!.right_id
  }
}

export async function measureLiveUpdates(options: LiveUpdatesOptions): Promise<LiveUpdatesResult> {
  const { log, service } = options
  const levels = [...new Set(options.connections)].sort((a, b) => a - b)
  const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))
  // With no connection and some: the round without is run again at the end, so that drift shows.
  const repeatBaseline = levels[0] === 0 && levels.length > 1
  const database = options.databaseUrl ? await postgresProbe(options.databaseUrl) : null
  let deciders: Helper | undefined
  let connections: Helper | undefined
  try {
    const deciding = (deciders = await startHelper(here('./live-deciders-process.ts'), "the reviewers' process"))
    const listening = (connections = await startHelper(here('./live-connections-process.ts'), "the connections' process"))
    const reviewers = await deciders.call<LoadedReviewer[]>('load', {
      backendUrl: options.backendUrl,
      emails: options.reviewerEmails,
      slots: options.reviewers,
      rounds: levels.length + (repeatBaseline ? 1 : 0),
      perReviewer: options.perReviewer,
    })
    if (reviewers.length === 0) throw new Error('No reviewer has enough pending items for the rounds')
    log(`  ${reviewers.length} reviewers, ${levels.length + (repeatBaseline ? 1 : 0)} rounds of ${options.perReviewer} decisions each after as many untimed`)
    const warmupFailures = await deciders.call<number>('warmup')
    const people = await activePeople(service)
    const model = await audienceModel(service, reviewers)
    const order = connectionOrder(people, reviewers, model, levels)
    /** Connected people and their roles. */
    const connected = new Map<string, string>()
    const results: LiveRound[] = []

    /** Opens connections for the next people of the order until `wanted` are connected; the backend's RSS around it. */
    const openUpTo = async (wanted: number) => {
      const target = Math.min(wanted, order.length)
      if (target <= connected.size) return { opening: null, memory: null }
      const adding = order.slice(connected.size, target)
      const beforeBytes = await processRssBytes(options.backendPid)
      log(`  opening ${adding.length} connections (to ${target})…`)
      const opening = await listening.call<OpenResult>('open', { backendUrl: options.backendUrl, people: adding, concurrency: OPEN_CONCURRENCY })
      for (const person of adding) connected.set(person.id, person.role)
      log(`    ${opening.opened} opened in ${(opening.durationMs / 1000).toFixed(1)} s${opening.failed ? `, ${opening.failed} failed: ${opening.firstFailure}` : ''}`)
      // The joins' garbage and the server's buffers settle before the idle memory is read.
      await sleep(3000)
      const afterBytes = await processRssBytes(options.backendPid)
      const memory = beforeBytes === null || afterBytes === null ? null : { beforeBytes, afterBytes, perConnectionBytes: opening.opened > 0 ? Math.round((afterBytes - beforeBytes) / opening.opened) : null }
      return { opening, memory }
    }

    const timedRound = async (index: number, opened: { opening: OpenResult | null; memory: LiveRound['memory'] }, again: boolean): Promise<LiveRound> => {
      await sleep(1000)
      await listening.call('take')
      const open = await listening.call<number>('openCount')
      const cpuBefore = await cpuSample(options.backendPid, database?.postmaster ?? null)
      const clientsBefore = await processCpuMs(listening.pid)
      const messagesBefore = (await database?.messages()) ?? null
      const result = await deciding.call<RoundResult>('round', { index })
      await waitForQuiet(listening, { quietMs: 1000, minMs: 1000, maxMs: 30_000 })
      const cpuAfter = await cpuSample(options.backendPid, database?.postmaster ?? null)
      const clientsAfter = await processCpuMs(listening.pid)
      const messagesAfter = (await database?.messages()) ?? null
      const receipts = await listening.call<Receipts>('take')

      const durations = result.records.filter((record) => record.error === null).map((record) => record.endAt - record.startAt)
      const failures = result.records.filter((record) => record.error !== null)
      const decisions = result.records.length
      const line: LiveRound = {
        connections: open,
        again,
        opening: opened.opening,
        memory: opened.memory,
        reviewers: reviewers.length,
        decisions,
        failures: failures.length,
        firstFailure: failures[0]?.error ?? null,
        p50Ms: round(percentile(durations, 50), 1),
        p95Ms: round(percentile(durations, 95), 1),
        maxMs: round(Math.max(...durations), 1),
        wallMs: result.wallMs,
        serverCpuMs: perDecision(cpuAfter.server, cpuBefore.server, decisions),
        databaseCpuMs: perDecision(cpuAfter.database, cpuBefore.database, decisions),
        databaseTotalCpuMs: perDecision(cpuAfter.databaseTotal, cpuBefore.databaseTotal, decisions),
        clientCpuMs: result.clientCpuMs,
        connectionsCpuMs: perDecision(clientsAfter, clientsBefore, decisions),
        framesPerDecision: round(receipts.frames / Math.max(1, decisions), 2),
        framesByTopic: framesByTopic(receipts, decisions, connected),
        messagesPerDecision: messagesAfter === null || messagesBefore === null ? null : round((messagesAfter - messagesBefore) / Math.max(1, decisions), 2),
        delivery: open > 0 ? deliveries(result.records, receipts, connected, model) : null,
      }
      log(
        `  ${open} connections${again ? ' (again)' : ''}: p50 ${line.p50Ms} / p95 ${line.p95Ms} ms, server ${line.serverCpuMs} ms${line.databaseCpuMs === null ? '' : `, database ${line.databaseCpuMs} ms`} CPU a decision, ` +
          `${line.framesPerDecision} frames${line.messagesPerDecision === null ? '' : ` (${line.messagesPerDecision} messages)`} a decision` +
          (line.delivery ? `, delivery p95 ${line.delivery.p95Ms} ms (${line.delivery.pairs} pairs, ${line.delivery.unmatchedTopics} topics unmatched)` : ''),
      )
      return line
    }

    for (const [index, wanted] of levels.entries()) results.push(await timedRound(index, await openUpTo(wanted), false))
    if (repeatBaseline) {
      // No connection again, last: the rounds run in order of connections, and what drifts meanwhile (the caches, the
      // tables' statistics, a machine shared with other jobs) would otherwise count as the connections' doing.
      await connections.call('closeAll')
      connected.clear()
      await sleep(2000)
      results.push(await timedRound(levels.length, { opening: null, memory: null }, true))
      if (options.campaignStart) await openUpTo(levels[levels.length - 1]!)
    }

    let start: LiveUpdatesResult['start'] = null
    if (options.campaignStart) {
      start = await measureStart(options, connections, database, connected).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }))
    }
    return { backend: database ? 'postgres' : 'pglite', people: people.length, reviewers: reviewers.length, warmupFailures, rounds: results, start }
  } finally {
    await connections?.call('closeAll').catch(() => undefined)
    await connections?.stop()
    await deciders?.stop()
    await database?.end()
  }
}

/**
 * With the connections open: Terminer on the largest active campaign (its messages delivered and forgotten), a draft
 * over the same scope, then Démarrer, timed, and the messages that start brought each connected person.
 */
async function measureStart(options: LiveUpdatesOptions, connections: Helper, database: Awaited<ReturnType<typeof postgresProbe>> | null, connected: Map<string, string>): Promise<LiveStart> {
  const { admin, service, log } = options
  const largest = await largestActive(service)
  log(`  completing « ${largest.name} » (${largest.items} items)…`)
  const completion = {
    items: largest.items,
    durationMs: database ? await database.complete(largest.id) : await transition(admin, largest.id, 'completed'),
  }
  await waitForQuiet(connections, { quietMs: 2000, minMs: 1000, maxMs: 120_000, expectSome: connected.size > 0 })
  const today = new Date().toISOString().slice(0, 10)
  const { data: draft, error } = await admin
    .from('campaigns')
    .insert({ name: `Banc d'essai — direct ${Date.now()}`, start_date: today, end_date: today, account_type: largest.account_type, application_id: largest.application_id })
    .select('id, name')
    .single()
  if (error) throw new Error(`Creating the draft: ${error.message}`)
  await waitForQuiet(connections, { quietMs: 1000, minMs: 1000, maxMs: 30_000 })
  await connections.call('take')
  const open = await connections.call<number>('openCount')
  const cpuBefore = await cpuSample(options.backendPid, database?.postmaster ?? null)
  const messagesBefore = (await database?.messages()) ?? null
  log(`  starting « ${draft.name} » with ${open} connections open…`)
  const startAt = now()
  await transition(admin, draft.id, 'active')
  const endAt = now()
  await waitForQuiet(connections, { quietMs: 3000, minMs: 1000, maxMs: 120_000, expectSome: open > 0 })
  const cpuAfter = await cpuSample(options.backendPid, database?.postmaster ?? null)
  const messagesAfter = (await database?.messages()) ?? null
  const receipts = await connections.call<Receipts>('take')

  const affected = database ? await database.campaignPeople(draft.id) : await campaignPeopleByApi(service, draft.id)
  const affectedConnected = affected.filter((id) => connected.has(id))
  const firsts: number[] = []
  let framesSum = 0
  for (const id of affectedConnected) {
    const arrivals = receipts.byTopic[`user:${id}`] ?? []
    framesSum += arrivals.length
    if (arrivals.length > 0) firsts.push(Math.min(...arrivals))
  }
  let framesPerPersonMax = 0
  for (const [topic, arrivals] of Object.entries(receipts.byTopic)) if (topic.startsWith('user:')) framesPerPersonMax = Math.max(framesPerPersonMax, arrivals.length)
  // The role topics: frames per connection joined to them (each admin's and rssi's own socket).
  const audiences: Record<string, number> = {}
  for (const [topic, arrivals] of Object.entries(receipts.byTopic)) {
    if (topic.startsWith('user:')) continue
    const joined = [...connected.values()].filter((role) => role === topic).length
    audiences[topic] = round(arrivals.length / Math.max(1, joined), 2)
  }
  const everyone = firsts.length === affectedConnected.length && firsts.length > 0
  const last = firsts.length > 0 ? Math.max(...firsts) : null
  const delays = firsts.map((at) => Math.max(0, at - endAt))
  const items = (await service.from('campaign_items').select('id', { count: 'exact', head: true }).eq('campaign_id', draft.id)).count ?? 0
  const result: LiveStart = {
    campaign: draft.name,
    completion,
    items,
    durationMs: round(endAt - startAt),
    connections: open,
    affectedPeople: affected.length,
    affectedConnected: affectedConnected.length,
    reached: firsts.length,
    framesPerPersonMax,
    framesPerPersonMean: round(framesSum / Math.max(1, affectedConnected.length), 2),
    audiences,
    messages: messagesAfter === null || messagesBefore === null ? null : messagesAfter - messagesBefore,
    allCurrentMs: everyone && last !== null ? round(Math.max(0, last - endAt)) : null,
    allCurrentFromRequestMs: everyone && last !== null ? round(last - startAt) : null,
    deliveryP95Ms: delays.length > 0 ? round(percentile(delays, 95)) : null,
    serverCpuMs: cpuAfter.server === null || cpuBefore.server === null ? null : round(cpuAfter.server - cpuBefore.server),
    databaseCpuMs: cpuAfter.database === null || cpuBefore.database === null ? null : round(cpuAfter.database - cpuBefore.database),
  }
  log(
    `  start of ${items} items in ${result.durationMs} ms: ${result.reached} of ${result.affectedConnected} affected connected people reached` +
      `${result.allCurrentMs === null ? '' : `, all within ${result.allCurrentMs} ms of the answer`}, at most ${framesPerPersonMax} message(s) a person`,
  )
  return result
}
