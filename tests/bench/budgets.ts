/** The budgets and the informational figures, read from the measures' results. */
import type { PageScripts } from './measures/bundles'
import type { CampaignRecordResult } from './measures/campaign-record'
import type { FilterResult, SignInResult } from './measures/dashboard'
import type { DecisionsResult } from './measures/decisions'
import type { ExportResult } from './measures/export'
import type { NaiveResult } from './measures/naive'
import type { PageTiming } from './measures/pages'
import type { measureQueueRpc, ReviewsResult } from './measures/reviews'
import type { StartupResult } from './measures/startup'
import type { DirectoryImportResult } from './measures/directory-import'
import type { UsersPageResult } from './measures/users-page'
import type { LiveRound, LiveUpdatesResult } from './measures/live-updates'
import type { AuthorityResult } from './measures/authority'
import { budget, kb, mb, ms, type BudgetLine, type InfoLine } from './report'

interface Results {
  bundles?: PageScripts[]
  rssiSignIn?: SignInResult
  rssiFilter?: FilterResult
  reviews?: ReviewsResult
  reviewsRpc?: Awaited<ReturnType<typeof measureQueueRpc>>
  rssiPages?: PageTiming[]
  usersPage?: UsersPageResult
  naive?: NaiveResult
  export?: ExportResult
  decisions?: DecisionsResult
  campaignRecord?: CampaignRecordResult
  directoryImport?: DirectoryImportResult
  startup?: StartupResult
  liveUpdates?: LiveUpdatesResult
  authority?: AuthorityResult
}

const LIMITS = {
  publicJs: 100 * 1000,
  appJs: 200 * 1000,
  rssiDashboardMs: 1000,
  rssiFilterMs: 500,
  reviewsFirstPaintMs: 300,
  usersPageMs: 300,
  decisionP95Ms: 150,
  exportMs: 5000,
  startupMs: 10_000,
  directoryImportMs: 10_000,
  campaignStartMs: 10_000,
  evidencePackMs: 10_000,
  liveDeliveryP95Ms: 1000,
  /** The database's CPU per decision with the most connections open, against none. */
  liveDatabaseCpuGrowth: 0.2,
  liveStartCurrentMs: 5000,
  liveMessagesPerPerson: 1,
  /** Ten thousand idle connections in 2 GB of the backend's memory. */
  liveIdleConnections: 10_000,
  liveIdleMemoryBytes: 2_000_000_000,
}

/**
 * What a run does at its dataset scale. Up to scale 1: 20 reviewers deciding at once; the start and the evidence pack
 * of about 200,000 items in 10 s each. Above it, on PostgreSQL: 50 reviewers, the start of
 * about 2 million rights in 60 s while reviewers of other campaigns decide; what has no budget there and would take
 * many minutes is left out (the manager's export, the pack, the naive count of every right).
 */
export interface ScalePlan {
  scale: number
  reviewers: number
  campaignStartMs: number
  evidencePack: boolean
  naivePass: boolean
  /** Measures left out at this scale, with why. */
  skipped: Record<string, string>
  /** The import's 10 s holds up to scale 1; above, the import's figure is for information. */
  directoryImportBudget: boolean
}

export function scalePlan(scale: number): ScalePlan {
  if (scale <= 1) {
    return { scale, reviewers: 20, campaignStartMs: LIMITS.campaignStartMs, evidencePack: true, naivePass: true, skipped: {}, directoryImportBudget: true }
  }
  return {
    scale,
    reviewers: 50,
    campaignStartMs: 60_000,
    evidencePack: false,
    naivePass: false,
    skipped: { export: `no budget at scale ${scale}` },
    directoryImportBudget: false,
  }
}

const largest = (pages: PageScripts[]) => pages.reduce<PageScripts | undefined>((max, page) => (!max || page.gzipBytes > max.gzipBytes ? page : max), undefined)

export function buildReport(
  results: Record<string, unknown>,
  errors: Record<string, string>,
  options: { skipped: ReadonlySet<string>; startupSkippedBy: string; onPostgres: boolean; plan: ScalePlan },
): { budgets: BudgetLine[]; info: InfoLine[] } {
  const r = results as Results
  const failed = (name: string) => (errors[name] ? `failed: ${errors[name]!.slice(0, 120)}` : errors.stack ? 'the stack did not start' : undefined)
  const publicPages = r.bundles?.filter((page) => !page.page.startsWith('/app')) ?? []
  const appPages = r.bundles?.filter((page) => page.page.startsWith('/app')) ?? []
  const heaviestPublic = largest(publicPages)
  const heaviestApp = largest(appPages)
  const onDemandLeaks = appPages.flatMap((page) => page.onDemandLibrariesLoaded.map((library) => `${library} in ${page.page}`))
  const startup = r.startup

  // Each line with the measure it reads, so that a measure left out shows as skipped rather than missed.
  const lines: [string, BudgetLine][] = [
    ['bundles', budget('JS gzip, public pages (/ and /login)', heaviestPublic?.gzipBytes, LIMITS.publicJs, kb, heaviestPublic ? `largest: ${heaviestPublic.page}` : failed('bundles'))],
    ['bundles', budget('JS gzip, first /app page', heaviestApp?.gzipBytes, LIMITS.appJs, kb, heaviestApp ? `largest: ${heaviestApp.page}` : failed('bundles'))],
    ['bundles', r.bundles
      ? { name: 'xlsx and papaparse loaded on demand', value: onDemandLeaks.length === 0 ? 'not loaded' : 'loaded', limit: 'not in the first /app page', ok: onDemandLeaks.length === 0, note: onDemandLeaks.join('; ') || undefined }
      : { name: 'xlsx and papaparse loaded on demand', value: 'not measured', limit: 'not in the first /app page', ok: false, note: failed('bundles') }],
    ['rssiSignIn', budget('Sign-in to RSSI dashboard rendered (median)', r.rssiSignIn?.medianMs, LIMITS.rssiDashboardMs, ms, failed('rssiSignIn'))],
    ['rssiFilter', budget(
      'RSSI figures with a filter, Appliquer to figures (median)',
      r.rssiFilter?.medianMs,
      LIMITS.rssiFilterMs,
      ms,
      r.rssiFilter ? `type ${ms(r.rssiFilter.accountTypeMs)}, + application ${ms(r.rssiFilter.applicationMs)}` : failed('rssiFilter'),
    )],
    ['reviews', budget('Mes revues first rows (menu link, median)', r.reviews?.navigation.firstRowsMs, LIMITS.reviewsFirstPaintMs, ms, r.reviews ? `${r.reviews.queueCount} items` : failed('reviews'))],
    ['usersPage', budget('Users page first rows (menu link, median)', r.usersPage?.firstRowsMs, LIMITS.usersPageMs, ms, r.usersPage ? `${r.usersPage.people} people` : failed('usersPage'))],
    ['usersPage', budget('Users page search, request to rows (median)', r.usersPage?.searchMs, LIMITS.usersPageMs, ms, r.usersPage ? `« ${r.usersPage.search} »: ${r.usersPage.searchTotal}` : failed('usersPage'))],
    ['decisions', decisionBudget(
      'Decision round trip p95',
      r.decisions?.p95Ms,
      r.authority,
      r.decisions ? `${r.decisions.reviewers} reviewers × ${r.decisions.decisionsPerReviewer} after ${r.decisions.warmupPerReviewer} untimed, ${r.decisions.liveConnections ?? 0} live connections${r.decisions.failures ? `, ${r.decisions.failures} failed` : ''}` : failed('decisions'),
    )],
    ['export', budget('Manager Excel export', r.export?.durationMs, LIMITS.exportMs, ms, r.export ? `${r.export.rows} rows` : failed('export'))],
    ['startup', startup?.skipped
      ? { name: 'npm start ready', value: 'skipped', limit: `≤ ${ms(LIMITS.startupMs)}`, ok: false, note: startup.skipped }
      : budget('npm start ready', startup?.readyMs, LIMITS.startupMs, ms, startup ? `Ctrl-C: ${startup.stoppedCleanly ? 'all stopped' : 'not all stopped'} in ${ms(startup.stopMs ?? 0)}` : failed('startup'))],
  ]
  lines.push(...liveBudgets(r.liveUpdates, failed('liveUpdates'), options.onPostgres, r.authority).map((line): [string, BudgetLine] => ['liveUpdates', line]))
  // 10 s each on PostgreSQL up to scale 1, the start 60 s above; PGlite, one process in WASM,
  // gives the figures for information only.
  const { plan } = options
  const record = r.campaignRecord
  const sync = r.directoryImport
  if (options.onPostgres) {
    const during = record?.decisionsDuringStart
    lines.push(['campaignRecord', budget(
      'Start a campaign of the largest scope',
      record?.start.durationMs,
      plan.campaignStartMs,
      ms,
      record ? `${record.start.items} items${during ? `; others deciding meanwhile: p95 ${during.p95Ms === null ? '-' : ms(during.p95Ms)}` : ''}` : failed('campaignRecord'),
    )])
    if (plan.evidencePack) {
      lines.push(['campaignRecord', budget('Evidence pack of a completed campaign', record?.evidencePack?.durationMs, LIMITS.evidencePackMs, ms, record?.evidencePack ? `${record.evidencePack.items} items` : failed('campaignRecord'))])
    }
    // 10 s on PostgreSQL; on PGlite the figure is for information (below).
    if (plan.directoryImportBudget) {
      lines.push(['directoryImport', budget('Directory import applied (rpc)', sync?.applyMs, LIMITS.directoryImportMs, ms, sync ? `${sync.people} people, dry run ${ms(sync.dryRunMs)}` : failed('directoryImport'))])
    }
  }
  const skippedNote = (measure: string) => plan.skipped[measure] ?? (measure === 'startup' ? options.startupSkippedBy : '--only')
  const budgets = lines.map(([measure, line]): BudgetLine =>
    options.skipped.has(measure) ? { ...line, value: 'skipped', ok: false, skipped: true, note: skippedNote(measure) } : line,
  )
  if (startup && !startup.skipped && (!startup.stoppedCleanly || !startup.portsFreedAfterStop)) {
    budgets.push({ name: 'npm start stops on Ctrl-C', value: startup.exit, limit: 'every process gone, ports freed', ok: false, note: startup.processesLeft ? 'processes left' : 'ports still bound' })
  }

  const info: InfoLine[] = []
  const dataset = results.dataset as { scale: number; rights: number; managerQueue: number } | undefined
  if (dataset) info.push({ name: 'Dataset: rights / manager@example.com\'s queue', value: `${dataset.rights} / ${dataset.managerQueue} (scale ${dataset.scale})` })
  for (const page of r.bundles ?? []) info.push({ name: `JS gzip ${page.page}`, value: `${kb(page.gzipBytes)} (${page.files.length} files, ${kb(page.bytes)} raw)` })
  if (r.reviews) {
    info.push({ name: 'Mes revues all loaded (menu link)', value: ms(r.reviews.navigation.allLoadedMs) })
    info.push({ name: 'Mes revues direct load: first rows / all', value: `${ms(r.reviews.fullLoad.firstRowsMs)} / ${ms(r.reviews.fullLoad.allLoadedMs)}` })
  }
  if (r.reviewsRpc) {
    info.push({ name: 'review_queue RPC from Node: 100 / 1000 rows', value: `${ms(r.reviewsRpc.first100Ms)} / ${ms(r.reviewsRpc.first1000Ms)} (count ${ms(r.reviewsRpc.countMs)})` })
  }
  for (const page of r.rssiPages ?? []) info.push({ name: `${page.path} rendered (direct load, median)`, value: ms(page.medianMs) })
  if (r.usersPage) {
    info.push({ name: '/app/users first rows (direct load, median)', value: ms(r.usersPage.directLoadMs) })
    const read = r.usersPage.waterfall.find((request) => request.path.startsWith('/rest/v1/users?'))
    if (read) info.push({ name: 'Users page: its read of the first page (last run)', value: `${ms(read.durationMs)}, ${ms(read.startMs)} after the click` })
  }
  if (r.rssiFilter) {
    const { withTrendsMs, application } = r.rssiFilter
    info.push({ name: 'RSSI filter: figures and trends (type / + application)', value: `${ms(withTrendsMs.accountType)} / ${ms(withTrendsMs.application)} (« ${application} »)` })
  }
  if (r.decisions) {
    info.push({ name: 'Decision round trip p50 / max', value: `${ms(r.decisions.p50Ms)} / ${ms(r.decisions.maxMs)} (${r.decisions.distinctAccounts} accounts)` })
    info.push({ name: "Decision round trip: the reviewers' clients' own CPU", value: `${r.decisions.clientCpuMs} ms per decision (node:http, keep-alive)` })
    const alone = r.decisions.alone
    if (alone) info.push({ name: 'Decision round trip, one reviewer alone', value: `p50 ${ms(alone.p50Ms)}, p95 ${ms(alone.p95Ms)} (${alone.decisions} decisions)` })
  }
  if (r.authority) {
    const a = r.authority
    info.push({
      name: 'Authority check, per decision alone (database time)',
      value: `${a.authorityMsPerDecision} ms of ${a.databaseMsPerDecision} ms, ${Math.round(a.share * 100)} % (${a.decisions} decisions, ${a.backend})`,
    })
  }
  if (r.liveUpdates) info.push(...liveInfo(r.liveUpdates))
  if (r.export) {
    const { phases } = r.export
    info.push({ name: 'Export: fetching rows / building the file', value: `${ms(phases.fetchMs)} (${phases.requests} requests, slowest ${ms(phases.slowestRequestMs)}) / ${ms(phases.buildMs)}` })
    info.push({ name: 'Export peak JS heap (before)', value: `${mb(r.export.peakHeapBytes)} (${mb(r.export.heapBeforeBytes)})` })
  }
  if (record) {
    info.push({ name: 'Complete the largest active campaign', value: `${ms(record.completion.durationMs)} (${record.completion.items} items)` })
    const pack = record.evidencePack
    if (!options.onPostgres) {
      if (pack) info.push({ name: 'Evidence pack of that campaign (PGlite)', value: `${ms(pack.durationMs)} (${pack.items} items)` })
      info.push({ name: 'Start a campaign over the same scope (PGlite)', value: `${ms(record.start.durationMs)} (${record.start.items} items)` })
    }
    const during = record.decisionsDuringStart
    if (during) {
      const stat = (value: number | null) => (value === null ? '-' : ms(value))
      info.push({
        name: 'Decisions of other campaigns during the start: p50 / p95 / max',
        value: `${stat(during.p50Ms)} / ${stat(during.p95Ms)} / ${stat(during.maxMs)} (${during.decisions} by ${during.reviewers} reviewers${during.failures ? `, ${during.failures} failed: ${during.firstFailure}` : ''})`,
      })
    }
    if (pack) info.push({ name: 'Evidence pack file size', value: mb(pack.fileBytes) })
    const phases = record.evidencePhases
    if (phases) {
      info.push({
        name: 'Evidence pack in Node: summary / items / journal / rows / file',
        value: 'error' in phases ? `failed: ${phases.error}` : [phases.summaryMs, phases.itemsMs, phases.journalMs, phases.rowsMs, phases.writeMs].map(ms).join(' / '),
      })
    }
  }
  if (sync && !(options.onPostgres && plan.directoryImportBudget)) {
    info.push({ name: 'Directory import: dry run / applied', value: `${ms(sync.dryRunMs)} / ${ms(sync.applyMs)} (${sync.people} people)` })
  }
  if (r.naive) {
    info.push({ name: 'RSSI figures: rssi_dashboard RPC', value: ms(r.naive.serverMs) })
    const pass = r.naive.naivePass
    if (pass) info.push({ name: 'RSSI figures: naive (all rights, Node)', value: `${ms(pass.naiveMs)} (${pass.requests} requests, ${pass.ratio}× the RPC${pass.agrees ? '' : ', counts differ'})` })
  }
  if (startup && !startup.skipped) {
    info.push({ name: 'npm start phases', value: Object.entries(startup.phases).map(([name, value]) => `${name}: ${typeof value === 'number' ? ms(value) : value}`).join(', ') })
  }
  for (const [name, message] of Object.entries(errors)) info.push({ name: `error in ${name}`, value: message.slice(0, 200) })
  return { budgets, info }
}

const thousands = (value: number) => value.toLocaleString('en-US')
const withConnections = (round: LiveRound) => `${thousands(round.connections)} live connections${round.again ? ' (again, last)' : ''}`
const cpu = (value: number | null) => (value === null ? '-' : `${value} ms`)

/**
 * A decision's p95 against 150 ms with the authority check's cost allowed (the review rules allow a decision that
 * cost): the round trips queue behind the database's time for each decision, of which the check takes its measured
 * share, so that share of the p95 is the check's, and the budget is 150 ms ÷ (1 − share). Without the measure, 150 ms.
 */
export function decisionBudget(name: string, p95Ms: number | null | undefined, authority: AuthorityResult | undefined, note?: string): BudgetLine {
  const share = authority && authority.share > 0 && authority.share < 1 ? authority.share : 0
  const limit = Math.floor(LIMITS.decisionP95Ms / (1 - share))
  const line = budget(name, p95Ms, limit, ms, note)
  if (share === 0) return line
  return { ...line, limit: `≤ ${ms(LIMITS.decisionP95Ms)} + the authority check's ${Math.round(share * 100)} % = ${ms(limit)}` }
}

/**
 * With browsers' connections open: every round's decision p95 (the decisions' budget) and delivery p95;
 * the database's CPU per decision with the most connections against none (on PostgreSQL, where the database has
 * processes of its own); ten thousand idle connections' memory; a campaign's start reaching every connected person it
 * concerns within 5 s, with one message each.
 */
function liveBudgets(
  live: LiveUpdatesResult | undefined,
  failure: string | undefined,
  onPostgres: boolean,
  authority: AuthorityResult | undefined,
): BudgetLine[] {
  if (!live) {
    return [decisionBudget('Decision p95 with live connections open', undefined, authority, failure)]
  }
  const lines: BudgetLine[] = []
  for (const round of live.rounds) {
    if (round.connections === 0) continue
    lines.push(decisionBudget(
      `Decision p95, ${withConnections(round)}`,
      round.p95Ms,
      authority,
      `${round.reviewers} reviewers × ${round.decisions / Math.max(1, round.reviewers)}${round.failures ? `, ${round.failures} failed` : ''}`,
    ))
    const delivery = round.delivery
    const line = budget(
      `Live delivery p95 to the people concerned, ${withConnections(round)}`,
      delivery?.p95Ms,
      LIMITS.liveDeliveryP95Ms,
      ms,
      delivery ? `${delivery.pairs} deliveries to ${delivery.topics} people${delivery.unmatchedTopics ? `; ${delivery.unmatchedTopics} people left out, ${delivery.missing} messages missing` : ''}` : 'none connected',
    )
    lines.push(delivery && delivery.missing > 0 ? { ...line, ok: false } : line)
  }
  // Against no connection: the mean of the round without, run first and again last, so that drift over the rounds
  // (the caches, the statistics, the machine's other jobs) counts for neither side.
  const none = live.rounds.filter((round) => round.connections === 0)
  const most = live.rounds.reduce<LiveRound | undefined>((max, round) => (!max || round.connections > max.connections ? round : max), undefined)
  if (onPostgres && none.length > 0 && most && most.connections > 0) {
    const name = `Database CPU per decision, ${withConnections(most)} against none`
    const limit = `< +${LIMITS.liveDatabaseCpuGrowth * 100} %`
    const baselines = none.map((round) => round.databaseCpuMs)
    if (baselines.some((value) => value === null) || most.databaseCpuMs === null) {
      lines.push({ name, value: 'not measured', limit, ok: false, note: 'no /proc' })
    } else {
      const baseline = (baselines as number[]).reduce((sum, value) => sum + value, 0) / baselines.length
      const growth = most.databaseCpuMs / baseline - 1
      lines.push({
        name,
        value: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(0)} %`,
        limit,
        ok: growth < LIMITS.liveDatabaseCpuGrowth,
        note: `${baselines.join(' and ')} → ${most.databaseCpuMs} ms a decision`,
      })
    }
  }
  const opened = live.rounds.filter((round) => round.memory?.perConnectionBytes !== null && round.memory?.perConnectionBytes !== undefined && (round.opening?.opened ?? 0) > 0)
  // The largest batch opened gives the steadiest figure per connection.
  const batch = opened.reduce<LiveRound | undefined>((max, round) => (!max || (round.opening?.opened ?? 0) > (max.opening?.opened ?? 0) ? round : max), undefined)
  if (batch?.memory?.perConnectionBytes !== undefined && batch.memory.perConnectionBytes !== null) {
    lines.push(budget(
      `Backend memory for ${thousands(LIMITS.liveIdleConnections)} idle connections`,
      batch.memory.perConnectionBytes * LIMITS.liveIdleConnections,
      LIMITS.liveIdleMemoryBytes,
      mb,
      `${(batch.memory.perConnectionBytes / 1024).toFixed(1)} KiB a connection, from ${thousands(batch.opening?.opened ?? 0)} opened`,
    ))
  }
  const start = live.start
  if (start && 'error' in start) {
    lines.push({ name: 'Campaign start: every connected person concerned told', value: 'not measured', limit: `≤ ${ms(LIMITS.liveStartCurrentMs)}`, ok: false, note: start.error.slice(0, 120) })
  } else if (start) {
    lines.push(budget(
      `Campaign start of ${thousands(start.items)} items: every connected person concerned told`,
      start.allCurrentMs,
      LIMITS.liveStartCurrentMs,
      ms,
      `${thousands(start.reached)} of ${thousands(start.affectedConnected)} connected people concerned reached, from the start's answer; ${thousands(start.connections)} connections`,
    ))
    lines.push({
      name: 'Campaign start: messages per connected person',
      value: `at most ${start.framesPerPersonMax}`,
      limit: `≤ ${LIMITS.liveMessagesPerPerson}`,
      ok: start.framesPerPersonMax <= LIMITS.liveMessagesPerPerson,
      note: `mean ${start.framesPerPersonMean} over the people concerned`,
    })
    const roles = Object.entries(start.audiences)
    const most = Math.max(0, ...roles.map(([, count]) => count))
    lines.push({
      name: 'Campaign start: messages per connection on the admin and rssi topics',
      value: roles.length > 0 ? `at most ${most}` : 'none connected',
      limit: `≤ ${LIMITS.liveMessagesPerPerson}`,
      ok: most <= LIMITS.liveMessagesPerPerson,
      note: roles.map(([topic, count]) => `${topic} ${count}`).join(', ') || undefined,
    })
  }
  return lines
}

function liveInfo(live: LiveUpdatesResult): InfoLine[] {
  const info: InfoLine[] = []
  for (const round of live.rounds) {
    const n = withConnections(round)
    info.push({ name: `Live ${n}: decision p50 / p95 / max`, value: `${ms(round.p50Ms)} / ${ms(round.p95Ms)} / ${ms(round.maxMs)} (${round.decisions} decisions by ${round.reviewers} reviewers)` })
    info.push({
      name: `Live ${n}: CPU a decision, server / database / deciders / connections`,
      value: `${cpu(round.serverCpuMs)} / ${round.databaseCpuMs === null ? 'inside the server (PGlite)' : `${cpu(round.databaseCpuMs)} (${cpu(round.databaseTotalCpuMs)} with autovacuum and writers)`} / ${cpu(round.clientCpuMs)} / ${cpu(round.connectionsCpuMs)}`,
    })
    const topics = round.framesByTopic
    info.push({
      name: `Live ${n}: messages a decision`,
      value: `${round.framesPerDecision} received (people ${topics.person}; each admin ${topics.admin}, each rssi ${topics.rssi}${topics.other ? `; other ${topics.other}` : ''})${round.messagesPerDecision === null ? '' : `; ${round.messagesPerDecision} inserted into realtime.messages`}`,
    })
    if (round.delivery && round.delivery.pairs > 0) {
      const d = round.delivery
      info.push({ name: `Live ${n}: delivery p50 / p95 / max`, value: `${cpu(d.p50Ms)} / ${cpu(d.p95Ms)} / ${cpu(d.maxMs)} (${d.beforeResponse} of ${d.pairs} before the decision's answer)` })
    }
    if (round.opening) {
      const memory = round.memory
      info.push({
        name: `Live ${n}: opening and joining`,
        value: `${round.opening.opened} in ${ms(round.opening.durationMs)}${round.opening.failed ? `, ${round.opening.failed} failed (${round.opening.firstFailure})` : ''}${memory ? `; backend RSS ${mb(memory.beforeBytes)} → ${mb(memory.afterBytes)}` : ''}`,
      })
    }
  }
  // On PGlite the database runs inside the server: its CPU is the server's.
  const none = live.rounds.filter((round) => round.connections === 0 && round.serverCpuMs !== null)
  const most = live.rounds.reduce<LiveRound | undefined>((max, round) => (!max || round.connections > max.connections ? round : max), undefined)
  if (live.backend === 'pglite' && none.length > 0 && most?.serverCpuMs && most.connections > 0) {
    const baseline = none.reduce((sum, round) => sum + round.serverCpuMs!, 0) / none.length
    info.push({
      name: `Live: server CPU a decision (PGlite: with the database), ${withConnections(most)} against none`,
      value: `${((most.serverCpuMs / baseline - 1) * 100).toFixed(0)} % (${none.map((round) => round.serverCpuMs).join(' and ')} → ${most.serverCpuMs} ms)`,
    })
  }
  const start = live.start
  if (start && !('error' in start)) {
    info.push({ name: 'Live start: completion before it', value: `${ms(start.completion.durationMs)} (${start.completion.items} items)` })
    info.push({
      name: 'Live start: answer / people concerned',
      value: `${ms(start.durationMs)} for ${start.items} items; ${thousands(start.affectedPeople)} people concerned, ${thousands(start.affectedConnected)} connected; delivery p95 ${cpu(start.deliveryP95Ms)}; from the request ${start.allCurrentFromRequestMs === null ? '-' : ms(start.allCurrentFromRequestMs)}`,
    })
    info.push({
      name: 'Live start: messages inserted / CPU server, database',
      value: `${start.messages === null ? '-' : thousands(start.messages)} (${start.messages === null ? '-' : (start.messages / Math.max(1, start.affectedPeople)).toFixed(2)} per person concerned) / ${cpu(start.serverCpuMs)}, ${cpu(start.databaseCpuMs)}`,
    })
  }
  return info
}
