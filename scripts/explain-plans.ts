/**
 * `npx tsx scripts/explain-plans.ts [--scale F] [--seed N] [--dump FILE | --generate FILE]`: the query plans behind
 * the bench's slow figures, and those of the other queries the inlined helpers serve (trends, risk lists, the audit
 * chain's verification, a campaign's start and completion), to compare a change of the migrations before and after on
 * the same data. --dump reads a dump of the large dataset made earlier (default: the bench's cache); --generate
 * makes one with this tree's migrations, writes it to FILE, then explains on it, leaving the bench's cache alone. Each
 * statement runs as its user and is rolled back. --all prints the plan of every statement, however fast.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { auto_explain } from '@electric-sql/pglite/contrib/auto_explain'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp'
import { openPglite, prepareDatabase } from '../supabase/local/database'
import { loadLargeDataset } from '../supabase/local/dataset'
import { compactDump } from '../supabase/local/dataset/dump'
import { cacheDir } from '../supabase/local/template-cache'

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    seed: { type: 'string' },
    dump: { type: 'string' },
    generate: { type: 'string' },
    // Every statement's plan, however fast, rather than those of 20 ms or more: to compare plans, not times.
    all: { type: 'boolean', default: false },
  },
})

async function cachedDump(): Promise<string> {
  const prefix = values.seed ? `large-${values.seed}-${values.scale}-` : null
  const files = (await readdir(cacheDir)).filter((name) =>
    prefix ? name.startsWith(prefix) : new RegExp(`^large-\\d+-${values.scale!.replace('.', '\\.')}-`).test(name),
  )
  const file = files.find((name) => !name.endsWith('.partial'))
  if (!file) throw new Error(`No cached large dataset at scale ${values.scale} in ${cacheDir}: run npm run bench first`)
  return path.join(cacheDir, file)
}

async function generatedDump(file: string): Promise<string> {
  const fresh = await openPglite()
  await prepareDatabase(fresh, { seed: false })
  const report = await loadLargeDataset(fresh, { scale: Number(values.scale), ...(values.seed ? { seed: Number(values.seed) } : {}) })
  console.info(`Generated the large dataset in ${report.seconds.toFixed(0)} s`)
  await writeFile(file, await compactDump(fresh))
  await fresh.close()
  return file
}

const dumpFile = values.generate ? await generatedDump(values.generate) : (values.dump ?? (await cachedDump()))
const logged: string[] = []
const db = new PGlite({ loadDataDir: new Blob([await readFile(dumpFile)]), extensions: { auto_explain, pgcrypto, uuid_ossp } })
const onNotice = ({ message = '' }: { message?: string }) => {
  const lines = message.split('\n')
  const root = lines.findIndex((line) => line.includes('(cost='))
  logged.push([lines[0], ...(root >= 0 ? lines.slice(root) : [])].join('\n'))
}

async function idOf(email: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>('select id from public.users where lower(email) = $1', [email])
  if (!rows[0]) throw new Error(`No user ${email}`)
  return rows[0].id
}

const ROLLBACK = new Error('rollback')

/** Runs `setup` (not timed) then `sql` as the user, prints the plans of what took 20 ms or more (--all: of every
 * statement), and rolls back. */
async function explainAs(title: string, email: string, sql: string, params: unknown[] = [], setup?: string) {
  const sub = await idOf(email)
  let elapsed = 0
  await db
    .transaction(async (tx) => {
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub, role: 'authenticated', email }),
      ])
      if (setup) await tx.exec(setup)
      logged.length = 0
      const begun = performance.now()
      await tx.query(sql, params, { onNotice })
      elapsed = performance.now() - begun
      throw ROLLBACK
    })
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error
    })
  console.info(`\n=== ${title} (${email}): ${elapsed.toFixed(0)} ms\n${logged.join('\n')}`)
}

await db.exec(`load 'auto_explain';
  set auto_explain.log_min_duration = ${values.all ? 0 : 20}; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on;
  set auto_explain.log_nested_statements = on; set auto_explain.log_timing = on; set client_min_messages = log;`)
const campaign = (
  await db.query<{ id: string }>(
    `select c.id from public.campaigns c join public.user_rights ur on ur.campaign_id = c.id
      where c.status = 'active' group by c.id order by count(*) desc limit 1`,
  )
).rows[0]!.id

// The statements behind the bench's slow figures.
await explainAs('rssi_dashboard, last 30 days', 'rssi@example.com', `select public.rssi_dashboard(p_from => current_date - 30, p_to => current_date)`)
await explainAs('rssi_dashboard, search matching all', 'rssi@example.com', `select public.rssi_dashboard(p_search => 'example.com', p_from => current_date - 30, p_to => current_date)`)
await explainAs('rssi_dashboard, search matching few', 'rssi@example.com', `select public.rssi_dashboard(p_search => 'manager@example', p_from => current_date - 30, p_to => current_date)`)
await explainAs('rssi_rights_export, search matching all, first 1000', 'rssi@example.com', `select * from public.rssi_rights_export(p_search => 'example.com', p_limit => 1000)`)
await explainAs('rssi_rights_count, search matching all', 'rssi@example.com', `select public.rssi_rights_count(p_search => 'example.com')`)
await explainAs('rssi_compliance', 'rssi@example.com', 'select public.rssi_compliance()')
await explainAs('campaign_progress', 'admin@example.com', 'select * from public.campaign_progress')
await explainAs('manager_dashboard', 'manager@example.com', 'select * from public.manager_dashboard()')
await explainAs('review_queue, first 100', 'manager@example.com', 'select * from public.review_queue(p_limit => 100)')
await explainAs('campaign_export_rows, manager file, first 1000', 'admin@example.com', `select * from public.campaign_export_rows(p_campaign_id => $1, p_file => 'manager', p_limit => 1000)`, [campaign])
const right = (
  await db.query<{ right_id: string }>(
    `select ur.id as right_id from public.user_rights ur join public.users h on h.id = ur.user_id
      join public.users m on m.id = h.manager_id where m.email = 'manager@example.com' and ur.status = 'pending' limit 1`,
  )
).rows[0]
if (right) {
  await explainAs('validate_user_right', 'manager@example.com', `select public.validate_user_right($1, 'validated_manager')`, [right.right_id])
}

// The other callers of the helpers the lints concern.
await explainAs('rssi_trends, last 30 days', 'rssi@example.com', `select public.rssi_trends(p_from => current_date - 30, p_to => current_date)`)
await explainAs('rssi_trends, search matching few', 'rssi@example.com', `select public.rssi_trends(p_search => 'manager@example', p_from => current_date - 30, p_to => current_date)`)
await explainAs('rssi_risk_list inactive, search matching all', 'rssi@example.com', `select public.rssi_risk_list('inactive', p_search => 'example.com')`)
await explainAs('rssi_risk_list expired', 'rssi@example.com', `select public.rssi_risk_list('expired')`)
await explainAs('verify_audit_chain', 'rssi@example.com', 'select public.verify_audit_chain()')
await explainAs('complete the largest running campaign', 'admin@example.com', `update public.campaigns set status = 'completed' where id = $1`, [campaign])
const DRAFT = '00000000-0000-4000-8000-00000000d0a1'
await explainAs('start a campaign over every application', 'admin@example.com', `update public.campaigns set status = 'active' where id = $1`, [DRAFT],
  `insert into public.campaigns (id, name, start_date, end_date) values ('${DRAFT}', 'Explain', current_date, current_date + 30)`)
await db.close()
