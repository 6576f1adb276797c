/**
 * plpgsql_check over every PL/pgSQL function of public and private, as `supabase db lint` runs it, and over each
 * trigger function once per trigger, against the trigger's table. Every class of warning is on: errors, other
 * warnings (implicit casts in assignments, unused variables), extra warnings (dead code, never read variables),
 * performance (implicit casts in queries, volatility), security (SQL injection in dynamic SQL) and compatibility.
 *
 * A function that creates a temporary table describes it with plpgsql_check's pragma, a string that does nothing at
 * run time, so that it works with or without the extension (PGlite, hosted projects):
 *   perform 'PRAGMA:TABLE: pg_temp.name (column type, …)';
 * A statement trigger's function names its transition tables in a comment, which plpgsql_check reads before checking:
 *   -- @plpgsql_check_options: oldtable = old_rows, newtable = new_rows
 */
import type { Sql } from '../../supabase/local/database'
import type { Finding, LintResult } from './advisors'

export const CHECKED_SCHEMAS = ['public', 'private']

interface CheckRow {
  function: string
  relation: string | null
  level: string
  lineno: number | null
  statement: string | null
  sqlstate: string | null
  message: string
  detail: string | null
  query: string | null
}

/**
 * Checks every function with the extension created for the occasion in the caller's transaction (the caller rolls it
 * back). Findings are grouped by plpgsql_check's level: 'error' is an ERROR, every warning class a WARN; a trigger
 * function found the same way on several tables is reported once, with its tables.
 */
export async function runPlpgsqlCheck(tx: Sql): Promise<{ results: LintResult[]; checked: string }> {
  await tx.exec('create schema plpgsql_check; create extension plpgsql_check with schema plpgsql_check')
  const schemas = CHECKED_SCHEMAS.map((name) => `'${name}'`).join(', ')
  const { rows } = await tx.query<CheckRow>(`
    select pg_catalog.format('%s', p.oid::pg_catalog.regprocedure) as function,
           pg_catalog.format('%s', t.tgrelid::pg_catalog.regclass) as relation,
           r.level, r.lineno, r.statement, r.sqlstate, r.message, r.detail, r.query
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      join pg_catalog.pg_language l on l.oid = p.prolang
      left join pg_catalog.pg_trigger t on t.tgfoid = p.oid and not t.tgisinternal
      cross join lateral plpgsql_check.plpgsql_check_function_tb(
        p.oid, coalesce(t.tgrelid, 0),
        fatal_errors => false, other_warnings => true, extra_warnings => true, performance_warnings => true,
        security_warnings => true, compatibility_warnings => true
      ) r
     where n.nspname in (${schemas}) and l.lanname = 'plpgsql'
       and (p.prorettype <> 'pg_catalog.trigger'::pg_catalog.regtype or t.oid is not null)
     order by 1, r.lineno, r.message`)
  // A trigger function no trigger uses cannot be checked: plpgsql_check needs the table it runs on.
  const { rows: unattached } = await tx.query<{ function: string }>(`
    select pg_catalog.format('%s', p.oid::pg_catalog.regprocedure) as function
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      join pg_catalog.pg_language l on l.oid = p.prolang
     where n.nspname in (${schemas}) and l.lanname = 'plpgsql'
       and p.prorettype = 'pg_catalog.trigger'::pg_catalog.regtype
       and not exists (select 1 from pg_catalog.pg_trigger t where t.tgfoid = p.oid)
     order by 1`)

  const { rows: counts } = await tx.query<{ functions: number; triggers: number }>(`
    select count(distinct p.oid)::integer as functions, count(t.oid)::integer as triggers
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      join pg_catalog.pg_language l on l.oid = p.prolang
      left join pg_catalog.pg_trigger t on t.tgfoid = p.oid and not t.tgisinternal
     where n.nspname in (${schemas}) and l.lanname = 'plpgsql'`)
  const { rows: version } = await tx.query<{ v: string }>(`select extversion as v from pg_catalog.pg_extension where extname = 'plpgsql_check'`)
  const checked = `plpgsql_check ${version[0]?.v ?? '?'} over ${counts[0]?.functions ?? 0} PL/pgSQL functions, trigger functions against each of their ${counts[0]?.triggers ?? 0} triggers`

  const byKey = new Map<string, { level: string; finding: Finding; relations: Set<string> }>()
  for (const row of rows) {
    const where = row.lineno == null ? '' : `line ${row.lineno}${row.statement ? ` (${row.statement})` : ''}: `
    const detail = `${where}${row.message}${row.detail ? ` — ${row.detail}` : ''}${row.query ? ` — in: ${oneLine(row.query)}` : ''}`
    const key = `${row.level}\u0000${row.function}\u0000${detail}`
    const entry = byKey.get(key) ?? { level: row.level, finding: { object: row.function, detail }, relations: new Set<string>() }
    if (row.relation) entry.relations.add(row.relation)
    byKey.set(key, entry)
  }
  const levels = new Map<string, Finding[]>()
  for (const { level, finding, relations } of byKey.values()) {
    const object = relations.size > 0 ? `${finding.object} on ${[...relations].sort().join(', ')}` : finding.object
    levels.set(level, [...(levels.get(level) ?? []), { object, detail: finding.detail }])
  }
  if (unattached.length > 0) {
    levels.set('unchecked', unattached.map((row) => ({ object: row.function, detail: 'trigger function of no trigger: nothing to check it against' })))
  }

  const order = ['error', 'warning', 'warning extra', 'performance', 'security', 'compatibility', 'unchecked']
  const results: LintResult[] = [...new Set([...order, ...levels.keys()])].map((level) => ({
    name: `plpgsql_check ${level}`,
    level: level === 'error' ? 'ERROR' : 'WARN',
    description: DESCRIPTIONS[level] ?? `plpgsql_check's ${level} findings`,
    findings: levels.get(level) ?? [],
  }))
  return { results, checked }
}

const DESCRIPTIONS: Record<string, string> = {
  error: 'what would fail at run time: unknown tables, columns, functions, wrong types',
  warning: 'implicit casts in assignments, unused variables, parameters overlapping columns',
  'warning extra': 'dead code, never read variables and parameters, missing RETURN',
  performance: 'implicit casts in queries (which can keep an index unused), volatility stricter than needed',
  security: 'dynamic SQL built from unsanitized text',
  compatibility: 'constructs later PostgreSQL versions change',
  unchecked: 'functions plpgsql_check could not be run on',
}

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat
}
