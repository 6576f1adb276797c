import type { Database, Sql } from '../database'
import { auditSql, sealedAuditSql } from './audit-sql'
import { buildCampaigns } from './campaigns'
import { directorySql, stagingSql, type Statement } from './directory-sql'
import { datasetCounts, resolveDatasetOptions, type DatasetCounts, type DatasetOptions, type ResolvedDatasetOptions } from './options'
import { pathBuckets, paths } from './paths'
import { buildApplications, buildPeople } from './people'
import { stableUuid } from './random'
import { insertDecisionsSql, insertItemsSql, insertRightsSql, rightsSql, stepsSql } from './rights-sql'

export interface DatasetReport {
  options: ResolvedDatasetOptions
  counts: DatasetCounts
  /** Wall-clock seconds of the load, and of each of its steps. */
  seconds: number
  steps: { step: string; seconds: number }[]
}

/**
 * Fills a database that has the bootstrap and the migrations but no data (prepareDatabase with seed: false) with the
 * large organisation, in one transaction. The row triggers are off meanwhile (session_replication_role = replica):
 * they would write an audit row per generated row and check each foreign key one by one; the loader writes the audit
 * trail itself and builds only rows that satisfy every constraint (tests/db/dataset.test.ts checks them). Ends with
 * analyze, so that the planner knows the tables' new sizes.
 */
export async function loadLargeDataset(
  db: Database,
  options: DatasetOptions = {},
  log: (message: string) => void = () => undefined,
): Promise<DatasetReport> {
  const resolved = resolveDatasetOptions(options)
  const { seed, asOf } = resolved
  const counts = datasetCounts(resolved.scale)
  const people = buildPeople(seed, counts)
  const applications = buildApplications(seed, counts, people)
  const campaigns = buildCampaigns(asOf, applications)
  const started = performance.now()
  const steps: DatasetReport['steps'] = []

  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ n: number | string }>('select count(*) as n from public.users')
    if (Number(rows[0]?.n) > 0) throw new Error('The large dataset loads only into an empty database (no seed, no users).')

    const run = async (step: string, statements: Statement[] | string) => {
      const begun = performance.now()
      for (const statement of typeof statements === 'string' ? [{ text: statements }] : statements) {
        await execute(tx, statement)
      }
      const seconds = (performance.now() - begun) / 1000
      steps.push({ step, seconds })
      log(`  ${step}: ${seconds.toFixed(1)} s`)
    }

    await run('setup', `set local session_replication_role = replica;
      create function pg_temp.rnd(i bigint, salt integer) returns double precision
      language sql immutable
      as $$ select (hashint8extended(i, ${seed}::bigint * 1000 + salt) & 4503599627370495)::float8 / 4503599627370496.0 $$;`)
    await run('staging', stagingSql({
      people,
      applications,
      campaigns: campaigns.map((c) => ({ ...c, id: stableUuid(seed, 'campaign', c.n) })),
      paths: paths.map((p) => ({ id: p.id, final_status: p.final_status, step_count: p.steps.length, completion_ord: p.completion_ord })),
      steps: paths.flatMap((p) => p.steps.map((s) => ({ path_id: p.id, ...s }))),
      buckets: pathBuckets(),
    }))
    await run('people, accounts, applications, campaigns', directorySql(seed, asOf))
    await run('rights (plan)', rightsSql(seed, asOf, counts.applications, campaigns))
    await run('decisions (plan)', stepsSql(asOf))
    await run('drop secondary indexes', dropIndexesSql)
    await run('user_rights', insertRightsSql())
    await run('campaign_items', insertItemsSql(seed))
    await run('right_decisions', insertDecisionsSql(seed))
    await run('audit_logs (plan)', auditSql(asOf, counts.auditEvents))
    await run('audit_logs (sealed)', sealedAuditSql())
    await run('rebuild secondary indexes', rebuildIndexesSql)
    await run('cleanup', 'drop function pg_temp.rnd(bigint, integer)')
  })
  const begun = performance.now()
  await db.exec('analyze')
  steps.push({ step: 'analyze', seconds: (performance.now() - begun) / 1000 })
  log(`  analyze: ${((performance.now() - begun) / 1000).toFixed(1)} s`)
  return { options: resolved, counts, seconds: (performance.now() - started) / 1000, steps }
}

// Building an index once over the loaded rows is faster than maintaining it row by row. The definitions are read from
// the catalog, so the rebuilt indexes are exactly the migrations' (constraint indexes stay: the load relies on them).
const bulkTables = `'public.user_rights'::regclass, 'public.campaign_items'::regclass, 'public.right_decisions'::regclass, 'public.audit_logs'::regclass, 'private.audit_search'::regclass`
const dropIndexesSql = `
create temp table g_indexes on commit drop as
select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
  from pg_index i
 where i.indrelid in (${bulkTables})
   and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid);
do $$
declare
  index_name text;
begin
  for index_name in select name from g_indexes loop
    execute 'drop index ' || index_name;
  end loop;
end
$$;`
const rebuildIndexesSql = `
do $$
declare
  definition text;
begin
  for definition in select g.definition from g_indexes g order by g.name loop
    execute definition;
  end loop;
end
$$;`

async function execute(tx: Sql, statement: Statement): Promise<void> {
  if (statement.params) await tx.query(statement.text, statement.params)
  else await tx.exec(statement.text)
}
