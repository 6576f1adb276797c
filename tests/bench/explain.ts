/**
 * `npx tsx tests/bench/explain.ts [--scale F] [--seed N]`: the query plans behind the bench's slow figures, read in
 * the large dataset's cached PGlite (run `npm run bench` once first, which caches it) with auto_explain logging
 * the plans of the statements inside the RPCs.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { auto_explain } from '@electric-sql/pglite/contrib/auto_explain'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp'
import { cacheDir } from '../../supabase/local/template-cache'

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, seed: { type: 'string' } } })

async function cachedDump(): Promise<string> {
  const prefix = values.seed ? `large-${values.seed}-${values.scale}-` : null
  const files = (await readdir(cacheDir)).filter((name) =>
    prefix ? name.startsWith(prefix) : new RegExp(`^large-\\d+-${values.scale!.replace('.', '\\.')}-`).test(name),
  )
  const file = files.find((name) => !name.endsWith('.partial'))
  if (!file) throw new Error(`No cached large dataset at scale ${values.scale} in ${cacheDir}: run npm run bench first`)
  return path.join(cacheDir, file)
}

const logged: string[] = []
const db = new PGlite({
  loadDataDir: new Blob([await readFile(await cachedDump())]),
  extensions: { auto_explain, pgcrypto, uuid_ossp },
})
// auto_explain's plans reach the client as LOG messages (client_min_messages = log). The statement's text is left
// out: the plan from its root node (the first line with a cost) is what tells where the time goes.
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

/**
 * Runs `sql` as the user (role authenticated and its JWT claims, as the REST layer does), prints the plans, and
 * rolls back so that the cached data stays as the bench found it.
 */
async function explainAs(title: string, email: string, sql: string, params: unknown[] = []) {
  const sub = await idOf(email)
  logged.length = 0
  const started = performance.now()
  let elapsed = 0
  await db
    .transaction(async (tx) => {
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub, role: 'authenticated', email }),
      ])
      await tx.query(sql, params, { onNotice })
      elapsed = performance.now() - started
      throw ROLLBACK
    })
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error
    })
  console.info(`\n=== ${title} (${email}): ${elapsed.toFixed(0)} ms\n${logged.join('\n')}`)
}

await db.exec(`load 'auto_explain';
  set auto_explain.log_min_duration = 20; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on;
  set auto_explain.log_nested_statements = on; set auto_explain.log_timing = on; set client_min_messages = log;`)
const campaign = (
  await db.query<{ id: string }>(
    `select c.id from public.campaigns c join public.user_rights ur on ur.campaign_id = c.id
      where c.status = 'active' group by c.id order by count(*) desc limit 1`,
  )
).rows[0]!.id

// The dashboard's default window: the last 30 days.
await explainAs('rssi_dashboard, last 30 days', 'rssi@example.com', `select public.rssi_dashboard(p_from => current_date - 30, p_to => current_date)`)
// A search matching every right (each right tested as it is read), and one matching a handful (read by primary key).
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
await db.close()
