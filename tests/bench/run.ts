/**
 * `npm run bench [-- --scale F] [--seed N] [--dataset demo] [--runs N] [--skip-startup] [--only a,b] [--database-ready]
 * [--live-connections 0,1000,10000] [--live-reviewers N]`:
 * boots the local backend with the large dataset (--scale and --seed go to its --dataset-scale and --dataset-seed),
 * builds and serves the app, drives it in Debian's Chromium and prints the figures against the budgets of that scale
 * (budgets.ts, scalePlan). The full results go to .tmp/bench/results.json, and each figure to
 * .tmp/bench/figures-<backend>-<scale>.json, where `npm run bench:growth` reads them; the exit code is 1 when a budget
 * is missed. --only runs the named measures alone (see MEASURES); the others show as skipped. Above scale 1 the
 * dataset needs PostgreSQL (DATABASE_URL). --database-ready opens the database at DATABASE_URL as it is, already
 * holding the dataset at that --scale and --seed, instead of generating it anew (minutes at scale 10): the bench
 * changes it, so give it a throwaway copy. --live-connections lists the numbers of open Realtime connections the
 * liveUpdates measure decides with (default 0,1000,10000 on PostgreSQL, 0,1000 on PGlite), --live-reviewers how many
 * reviewers decide then (default: the decisions measure's number at that scale). Not part of `npm test`.
 */
import { cpus, freemem, loadavg, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import type { Browser } from 'playwright-core'
import { apiAs, serviceApi } from './support/api'
import { launchBrowser } from './support/browser'
import { ROOT, startStack, type Stack } from './support/stack'
import { measureBundles } from './measures/bundles'
import { measureCampaignRecord } from './measures/campaign-record'
import { measureRssiFilter, measureRssiSignIn } from './measures/dashboard'
import { loadReviewers, measureDecisionsApart } from './measures/decisions'
import { largestActiveCampaign, measureManagerExport } from './measures/export'
import { measureNaive } from './measures/naive'
import { measureRssiPages } from './measures/pages'
import { measureQueueRpc, measureReviews } from './measures/reviews'
import { measureUsersPage } from './measures/users-page'
import { measureAuthorityShare } from './measures/authority'
import { measureStartup } from './measures/startup'
import { measureDirectoryImport } from './measures/directory-import'
import { measureLiveUpdates } from './measures/live-updates'
import { reviewerCandidates } from './support/reviewers'
import { buildReport, scalePlan } from './budgets'
import { printTable, writeFigures, writeResults } from './report'
import { MAX_SCALE } from '../../supabase/local/dataset/options'

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    seed: { type: 'string' },
    dataset: { type: 'string', default: 'large' },
    runs: { type: 'string', default: '3' },
    'skip-startup': { type: 'boolean', default: false },
    only: { type: 'string' },
    'database-ready': { type: 'boolean', default: false },
    'live-connections': { type: 'string' },
    'live-reviewers': { type: 'string' },
  },
})
if (values.dataset !== 'demo' && values.dataset !== 'large') throw new Error(`Unknown dataset: ${values.dataset} (large or demo)`)
const dataset: 'demo' | 'large' = values.dataset
const runs = Number(values.runs)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number from 1: ${values.runs}`)
/** A command line the bench cannot run: the reason alone, without a stack. */
function refuse(message: string): never {
  console.error(message)
  process.exit(2)
}
const scale = values.scale === undefined ? 1 : Number(values.scale)
if (!Number.isFinite(scale) || scale <= 0) refuse(`--scale must be a positive number: ${values.scale}`)
const onPostgres = Boolean(process.env.DATABASE_URL)
// Checked here rather than by the backend, which would refuse only after the build has started.
if (!onPostgres && scale > MAX_SCALE.pglite) {
  refuse(`--scale ${scale}: PGlite goes up to scale ${MAX_SCALE.pglite}; larger scales run on PostgreSQL: bash .ci/with-postgres npm run bench -- --scale ${scale} --skip-startup`)
}
const databaseReady = values['database-ready']
if (databaseReady && (!onPostgres || dataset !== 'large')) refuse('--database-ready opens the large dataset already in the database at DATABASE_URL: set DATABASE_URL')
const plan = scalePlan(scale)
const liveConnections = (values['live-connections'] ?? (onPostgres ? '0,1000,10000' : '0,1000')).split(',').map((value) => Number(value.trim()))
if (liveConnections.length === 0 || liveConnections.some((value) => !Number.isInteger(value) || value < 0)) {
  refuse(`--live-connections lists whole numbers from 0, e.g. 0,1000,10000: ${values['live-connections']}`)
}
const liveReviewers = values['live-reviewers'] === undefined ? plan.reviewers : Number(values['live-reviewers'])
if (!Number.isInteger(liveReviewers) || liveReviewers < 1) refuse(`--live-reviewers must be a whole number from 1: ${values['live-reviewers']}`)
const MEASURES = ['bundles', 'rssiSignIn', 'rssiFilter', 'reviews', 'reviewsRpc', 'rssiPages', 'usersPage', 'naive', 'export', 'decisions', 'directoryImport', 'campaignRecord', 'liveUpdates', 'authority', 'startup']
const only = values.only?.split(',').map((name) => name.trim()).filter(Boolean)
const unknown = only?.filter((name) => !MEASURES.includes(name)) ?? []
if (unknown.length > 0) throw new Error(`Unknown measure(s) in --only: ${unknown.join(', ')} (${MEASURES.join(', ')})`)
// The authority check's share goes with the decision budgets it allows for, on the large dataset only.
const withAuthority = (names: string[]) => (names.includes('decisions') || names.includes('liveUpdates') ? [...names, 'authority'] : names)
const skipped = new Set(
  MEASURES.filter((name) =>
    (name === 'authority' && dataset !== 'large') ||
    (only ? !withAuthority(only).includes(name) : (name === 'startup' && values['skip-startup']) || name in plan.skipped),
  ),
)
const DECISIONS_PER_REVIEWER = 10
/** Between two decisions of a reviewer of another campaign while a campaign starts: a person reading the next line. */
const BACKGROUND_PAUSE_MS = 1000

const log = (message: string) => console.info(message)
const results: Record<string, unknown> = {}
const errors: Record<string, string> = {}

/** Runs one measure; a failure is recorded (and shows as a missed budget) without stopping the others. */
async function step<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  if (skipped.has(name)) return undefined
  const started = performance.now()
  log(`· ${name}…`)
  try {
    const value = await run()
    results[name] = value
    log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    return value
  } catch (error) {
    errors[name] = error instanceof Error ? error.message : String(error)
    log(`  failed: ${errors[name]}`)
    return undefined
  }
}

async function main(): Promise<void> {
  const machine = {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryBytes: totalmem(),
    freeMemoryBytes: freemem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: loadavg().map((value) => Number(value.toFixed(2))),
    databaseKind: 'unknown',
    chromium: 'unknown',
  }
  const options = { dataset, scale: values.scale, seed: values.seed, ready: databaseReady } as const
  log(
    `Recertif bench: dataset ${dataset}${values.scale ? `, scale ${values.scale}` : ''}${values.seed ? `, seed ${values.seed}` : ''}${databaseReady ? ' (already in the database)' : ''}, ${runs} run(s) per page timing`,
  )
  const startedAt = new Date()
  let stack: Stack | undefined
  let browser: Browser | undefined
  try {
    stack = await startStack(options, log)
    machine.databaseKind = onPostgres ? `PostgreSQL (DATABASE_URL) — ${stack.databaseKind}` : stack.databaseKind
    results.stack = { backendStartMs: Math.round(stack.backendStartMs), buildMs: Math.round(stack.buildMs) }
    browser = await launchBrowser()
    machine.chromium = browser.version()
    const { appUrl, backendUrl, backendPid } = stack
    const service = serviceApi(backendUrl)
    const managerApi = await apiAs(backendUrl, 'manager@example.com')
    const queueCount = Number((await managerApi.rpc('review_queue_count', {})).data ?? 0)
    const rssiRights = (await service.from('user_rights').select('id', { count: 'exact', head: true })).count ?? 0
    results.dataset = { ...options, scale, rights: rssiRights, managerQueue: queueCount }
    log(`  ${rssiRights} rights, ${queueCount} items in manager@example.com's queue`)

    const b = browser
    await step('bundles', () => measureBundles(b, appUrl))
    await step('rssiSignIn', () => measureRssiSignIn(b, appUrl, runs))
    await step('rssiFilter', () => measureRssiFilter(b, appUrl, runs))
    await step('reviews', () => measureReviews(b, appUrl, 'manager@example.com', queueCount, runs))
    await step('reviewsRpc', () => measureQueueRpc(managerApi))
    await step('rssiPages', () => measureRssiPages(b, appUrl, runs))
    await step('usersPage', () => measureUsersPage(b, appUrl, service, runs))
    await step('naive', async () => measureNaive(await apiAs(backendUrl, 'rssi@example.com'), runs, rssiRights <= 20_000, plan.naivePass))
    await step('export', async () => measureManagerExport(b, appUrl, await largestActiveCampaign(service)))
    await step('decisions', async () => {
      return measureDecisionsApart(backendUrl, await reviewerCandidates(service, 3 * plan.reviewers), plan.reviewers, DECISIONS_PER_REVIEWER)
    })
    // Adds 10,000 people: after every measure that counts or lists the directory.
    await step('directoryImport', async () => measureDirectoryImport(await apiAs(backendUrl, 'admin@example.com')))
    // Last: it completes the largest campaign and moves its rights into a new one.
    await step('campaignRecord', async () => {
      const reviewers = (await loadReviewers(backendUrl, await reviewerCandidates(service, plan.reviewers), 2)).slice(0, plan.reviewers)
      return measureCampaignRecord(b, appUrl, await apiAs(backendUrl, 'admin@example.com'), service, {
        evidencePack: plan.evidencePack,
        reviewers,
        pauseMs: BACKGROUND_PAUSE_MS,
      })
    })
    // After the campaign record, whose figures it would change: it decides, then completes the largest active
    // campaign and starts one over its scope (in a whole run, the campaign the record has just started).
    await step('liveUpdates', async () =>
      measureLiveUpdates({
        backendUrl,
        backendPid,
        service,
        admin: await apiAs(backendUrl, 'admin@example.com'),
        databaseUrl: process.env.DATABASE_URL,
        connections: liveConnections,
        reviewerEmails: await reviewerCandidates(service, 3 * liveReviewers),
        reviewers: liveReviewers,
        perReviewer: DECISIONS_PER_REVIEWER,
        campaignStart: true,
        log,
      }),
    )
  } catch (error) {
    errors.stack = error instanceof Error ? error.message : String(error)
    log(`The bench could not start: ${errors.stack}`)
  } finally {
    await browser?.close()
    await stack?.stop()
  }
  // Alone, once the backend has stopped: on its database (PostgreSQL) or on a copy of the dataset (PGlite).
  await step('authority', () =>
    measureAuthorityShare({ databaseUrl: process.env.DATABASE_URL, scale, seed: values.seed === undefined ? undefined : Number(values.seed) }),
  )
  // Alone on the machine's ports and without the bench's backend running beside it.
  await step('startup', () => measureStartup())

  const report = buildReport(results, errors, { skipped, startupSkippedBy: only ? '--only' : '--skip-startup', onPostgres, plan })
  const output = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: { ...machine, loadAverageAtEnd: loadavg().map((value) => Number(value.toFixed(2))) },
    budgets: report.budgets,
    info: report.info,
    results,
    errors,
  }
  const file = await writeResults(ROOT, output)
  // The growth table compares the large dataset's scales: the demo data has no place in it.
  const figures = dataset === 'large' ? await writeFigures(ROOT, { backend: onPostgres ? 'postgres' : 'pglite', scale, at: output.finishedAt, load: output.machine.loadAverageAtEnd, report }) : 'not written for the demo data'
  printTable(
    `${machine.cpuModel} × ${machine.cores}, ${(machine.memoryBytes / 2 ** 30).toFixed(0)} GiB, Node ${machine.node}, ${machine.databaseKind}`,
    report.budgets,
    report.info,
  )
  console.info(`\nResults: ${file} (figures by scale: ${figures})`)
  const missed = report.budgets.filter((line) => !line.ok && !line.skipped)
  if (missed.length > 0) {
    console.info(`${missed.length} budget(s) missed.`)
    process.exitCode = 1
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
