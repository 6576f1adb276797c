import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { migrationFiles, openPglite, paths, prepareDatabase, type PgliteDatabase } from './database'

export const cacheDir = path.resolve(path.dirname(paths.seed), '..', 'node_modules', '.cache', 'recertif')

/**
 * An in-memory PGlite (or one in `dataDir`, empty) with bootstrap, migrations and seed applied, loaded from a cached dump when one matches
 * (about a second instead of six). The key covers every SQL file and today's date, because the seed places
 * its campaigns and last-use dates relative to now.
 */
export async function openSeededPglite(dataDir?: string): Promise<PgliteDatabase> {
  const file = path.join(cacheDir, `seeded-${await cacheKey()}.tar`)
  const cached = await readFile(file).catch(() => null)
  if (cached) {
    const db = await openPglite({ dataDir, loadDataDir: new Blob([cached]) })
    await prepareDatabase(db)
    return db
  }
  const db = await openPglite({ dataDir })
  await prepareDatabase(db)
  await mkdir(cacheDir, { recursive: true })
  // Written aside then renamed, so that a concurrent start never reads half a dump.
  const partial = `${file}.${process.pid}.partial`
  await writeFile(partial, Buffer.from(await (await db.dump()).arrayBuffer()))
  await rename(partial, file)
  for (const stale of await readdir(cacheDir)) {
    if (stale.startsWith('seeded-') && stale !== path.basename(file) && !stale.endsWith('.partial')) {
      await rm(path.join(cacheDir, stale), { force: true })
    }
  }
  return db
}

/** A digest of every SQL file, the given extra files and values, and today's date. */
export async function cacheKey(extraFiles: string[] = [], extraValues: string[] = []): Promise<string> {
  const hash = createHash('sha256')
  for (const file of [paths.bootstrap, ...(await migrationFiles()), paths.seed, ...extraFiles]) {
    hash.update(path.basename(file)).update(await readFile(file))
  }
  for (const value of extraValues) hash.update(value)
  hash.update(new Date().toISOString().slice(0, 10))
  return hash.digest('hex').slice(0, 16)
}
