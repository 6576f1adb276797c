import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp'
import pg from 'pg'
import { reserveGrowthOfLargeFiles } from './pglite-files'

/** The few calls the local server and the tests need, over PGlite or a real PostgreSQL alike. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>
  /** Runs one or more statements without parameters. */
  exec(text: string): Promise<void>
}

/** What a caller's statements run under (asCaller sets it in the transaction as well, which PostgreSQL applies). */
export interface StatementOptions {
  /** The transaction's statement_timeout setting ('8s'); PGlite's thread applies it itself (pglite-thread.ts). */
  statementTimeout?: string
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres'
  /** Runs fn in one transaction on one connection; rolls back if fn throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>, options?: StatementOptions): Promise<T>
  /**
   * Sends statements without parameters in one message, run as one implicit transaction: committed once the last
   * has succeeded, undone at the first that fails (which is thrown). Resolves to the rows of the last statement.
   * One round trip where transaction() takes one per statement plus begin and commit.
   */
  script<T = Record<string, unknown>>(text: string, options?: StatementOptions): Promise<{ rows: T[] }>
  /** Subscribes to NOTIFY on a channel; resolves to the function that unsubscribes. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * The same database through connections of its own, for background work that must not wait behind the API's
   * requests (PostgreSQL: a pool of `connections`; PGlite has one connection, shared, which its close leaves open).
   */
  separate(connections: number): Database
  close(): Promise<void>
}

const supabaseDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const paths = {
  bootstrap: path.join(supabaseDir, 'local', 'bootstrap.sql'),
  migrations: path.join(supabaseDir, 'migrations'),
  seed: path.join(supabaseDir, 'seed.sql'),
}

const pgliteExtensions = { pgcrypto, uuid_ossp }

export interface PgliteDatabase extends Database {
  /** A copy of the data directory from which another PGlite starts in about a second. */
  dump(): Promise<Blob>
}

/**
 * A new empty directory in memory-backed storage (/dev/shm where it exists), for a PGlite that must outlive its thread
 * without touching the disk: the server's "in-memory" databases. Its owner removes it; those of processes that ended
 * without removing theirs (killed) are removed here, as they would fill the memory.
 */
export async function makeScratchDataDir(): Promise<string> {
  const shm = '/dev/shm'
  const parent = (await stat(shm).then((info) => info.isDirectory()).catch(() => false)) ? shm : tmpdir()
  for (const name of await readdir(parent).catch(() => [])) {
    const owner = /^recertif-pglite-(\d+)-/.exec(name)?.[1]
    if (owner && !processRuns(Number(owner))) await rm(path.join(parent, name), { recursive: true, force: true })
  }
  return mkdtemp(path.join(parent, `recertif-pglite-${process.pid}-`))
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob | File } = {}): Promise<PgliteDatabase> {
  const db = new PGlite({ ...options, extensions: pgliteExtensions })
  await db.waitReady
  // A new WAL segment is created empty rather than written as 16 MB of zeros: in memory, those zeros grew the file
  // a dozen times over, each growth a copy of it, while requests waited.
  await db.exec('set wal_init_zero = off')
  // In memory nothing survives the process, so a commit has nothing to wait for: without this, each one went through
  // the wait for a synchronous standby that PGlite never has.
  if (!options.dataDir) await db.exec('set synchronous_commit = off')
  if (options.loadDataDir && !options.dataDir) {
    const { rows } = await db.query<{ data_directory: string }>('show data_directory')
    reserveGrowthOfLargeFiles(db, rows[0]!.data_directory)
  }
  const database: PgliteDatabase = {
    kind: 'pglite',
    // A checkpoint first: commits in memory may not have written their log yet (synchronous_commit, above), and the
    // dump copies the files.
    dump: async () => {
      await db.exec('checkpoint')
      return db.dumpDataDir('none')
    },
    query: async (text, params) => ({ rows: (await db.query(text, params)).rows as never[] }),
    exec: async (text) => {
      await db.exec(text)
    },
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async (text, params) => ({ rows: (await tx.query(text, params)).rows as never[] }),
          exec: async (text) => {
            await tx.exec(text)
          },
        }),
      ),
    script: async (text) => {
      const results = await db.exec(text)
      return { rows: (results[results.length - 1]?.rows ?? []) as never[] }
    },
    listen: async (channel, onPayload) => {
      const stop = await db.listen(channel, onPayload)
      return () => stop()
    },
    separate: () => ({ ...database, close: async () => undefined }),
    close: () => db.close(),
  }
  return database
}

export function openPostgres(connectionString: string, max = 10): Database {
  // Connections are kept while idle: each holds the plans its functions and triggers made (a decision on a new
  // connection took 60-90 ms against 5-10 once planned, at ten times the large dataset), which pg's default of closing
  // a connection idle for 10 s threw away between a reviewer's clicks. They do not keep the process alive.
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 0, allowExitOnIdle: true })
  // A connection the server ends (a restart, a dropped database) must not crash the process; the pool replaces it.
  const onConnectionError = (error: Error) => console.warn(`[database] connection lost: ${error.message}`)
  pool.on('error', onConnectionError)
  pool.on('connect', (client) => client.on('error', onConnectionError))
  const wrap = (client: pg.PoolClient | pg.Pool): Sql => ({
    query: async (text, params) => ({ rows: (await client.query(text, params as unknown[])).rows }),
    exec: async (text) => {
      await client.query(text)
    },
  })
  return {
    kind: 'postgres',
    ...wrap(pool),
    transaction: async (fn) => {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const result = await fn(wrap(client))
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    script: async (text) => {
      // Without parameters, node-postgres sends the simple query protocol, which takes several statements at once.
      const results = (await pool.query(text)) as unknown as pg.QueryResult | pg.QueryResult[]
      const last = Array.isArray(results) ? results[results.length - 1] : results
      return { rows: last?.rows ?? [] }
    },
    listen: async (channel, onPayload) => {
      // LISTEN holds its connection for as long as the subscription lives.
      const client = await pool.connect()
      const onNotification = (message: pg.Notification) => {
        if (message.channel === channel) onPayload(message.payload ?? '')
      }
      client.on('notification', onNotification)
      await client.query(`listen ${pg.escapeIdentifier(channel)}`)
      return async () => {
        client.off('notification', onNotification)
        await client.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined)
        client.release()
      }
    },
    separate: (connections) => openPostgres(connectionString, connections),
    close: () => pool.end(),
  }
}

export async function migrationFiles(): Promise<string[]> {
  const names = (await readdir(paths.migrations)).filter((name) => name.endsWith('.sql')).sort()
  return names.map((name) => path.join(paths.migrations, name))
}

/**
 * Brings a database up to date: the platform bootstrap (idempotent), then every migration not yet recorded in
 * supabase_migrations.schema_migrations (as the Supabase CLI records them), then, on a database that had none
 * applied before and unless told not to, the seed. Each file runs in its own transaction so that a failure
 * names the file and leaves nothing half applied. Returns the versions applied.
 */
export async function prepareDatabase(db: Database, options: { seed?: boolean } = {}): Promise<string[]> {
  await runFile(db, paths.bootstrap, async (tx) => {
    await tx.exec(`create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (version text primary key, name text, applied_at timestamptz not null default now())`)
  })
  const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')
  const applied = new Set(rows.map((row) => row.version))
  const fresh = applied.size === 0
  const done: string[] = []
  for (const file of await migrationFiles()) {
    const [version = '', ...rest] = path.basename(file, '.sql').split('_')
    if (applied.has(version)) continue
    await runFile(db, file, (tx) =>
      tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [version, rest.join('_')]).then(() => undefined),
    )
    done.push(version)
  }
  if (fresh && options.seed !== false) await runFile(db, paths.seed)
  return done
}

async function runFile(db: Database, file: string, after?: (tx: Sql) => Promise<void>): Promise<void> {
  const sql = await readFile(file, 'utf8')
  try {
    await db.transaction(async (tx) => {
      await tx.exec(sql)
      await after?.(tx)
    })
  } catch (error) {
    throw new Error(`${path.relative(process.cwd(), file)}: ${(error as Error).message}`, { cause: error })
  }
}
