/** The budgets of issue #9 and the informational figures, read from the measures' results. */
import type { PageScripts } from './measures/bundles'
import type { CampaignRecordResult } from './measures/campaign-record'
import type { SignInResult } from './measures/dashboard'
import type { DecisionsResult } from './measures/decisions'
import type { ExportResult } from './measures/export'
import type { NaiveResult } from './measures/naive'
import type { PageTiming } from './measures/pages'
import type { measureQueueRpc, ReviewsResult } from './measures/reviews'
import type { StartupResult } from './measures/startup'
import type { DirectoryImportResult } from './measures/directory-import'
import type { UsersPageResult } from './measures/users-page'
import { budget, kb, mb, ms, type BudgetLine, type InfoLine } from './report'

interface Results {
  bundles?: PageScripts[]
  rssiSignIn?: SignInResult
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
}

const LIMITS = {
  publicJs: 100 * 1000,
  appJs: 200 * 1000,
  rssiDashboardMs: 1000,
  reviewsFirstPaintMs: 300,
  usersPageMs: 300,
  decisionP95Ms: 150,
  exportMs: 5000,
  startupMs: 10_000,
  directoryImportMs: 10_000,
  campaignStartMs: 10_000,
  evidencePackMs: 10_000,
}

const largest = (pages: PageScripts[]) => pages.reduce<PageScripts | undefined>((max, page) => (!max || page.gzipBytes > max.gzipBytes ? page : max), undefined)

export function buildReport(
  results: Record<string, unknown>,
  errors: Record<string, string>,
  options: { skipped: ReadonlySet<string>; startupSkippedBy: string; onPostgres: boolean },
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
    ['reviews', budget('Mes revues first rows (menu link, median)', r.reviews?.navigation.firstRowsMs, LIMITS.reviewsFirstPaintMs, ms, r.reviews ? `${r.reviews.queueCount} items` : failed('reviews'))],
    ['usersPage', budget('Users page first rows (menu link, median)', r.usersPage?.firstRowsMs, LIMITS.usersPageMs, ms, r.usersPage ? `${r.usersPage.people} people` : failed('usersPage'))],
    ['usersPage', budget('Users page search, request to rows (median)', r.usersPage?.searchMs, LIMITS.usersPageMs, ms, r.usersPage ? `« ${r.usersPage.search} »: ${r.usersPage.searchTotal}` : failed('usersPage'))],
    ['decisions', budget(
      'Decision round trip p95',
      r.decisions?.p95Ms,
      LIMITS.decisionP95Ms,
      ms,
      r.decisions ? `${r.decisions.reviewers} reviewers × ${r.decisions.decisionsPerReviewer}${r.decisions.failures ? `, ${r.decisions.failures} failed` : ''}` : failed('decisions'),
    )],
    ['export', budget('Manager Excel export', r.export?.durationMs, LIMITS.exportMs, ms, r.export ? `${r.export.rows} rows` : failed('export'))],
    ['startup', startup?.skipped
      ? { name: 'npm start ready', value: 'skipped', limit: `≤ ${ms(LIMITS.startupMs)}`, ok: false, note: startup.skipped }
      : budget('npm start ready', startup?.readyMs, LIMITS.startupMs, ms, startup ? `Ctrl-C: ${startup.stoppedCleanly ? 'all stopped' : 'not all stopped'} in ${ms(startup.stopMs ?? 0)}` : failed('startup'))],
  ]
  // 10 s each on PostgreSQL (issue #14); PGlite, one process in WASM, gives the figures for information only.
  const record = r.campaignRecord
  if (options.onPostgres) {
    lines.push(['campaignRecord', budget('Start a campaign of the large dataset\'s largest scope', record?.start.durationMs, LIMITS.campaignStartMs, ms, record ? `${record.start.items} items` : failed('campaignRecord'))])
    lines.push(['campaignRecord', budget('Evidence pack of a completed campaign', record?.evidencePack.durationMs, LIMITS.evidencePackMs, ms, record ? `${record.evidencePack.items} items` : failed('campaignRecord'))])
    // Issue 16: 10 s on PostgreSQL; on PGlite the figure is for information (below).
    const sync = r.directoryImport
    lines.push(['directoryImport', budget('Directory import applied (rpc)', sync?.applyMs, LIMITS.directoryImportMs, ms, sync ? `${sync.people} people, dry run ${ms(sync.dryRunMs)}` : failed('directoryImport'))])
  }
  const budgets = lines.map(([measure, line]): BudgetLine =>
    options.skipped.has(measure)
      ? { ...line, value: 'skipped', ok: false, skipped: true, note: measure === 'startup' ? options.startupSkippedBy : '--only' }
      : line,
  )
  if (startup && !startup.skipped && (!startup.stoppedCleanly || !startup.portsFreedAfterStop)) {
    budgets.push({ name: 'npm start stops on Ctrl-C', value: startup.exit, limit: 'every process gone, ports freed', ok: false, note: startup.processesLeft ? 'processes left' : 'ports still bound' })
  }

  const info: InfoLine[] = []
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
  if (r.decisions) {
    info.push({ name: 'Decision round trip p50 / max', value: `${ms(r.decisions.p50Ms)} / ${ms(r.decisions.maxMs)} (${r.decisions.distinctAccounts} accounts)` })
    const alone = r.decisions.alone
    if (alone) info.push({ name: 'Decision round trip, one reviewer alone', value: `p50 ${ms(alone.p50Ms)}, p95 ${ms(alone.p95Ms)} (${alone.decisions} decisions)` })
  }
  if (r.export) {
    const { phases } = r.export
    info.push({ name: 'Export: fetching rows / building the file', value: `${ms(phases.fetchMs)} (${phases.requests} requests, slowest ${ms(phases.slowestRequestMs)}) / ${ms(phases.buildMs)}` })
    info.push({ name: 'Export peak JS heap (before)', value: `${mb(r.export.peakHeapBytes)} (${mb(r.export.heapBeforeBytes)})` })
  }
  if (record) {
    info.push({ name: 'Complete the largest active campaign', value: `${ms(record.completion.durationMs)} (${record.completion.items} items)` })
    if (!options.onPostgres) {
      info.push({ name: 'Evidence pack of that campaign (PGlite)', value: `${ms(record.evidencePack.durationMs)} (${record.evidencePack.items} items)` })
      info.push({ name: 'Start a campaign over the same scope (PGlite)', value: `${ms(record.start.durationMs)} (${record.start.items} items)` })
    }
    info.push({ name: 'Evidence pack file size', value: mb(record.evidencePack.fileBytes) })
    const phases = record.evidencePhases
    info.push({
      name: 'Evidence pack in Node: summary / items / journal / rows / file',
      value: 'error' in phases ? `failed: ${phases.error}` : [phases.summaryMs, phases.itemsMs, phases.journalMs, phases.rowsMs, phases.writeMs].map(ms).join(' / '),
    })
  }
  if (r.directoryImport && !options.onPostgres) {
    info.push({ name: 'Directory import (PGlite): dry run / applied', value: `${ms(r.directoryImport.dryRunMs)} / ${ms(r.directoryImport.applyMs)} (${r.directoryImport.people} people)` })
  }
  if (r.naive) {
    info.push({ name: 'RSSI figures: rssi_dashboard RPC', value: ms(r.naive.serverMs) })
    info.push({ name: 'RSSI figures: naive (all rights, Node)', value: `${ms(r.naive.naiveMs)} (${r.naive.requests} requests, ${r.naive.ratio}× the RPC${r.naive.agrees ? '' : ', counts differ'})` })
  }
  if (startup && !startup.skipped) {
    info.push({ name: 'npm start phases', value: Object.entries(startup.phases).map(([name, value]) => `${name}: ${typeof value === 'number' ? ms(value) : value}`).join(', ') })
  }
  for (const [name, message] of Object.entries(errors)) info.push({ name: `error in ${name}`, value: message.slice(0, 200) })
  return { budgets, info }
}
