import { parseArgs } from 'node:util'
import { rm, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { openPglite, openPostgres, prepareDatabase, type Database } from './database'
import { openSeededPglite } from './template-cache'
import { startLocalServer } from './server'

const usage = `Usage: npm run backend -- [options]

Starts the local Supabase-compatible API (REST, auth, realtime) over an embedded Postgres.

Options:
  --port N       port to listen on (default 54321, or $PORT)
  --host HOST    address to listen on (default 127.0.0.1)
  --data DIR     keep the database in DIR (default: in memory, gone at exit)
  --reset        with --data or DATABASE_URL: start again from an empty database
  --help         this text

Environment:
  DATABASE_URL   use this PostgreSQL database instead of the embedded one (it must be dedicated to Recertif)
  PORT           port to listen on`

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    console.info(usage)
    return
  }
  const port = Number(values.port ?? process.env.PORT ?? 54321)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${values.port ?? process.env.PORT}`)

  const started = Date.now()
  const db = await openDatabase(values.data, values.reset)
  const applied = await prepareDatabase(db)
  const server = await startLocalServer({ db, port, host: values.host })

  console.info(`Recertif local backend (${describe(db, values.data)})`)
  if (applied.length > 0) console.info(`  migrations applied: ${applied.length}`)
  console.info(`  API URL:          ${server.url}`)
  console.info(`  REST:             ${server.url}/rest/v1`)
  console.info(`  Auth:             ${server.url}/auth/v1`)
  console.info(`  Realtime:         ${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket`)
  console.info(`  anon key:         ${server.config.anonKey}`)
  console.info(`  service_role key: ${server.config.serviceRoleKey}`)
  console.info(`  JWT secret:       ${server.config.jwtSecret}`)
  console.info(`  (development values: never use them in production)`)
  console.info(`  started in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  console.info('ready')

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.info(`\n${signal}: stopping`)
    await server.close()
    await db.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

async function openDatabase(dataDir: string | undefined, reset: boolean): Promise<Database> {
  const url = process.env.DATABASE_URL
  if (url) {
    const db = openPostgres(url)
    if (reset) {
      // Only the schemas Recertif and its bootstrap own; the database must be dedicated to it.
      await db.exec(`drop schema if exists public, private, auth, extensions, supabase_migrations cascade;
        create schema public; grant all on schema public to public;`)
    }
    return db
  }
  if (!dataDir) return openSeededPglite()
  const dir = path.resolve(dataDir)
  if (reset) await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  return openPglite({ dataDir: dir })
}

function describe(db: Database, dataDir: string | undefined): string {
  if (db.kind === 'postgres') return 'PostgreSQL from DATABASE_URL'
  return dataDir ? `PGlite, data kept in ${path.resolve(dataDir)}` : 'PGlite in memory'
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
