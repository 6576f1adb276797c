import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { rm, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { openPostgres, prepareDatabase, type Database } from './database'
import { postgresPoolSize } from './pool-size'
import { openPgliteThread } from './pglite-thread'
import { MAX_SCALE, loadLargeDataset, parseDatasetFlags, resolveDatasetOptions, type DatasetOptions } from './dataset'
import { startLocalServer } from './server'
import { trustedProxyList } from './client-address'
import { passwordPolicyFromEnv } from './auth/password-policy'
import { authRateLimitsFromEnv } from './auth/request-limits'

const usage = `Usage: npm run backend -- [options]

Starts the local Supabase-compatible API (REST, auth, realtime) over an embedded Postgres.

Options:
  --port N       port to listen on (default 54321, or $PORT)
  --host HOST    address to listen on (default 127.0.0.1)
  --data DIR     keep the database in DIR (default: in memory, gone at exit)
  --reset        with --data or DATABASE_URL: start again from an empty database
  --dataset NAME demo (default: supabase/seed.sql) or large (a generated organisation of 10,000 people,
                 300,000 rights; with --data or DATABASE_URL it needs --reset)
  --dataset-seed N   with --dataset large: the seed of its random choices (default fixed)
  --dataset-scale F  with --dataset large: multiplies every count (e.g. 0.05 for a quick run)
  --trusted-proxies LIST  comma-separated addresses or CIDR blocks of reverse proxies in front of this server,
                 whose X-Forwarded-For entries are believed (default: none, the socket's peer is the client)
  --help         this text

Environment:
  DATABASE_URL   use this PostgreSQL database instead of the embedded one (it must be dedicated to Recertif)
  DB_POOL        with DATABASE_URL: connections to keep (default: 2 per processor core + 1, at most 10)
  PORT           port to listen on
  TRUSTED_PROXIES  as --trusted-proxies
  AUTH_SMTP_URL  where the auth API sends its e-mails (sign-up, recovery, magic link, invitation), e.g.
                 smtp://127.0.0.1:54325, the mail catcher; unset: they are not sent, as GoTrue without SMTP
  SITE_URL       the app's address, where e-mailed links lead (GoTrue's SITE_URL; default http://127.0.0.1:5173)
  AUTH_RATE_LIMIT_EMAIL_SENT, AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS, AUTH_RATE_LIMIT_TOKEN_REFRESH,
  AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS
                 the auth limits of supabase/config.toml's [auth.rate_limit] (default 2 e-mails an hour for the
                 project; 30, 150 and 30 requests per 5 minutes per address); 0 turns one off`

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      reset: { type: 'boolean', default: false },
      dataset: { type: 'string', default: 'demo' },
      'dataset-seed': { type: 'string' },
      'dataset-scale': { type: 'string' },
      'trusted-proxies': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    console.info(usage)
    return
  }
  const port = Number(values.port ?? process.env.PORT ?? 54321)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${values.port ?? process.env.PORT}`)

  if (values.dataset !== 'demo' && values.dataset !== 'large') throw new Error(`Unknown dataset: ${values.dataset} (demo or large)`)
  const large = values.dataset === 'large' ? parseDatasetFlags({ seed: values['dataset-seed'], scale: values['dataset-scale'] }) : null
  if (!large && (values['dataset-seed'] !== undefined || values['dataset-scale'] !== undefined)) {
    throw new Error('--dataset-seed and --dataset-scale go with --dataset large')
  }

  const trustedProxies = (values['trusted-proxies'] ?? process.env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  // Checked before the database is opened, which can take a while: a typo here is the operator's to fix at once.
  trustedProxyList(trustedProxies)
  const authRateLimits = authRateLimitsFromEnv(process.env)
  const passwordPolicy = passwordPolicyFromEnv(process.env)

  const started = Date.now()
  const db = large ? await openLargeDatabase(values.data, values.reset, large) : await openDatabase(values.data, values.reset)
  const applied = await prepareDatabase(db)
  const server = await startLocalServer({
    db,
    port,
    host: values.host,
    config: {
      trustedProxies,
      authRateLimits,
      ...passwordPolicy,
      smtpUrl: process.env.AUTH_SMTP_URL || undefined,
      ...(process.env.SITE_URL ? { siteUrl: process.env.SITE_URL } : {}),
    },
  })

  console.info(`Recertif local backend (${describe(db, values.data)})`)
  if (large) {
    const { seed, scale } = resolveDatasetOptions(large)
    console.info(`  dataset:          large organisation (seed ${seed}, scale ${scale})`)
  }
  if (applied.length > 0) console.info(`  migrations applied: ${applied.length}`)
  console.info(`  API URL:          ${server.url}`)
  console.info(`  REST:             ${server.url}/rest/v1`)
  console.info(`  Auth:             ${server.url}/auth/v1`)
  console.info(`  Realtime:         ${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket`)
  console.info(`  JWKS:             ${server.url}/auth/v1/.well-known/jwks.json`)
  console.info(`  publishable key:  ${server.config.publishableKey}`)
  console.info(`  secret key:       ${server.config.secretKey}`)
  console.info(`  anon key:         ${server.config.anonKey} (legacy)`)
  console.info(`  service_role key: ${server.config.serviceRoleKey} (legacy)`)
  console.info(`  JWT secret:       ${server.config.jwtSecret} (legacy)`)
  if (trustedProxies.length > 0) console.info(`  trusted proxies:  ${trustedProxies.join(', ')}`)
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

/** Without its database thread the server can answer nothing: it stops, saying why, rather than answer 500s. */
function exitOnLostDatabase(error: Error): void {
  console.error(`${error.message}: the local backend stops.`)
  process.exit(1)
}

async function openDatabase(dataDir: string | undefined, reset: boolean): Promise<Database> {
  const url = process.env.DATABASE_URL
  if (url) {
    const db = openPostgres(url, postgresPoolSize(process.env.DB_POOL, availableParallelism()))
    if (reset) {
      // Only the schemas Recertif and its bootstrap own; the database must be dedicated to it.
      await db.exec(`drop schema if exists public, private, auth, extensions, supabase_migrations cascade;
        create schema public; grant all on schema public to public;`)
    }
    return db
  }
  if (!dataDir) return (await openPgliteThread({ kind: 'seeded' }, { lost: exitOnLostDatabase })).db
  const dir = path.resolve(dataDir)
  if (reset) await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  return (await openPgliteThread({ kind: 'dir', dataDir: dir }, { lost: exitOnLostDatabase })).db
}

/** The large organisation: from its cached dump in memory, or generated into --data or DATABASE_URL after --reset. */
async function openLargeDatabase(dataDir: string | undefined, reset: boolean, options: DatasetOptions): Promise<Database> {
  if (!process.env.DATABASE_URL && (options.scale ?? 1) > MAX_SCALE.pglite) {
    throw new Error(
      `--dataset-scale ${options.scale}: PGlite goes up to scale ${MAX_SCALE.pglite}; larger organisations need PostgreSQL (DATABASE_URL)`,
    )
  }
  if (!dataDir && !process.env.DATABASE_URL) {
    const { db, opened } = await openPgliteThread({ kind: 'large', options }, { log: (message) => console.info(message), lost: exitOnLostDatabase })
    const { report, file, seconds } = opened!
    console.info(report ? `  dataset cached in ${path.relative(process.cwd(), file)}` : `  dataset loaded from ${path.relative(process.cwd(), file)} in ${seconds.toFixed(1)} s`)
    return db
  }
  if (!reset) throw new Error('--dataset large with --data or DATABASE_URL generates into an empty database: add --reset')
  const db = await openDatabase(dataDir, reset)
  await prepareDatabase(db, { seed: false })
  const report = await loadLargeDataset(db, options, (message) => console.info(message))
  console.info(`  dataset generated in ${report.seconds.toFixed(1)} s`)
  return db
}

function describe(db: Database, dataDir: string | undefined): string {
  if (db.kind === 'postgres') return 'PostgreSQL from DATABASE_URL'
  return dataDir ? `PGlite, data kept in ${path.resolve(dataDir)}` : 'PGlite in memory'
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
