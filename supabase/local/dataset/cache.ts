import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { openPglite, prepareDatabase, type PgliteDatabase } from '../database'
import { cacheDir, cacheKey } from '../template-cache'
import { compactDump } from './dump'
import { loadLargeDataset, type DatasetReport } from './load'
import { resolveDatasetOptions, type DatasetOptions } from './options'

const generatorDir = path.dirname(fileURLToPath(import.meta.url))

export interface LargeDatasetPglite {
  db: PgliteDatabase
  /** The load's report when the data was generated now; null when it came from the cache. */
  report: DatasetReport | null
  /** The dump the database was loaded from or saved to. */
  file: string
  /** Seconds from the call until the database was ready. */
  seconds: number
}

/**
 * An in-memory PGlite (or one in `options.dataDir`, empty) holding the large organisation (bootstrap, migrations, no demo seed, then the generated data).
 * The first call for a seed, scale and day generates it (a few minutes at full scale) and keeps a dump in
 * node_modules/.cache/recertif, keyed on the SQL files, the generator's sources, the seed, the scale and the day; the
 * next ones load that dump in seconds.
 */
export async function openLargeDatasetPglite(
  options: DatasetOptions & { log?: (message: string) => void; dataDir?: string } = {},
): Promise<LargeDatasetPglite> {
  const started = performance.now()
  const resolved = resolveDatasetOptions(options)
  const log = options.log ?? (() => undefined)
  const sources = (await readdir(generatorDir)).filter((name) => name.endsWith('.ts')).sort().map((name) => path.join(generatorDir, name))
  const prefix = `large-${resolved.seed}-${resolved.scale}-`
  const key = await cacheKey(sources, [String(resolved.seed), String(resolved.scale), resolved.asOf])
  const file = path.join(cacheDir, `${prefix}${key}.tar`)
  const elapsed = () => (performance.now() - started) / 1000

  const cached = await readFile(file).catch(() => null)
  if (cached) {
    const db = await openPglite({ dataDir: options.dataDir, loadDataDir: new Blob([cached]) })
    await prepareDatabase(db, { seed: false })
    return { db, report: null, file, seconds: elapsed() }
  }

  const db = await openPglite({ dataDir: options.dataDir })
  await prepareDatabase(db, { seed: false })
  log(`Generating the large dataset (seed ${resolved.seed}, scale ${resolved.scale}, as of ${resolved.asOf})…`)
  const report = await loadLargeDataset(db, resolved, log)
  log(`  generated in ${report.seconds.toFixed(1)} s`)
  const dump = await compactDump(db)
  await mkdir(cacheDir, { recursive: true })
  // Written aside then renamed, so that a concurrent start never reads half a dump.
  const partial = `${file}.${process.pid}.partial`
  await writeFile(partial, dump)
  await rename(partial, file)
  for (const stale of await readdir(cacheDir)) {
    if (stale.startsWith(prefix) && stale !== path.basename(file) && !stale.endsWith('.partial')) {
      await rm(path.join(cacheDir, stale), { force: true })
    }
  }
  return { db, report, file, seconds: elapsed() }
}
