/**
 * `bash .ci/with-postgres npx tsx scripts/db-lint.ts`: Supabase's checks on the migrations, as CI runs them. Applies
 * the platform bootstrap and every migration to a new database of the PostgreSQL at DATABASE_URL, then runs Supabase's
 * database advisors (scripts/db-lint/advisors.ts) and plpgsql_check over every PL/pgSQL function of public and private
 * (scripts/db-lint/plpgsql-check.ts; Debian's postgresql-NN-plpgsql-check, which .ci/with-postgres installs). Prints
 * every finding and exits with 1 when any is an ERROR or a WARN. The database is dropped afterwards.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openPostgres, prepareDatabase } from '../supabase/local/database'
import { runAdvisors, type LintResult } from './db-lint/advisors'
import { runPlpgsqlCheck } from './db-lint/plpgsql-check'

const url = process.env.DATABASE_URL
if (!url) {
  console.error('DATABASE_URL is not set: run `bash .ci/with-postgres npx tsx scripts/db-lint.ts`.')
  process.exit(2)
}

const name = `recertif_lint_${randomBytes(6).toString('hex')}`
const admin = new pg.Client({ connectionString: url })
await admin.connect()
await admin.query(`create database ${name}`)

let results: LintResult[]
let checked = ''
const target = new URL(url)
target.pathname = `/${name}`
const db = openPostgres(target.toString(), 1)
try {
  await prepareDatabase(db, { seed: false })
  results = await db.transaction(async (tx) => {
    // pg_get_expr then qualifies every name outside pg_catalog, as the advisors' patterns expect (auth.uid()).
    await tx.exec(`set local search_path = ''`)
    const advisors = await runAdvisors(tx)
    const plpgsql = await runPlpgsqlCheck(tx)
    checked = plpgsql.checked
    return [...advisors, ...plpgsql.results]
  })
} finally {
  await db.close()
  // The pool's connections end a moment after it closes: waited for, so that the drop has none to terminate.
  for (let tries = 0; tries < 50; tries++) {
    const { rows } = await admin.query<{ n: number }>('select count(*)::integer as n from pg_stat_activity where datname = $1', [name])
    if (rows[0]?.n === 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}

console.info(`Supabase's database advisors (scripts/db-lint/advisors.ts):`)
let failures = 0
let accepted = 0
for (const result of results) {
  const open = result.findings.filter((finding) => !finding.accepted)
  const lowered = result.findings.filter((finding) => finding.accepted)
  failures += open.length
  accepted += lowered.length
  const status = open.length > 0 ? `${result.level.padEnd(5)} ${open.length}` : 'ok     '
  if (result.name === 'plpgsql_check error') console.info(`\n${checked}:`)
  console.info(`${status.padEnd(9)} ${result.name}: ${result.description}`)
  for (const finding of open) console.info(`            ${finding.object}: ${finding.detail}`)
  for (const finding of lowered) console.info(`  INFO      ${finding.object}: ${finding.detail}; accepted: ${finding.accepted}`)
}
console.info(`\n${failures} ERROR or WARN finding(s)${accepted > 0 ? `, ${accepted} accepted as INFO` : ''}.`)
process.exit(failures > 0 ? 1 : 0)
