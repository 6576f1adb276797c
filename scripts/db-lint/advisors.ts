/**
 * Supabase's database advisors (its "splinter" lints), those of level ERROR and WARN that can flag a schema like ours,
 * written here as catalog queries of our own. Each lint has splinter's name and level; its query returns the objects
 * it flags, one row each ({ object, detail }).
 *
 * Left out: the INFO lints (unindexed_foreign_keys, no_primary_key, unused_index, policy_exists_rls_disabled,
 * rls_enabled_no_policy, table_bloat, autovacuum_disabled); those about what we do not use (insecure_queue_exposed_in_api:
 * pgmq; public_bucket_allows_listing: Storage) or about platform settings and runtime state rather than the schema
 * (auth_allow_anonymous_sign_ins, unused_replication_slot); and pg_graphql_authenticated_table_exposed and
 * authenticated_security_definer_function_executable, which flag by construction every table the Data API serves to
 * signed-in users under row-level security and every RPC they may call, which is the application's design.
 */
import type { Sql } from '../../supabase/local/database'

export type LintLevel = 'ERROR' | 'WARN' | 'INFO'

export interface Finding {
  object: string
  detail: string
  /** Why a finding is accepted; set only on findings lowered to INFO. */
  accepted?: string
}

export interface LintResult {
  name: string
  level: LintLevel
  description: string
  findings: Finding[]
}

interface Advisor {
  name: string
  level: Exclude<LintLevel, 'INFO'>
  description: string
  /** {{platform}}: the platform's schemas, never ours to lint; {{api}}: the schemas the Data API serves. */
  sql: string
  /** Keeps the rows that are findings, where SQL alone would not tell (the row's expr column). */
  keep?: (row: { object: string; detail: string; expr?: string }) => boolean
}

/** Schemas Supabase owns (and PostgreSQL's own): the advisors look only at the others. */
export const PLATFORM_SCHEMAS = [
  'auth', 'cron', 'extensions', 'graphql', 'graphql_public', 'information_schema', 'net', 'pg_catalog', 'pg_toast',
  'pgbouncer', 'pgmq', 'pgsodium', 'pgsodium_masks', 'pgtle', 'realtime', 'repack', 'storage', 'supabase_functions',
  'supabase_migrations', 'vault',
]

/**
 * Functions that must stay inlined into their callers' queries, which a SET clause forbids. Their bodies are
 * SQL-standard (RETURN or BEGIN ATOMIC), so every name in them is bound when they are created and no search_path ever
 * changes what they call: function_search_path_mutable lists them as INFO, with why they are inlined. Supabase's own
 * advisor, which reads only the SET clause, still lists them as WARN.
 */
export const INLINED_FUNCTIONS: Record<string, string> = {
  'private.rights_in_scope(text,uuid[],uuid,public.account_type)':
    "the security officer's scope, inlined so that its conditions join the caller's scan (the export stops at a full page)",
  'private.rights_matching_terms(text[],uuid[],uuid[],uuid,public.account_type)':
    "the rights a search's terms match, inlined so that each term is an index condition of the caller's scan",
  'private.items_in_scope(text,uuid,public.account_type)':
    "the trends' scope, inlined so that each campaign's items are read by index",
  'private.audit_chain_hash(bigint,timestamp with time zone,uuid,text,text,text,text,text,jsonb,inet,bytea)':
    'the seal of an audit row, inlined into verify_audit_chain, which computes it for every row of the trail',
  'private.is_reviewed(public.right_status,boolean,boolean,boolean)':
    "whether an item was reviewed, inlined into the dashboard's pass over the rights a search matches",
}

// Helpers the queries share: relations of the schemas we own, and whether an API role can read them.
const OWN = `n.nspname <> all ({{platform}}) and n.nspname !~ '^pg_(temp|toast_temp)_'`
const NOT_EXTENSION_MEMBER = (oid: string, catalog: string) =>
  `not exists (select 1 from pg_catalog.pg_depend e where e.objid = ${oid} and e.classid = '${catalog}'::pg_catalog.regclass and e.deptype = 'e')`
const API_READS = `(pg_catalog.has_table_privilege('anon', c.oid, 'select') or pg_catalog.has_table_privilege('authenticated', c.oid, 'select'))`
const POLICIES = `
  select n.nspname, c.relname, c.relrowsecurity, p.polname, p.polpermissive, p.polroles,
         case p.polcmd when 'r' then 'select' when 'a' then 'insert' when 'w' then 'update' when 'd' then 'delete' else 'all' end as command,
         pg_catalog.pg_get_expr(p.polqual, p.polrelid) as using_expr,
         pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) as check_expr,
         (p.polroles = '{0}' or exists (
           select 1 from pg_catalog.pg_roles r where r.oid = any (p.polroles) and r.rolname in ('anon', 'authenticated')
         )) as for_api_roles
    from pg_catalog.pg_policy p
    join pg_catalog.pg_class c on c.oid = p.polrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where ${OWN}`

export const ADVISORS: Advisor[] = [
  {
    name: 'auth_users_exposed',
    level: 'WARN',
    description: 'a view of an API schema reads auth.users and an API role may select from it',
    sql: `
      select distinct pg_catalog.format('%I.%I', n.nspname, c.relname) as object, 'reads auth.users' as detail
        from pg_catalog.pg_depend d
        join pg_catalog.pg_rewrite w on w.oid = d.objid
        join pg_catalog.pg_class c on c.oid = w.ev_class
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where d.refobjid = pg_catalog.to_regclass('auth.users') and c.relkind in ('v', 'm')
         and n.nspname = any ({{api}}) and ${API_READS}`,
  },
  {
    name: 'auth_rls_initplan',
    level: 'WARN',
    description: 'a policy calls auth.uid(), auth.jwt(), auth.role(), auth.email() or current_setting() once per row instead of once per statement (select …)',
    sql: `
      with p as (${POLICIES})
      select pg_catalog.format('%I.%I', p.nspname, p.relname) as object, pg_catalog.format('policy %I', p.polname) as detail
        from p
       where p.relrowsecurity and exists (
         select 1 from pg_catalog.unnest(array[p.using_expr, p.check_expr]) x (expr)
          where pg_catalog.regexp_replace(x.expr, '\\mselect\\s+(auth\\.(uid|jwt|role|email)\\(|(pg_catalog\\.)?current_setting\\()', '', 'gi')
                ~* '(\\mauth\\.(uid|jwt|role|email)\\(|\\mcurrent_setting\\()'
       )`,
  },
  {
    name: 'multiple_permissive_policies',
    level: 'WARN',
    description: 'several permissive policies of a table apply to one role and command, and each is evaluated for every row',
    sql: `
      with p as (${POLICIES}),
      expanded as (
        select p.nspname, p.relname, p.polname, r.rolname, x.command
          from p
          join pg_catalog.pg_roles r on (r.oid = any (p.polroles) or p.polroles = '{0}')
                                   and r.rolname !~ '^pg_' and r.rolname not like 'supabase%admin' and not r.rolbypassrls
          cross join lateral pg_catalog.unnest(
            case when p.command = 'all' then array['select', 'insert', 'update', 'delete'] else array[p.command] end
          ) x (command)
         where p.polpermissive
      )
      select pg_catalog.format('%I.%I', e.nspname, e.relname) as object,
             pg_catalog.format('role %s, %s: %s', e.rolname, e.command, pg_catalog.string_agg(e.polname, ', ' order by e.polname)) as detail
        from expanded e
       group by e.nspname, e.relname, e.rolname, e.command
      having pg_catalog.count(*) > 1`,
  },
  {
    name: 'duplicate_index',
    level: 'WARN',
    description: 'two indexes of a table are identical',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object,
             pg_catalog.string_agg(i.relname, ', ' order by i.relname) as detail
        from pg_catalog.pg_index x
        join pg_catalog.pg_class i on i.oid = x.indexrelid
        join pg_catalog.pg_class c on c.oid = x.indrelid
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where ${OWN} and ${NOT_EXTENSION_MEMBER('c.oid', 'pg_catalog.pg_class')}
       group by n.nspname, c.relname,
                pg_catalog.replace(pg_catalog.pg_get_indexdef(x.indexrelid), pg_catalog.quote_ident(i.relname) || ' ON ', ' ON ')
      having pg_catalog.count(*) > 1`,
  },
  {
    name: 'security_definer_view',
    level: 'ERROR',
    description: 'a view an API role may select from runs with its owner\'s rights (no security_invoker), bypassing row-level security',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object, 'view without security_invoker' as detail
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'v' and ${OWN} and ${API_READS} and ${NOT_EXTENSION_MEMBER('c.oid', 'pg_catalog.pg_class')}
         and not coalesce(pg_catalog.lower(pg_catalog.array_to_string(c.reloptions, ',')) ~ 'security_invoker=(1|true|yes|on)', false)`,
  },
  {
    name: 'function_search_path_mutable',
    level: 'WARN',
    description: 'a function has no search_path of its own, so the caller\'s decides what its names resolve to',
    sql: `
      select pg_catalog.format('%s', p.oid::pg_catalog.regprocedure) as object,
             case when p.prosqlbody is not null and not p.prosecdef then 'SQL-standard body' else 'no SET search_path' end as detail
        from pg_catalog.pg_proc p
        join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       where ${OWN} and ${NOT_EXTENSION_MEMBER('p.oid', 'pg_catalog.pg_proc')}
         and not exists (select 1 from pg_catalog.unnest(p.proconfig) s where s like 'search\\_path=%')`,
  },
  {
    name: 'rls_disabled_in_public',
    level: 'ERROR',
    description: 'a table of an API schema has row-level security disabled',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object, 'row-level security disabled' as detail
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname = any ({{api}}) and not c.relrowsecurity`,
  },
  {
    name: 'extension_in_public',
    level: 'WARN',
    description: 'an extension is installed in the public schema',
    sql: `
      select e.extname::text as object, 'installed in public' as detail
        from pg_catalog.pg_extension e
       where e.extnamespace = 'public'::pg_catalog.regnamespace and e.extname <> 'plpgsql'`,
  },
  {
    name: 'rls_references_user_metadata',
    level: 'ERROR',
    description: 'a policy reads the JWT\'s user_metadata, which the user can edit',
    sql: `
      with p as (${POLICIES})
      select pg_catalog.format('%I.%I', p.nspname, p.relname) as object, pg_catalog.format('policy %I', p.polname) as detail
        from p
       where pg_catalog.concat_ws(' ', p.using_expr, p.check_expr) ~* '(auth\\.jwt\\(\\)|request\\.jwt\\.claims).*user_metadata'`,
  },
  {
    name: 'materialized_view_in_api',
    level: 'WARN',
    description: 'an API role may select from a materialized view, which row-level security does not cover',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object, 'materialized view readable by an API role' as detail
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'm' and ${OWN} and ${API_READS} and ${NOT_EXTENSION_MEMBER('c.oid', 'pg_catalog.pg_class')}`,
  },
  {
    name: 'foreign_table_in_api',
    level: 'WARN',
    description: 'an API role may select from a foreign table of an API schema, which row-level security does not cover',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object, 'foreign table readable by an API role' as detail
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'f' and n.nspname = any ({{api}}) and ${API_READS}
         and ${NOT_EXTENSION_MEMBER('c.oid', 'pg_catalog.pg_class')}`,
  },
  {
    name: 'unsupported_reg_types',
    level: 'WARN',
    description: 'a column stores a reg* type that pg_upgrade cannot carry over',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object,
             pg_catalog.format('column %I is %s', a.attname, pg_catalog.format_type(a.atttypid, null)) as detail
        from pg_catalog.pg_attribute a
        join pg_catalog.pg_class c on c.oid = a.attrelid
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where ${OWN} and a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'p', 'm')
         and a.atttypid in ('regcollation'::pg_catalog.regtype, 'regconfig'::pg_catalog.regtype,
                            'regdictionary'::pg_catalog.regtype, 'regnamespace'::pg_catalog.regtype,
                            'regoper'::pg_catalog.regtype, 'regoperator'::pg_catalog.regtype,
                            'regproc'::pg_catalog.regtype, 'regprocedure'::pg_catalog.regtype)`,
  },
  {
    name: 'fkey_to_auth_unique',
    level: 'ERROR',
    description: 'a foreign key references a unique constraint of the auth schema other than a primary key',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object, pg_catalog.format('foreign key %I', k.conname) as detail
        from pg_catalog.pg_constraint k
        join pg_catalog.pg_class c on c.oid = k.conrelid
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        join pg_catalog.pg_class t on t.oid = k.confrelid
        join pg_catalog.pg_index i on i.indexrelid = k.conindid
       where k.contype = 'f' and t.relnamespace = 'auth'::pg_catalog.regnamespace and i.indisunique and not i.indisprimary`,
  },
  {
    name: 'extension_versions_outdated',
    level: 'WARN',
    description: 'an extension is not at the version the server recommends',
    sql: `
      select x.name::text as object, pg_catalog.format('%s installed, %s available', x.installed_version, x.default_version) as detail
        from pg_catalog.pg_available_extensions x
       where x.installed_version is not null and x.default_version is not null and x.installed_version <> x.default_version`,
  },
  {
    name: 'sensitive_columns_exposed',
    level: 'ERROR',
    description: 'a table of an API schema without row-level security, readable by an API role, has a column named for secrets or personal data',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object,
             'columns ' || pg_catalog.string_agg(a.attname::text, ', ' order by a.attname) as detail
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       where c.relkind = 'r' and n.nspname = any ({{api}}) and not c.relrowsecurity and ${API_READS}
         and pg_catalog.replace(pg_catalog.lower(a.attname), '-', '_') ~ ('^(' || pg_catalog.array_to_string(array[
           'passw(or)?d', 'pwd', 'passphrase', 'secret(_key)?', 'private_key', 'api_?key', 'auth_key', '(access_|refresh_|oauth_|session_|bearer_)?token',
           'jwt', 'session_(id|key|secret)', '(recovery|backup|verification)_code', 'otp', 'two_factor', '2fa_(secret|code)',
           'ssn', 'social_security(_number)?', 'drivers?_license', 'license_(number|key)', 'passport_(number|id)', 'national_id',
           'tax_id', 'credit_card', 'card_number', 'cv[vcn]', 'bank_account', 'account_number', 'routing_number', 'iban',
           'swift_code', 'bic', '(health|medical)_record', 'patient_id', '(health_|medical_)?insurance(_number)?', 'treatment',
           'mac_?address', 'macaddr', 'imei', 'device_uuid', '(pgp|gpg|ssh)_key', 'certificate', 'activation_key',
           'facial_recognition'], '|') || ')$')
       group by n.nspname, c.relname`,
  },
  {
    name: 'rls_policy_always_true',
    level: 'WARN',
    description: 'a permissive policy for an API role lets every row be written (USING or WITH CHECK always true)',
    sql: `
      with p as (${POLICIES}),
      normalized as (
        select p.*, pg_catalog.regexp_replace(pg_catalog.lower(coalesce(p.using_expr, '')), '[\\s()]', '', 'g') as u,
               pg_catalog.regexp_replace(pg_catalog.lower(coalesce(p.check_expr, '')), '[\\s()]', '', 'g') as w
          from p
         where p.relrowsecurity and p.polpermissive and p.for_api_roles
      )
      select pg_catalog.format('%I.%I', x.nspname, x.relname) as object, pg_catalog.format('policy %I (%s)', x.polname, x.command) as detail
        from normalized x
       where (x.command in ('update', 'delete', 'all') and (x.u in ('true', '1=1') or x.using_expr is null))
          or x.w in ('true', '1=1')
          or (x.check_expr is null and x.command = 'insert')
          or (x.check_expr is null and x.command in ('update', 'all') and x.u in ('true', '1=1'))`,
  },
  {
    name: 'rls_policy_null_auth_disjunct',
    level: 'WARN',
    description: 'a permissive read policy for an API role admits every row when an auth function is null (… is null or …)',
    sql: `
      with p as (${POLICIES})
      select pg_catalog.format('%I.%I', p.nspname, p.relname) as object, pg_catalog.format('policy %I', p.polname) as detail,
             p.using_expr as expr
        from p
       where p.relrowsecurity and p.polpermissive and p.for_api_roles and p.command in ('select', 'all')
         and p.using_expr ~* '(auth\\.(uid|jwt|role)\\(\\)|current_setting\\(.*true\\))'`,
    keep: (row) => topLevelDisjuncts(row.expr ?? '').some((part) => NULL_AUTH.test(part)),
  },
  {
    name: 'pg17_deprecated_extensions',
    level: 'WARN',
    description: 'an extension that PostgreSQL 17 images no longer ship is installed',
    sql: `
      select e.extname::text as object, 'not in PostgreSQL 17 images' as detail
        from pg_catalog.pg_extension e
       where e.extname in ('plv8', 'timescaledb', 'adminpack')`,
  },
  {
    name: 'pg_graphql_anon_table_exposed',
    level: 'WARN',
    description: 'anon may select from a relation (checked whether or not pg_graphql is installed: it is on hosted projects)',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object, 'anon has SELECT' as detail
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'f') and ${OWN}
         and exists (
           select 1 from pg_catalog.pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
              and pg_catalog.has_column_privilege('anon', c.oid, a.attnum, 'select')
         )`,
  },
  {
    name: 'anon_security_definer_function_executable',
    level: 'WARN',
    description: 'anon may execute a security definer function',
    sql: `
      select pg_catalog.format('%s', p.oid::pg_catalog.regprocedure) as object, 'security definer, executable by anon' as detail
        from pg_catalog.pg_proc p
        join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       where p.prosecdef and ${OWN} and pg_catalog.has_function_privilege('anon', p.oid, 'execute')`,
  },
  {
    name: 'invalid_index',
    level: 'WARN',
    description: 'an index is invalid (a failed concurrent build): the planner ignores it, writes still maintain it',
    sql: `
      select pg_catalog.format('%I.%I', n.nspname, c.relname) as object, pg_catalog.format('index %I', i.relname) as detail
        from pg_catalog.pg_index x
        join pg_catalog.pg_class i on i.oid = x.indexrelid
        join pg_catalog.pg_class c on c.oid = x.indrelid
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where not x.indisvalid and x.indisready and ${OWN}
         and not exists (select 1 from pg_catalog.pg_stat_progress_create_index b where b.index_relid = x.indexrelid)`,
  },
]

// A disjunct true when an auth function is null: "auth.uid() IS NULL", or "NOT (auth.uid() IS NOT NULL)", the call
// wrapped in "(SELECT … AS uid)" or not.
const NULL_AUTH_CALL = String.raw`(\(\s*SELECT\s+)?(auth\.(uid|jwt|role)\(\)|current_setting\([^()]*,\s*true\))(\s+AS\s+\w+\s*\))?`
const NULL_AUTH = new RegExp(String.raw`^(${NULL_AUTH_CALL}\s+IS\s+NULL|NOT\s+\(?\s*${NULL_AUTH_CALL}\s+IS\s+NOT\s+NULL\s*\)?)$`, 'i')

/** The operands of an expression's top-level ORs, as pg_get_expr prints it, each without its enclosing parentheses. */
export function topLevelDisjuncts(expr: string): string[] {
  const strip = (text: string): string => {
    let t = text.trim()
    while (t.startsWith('(') && t.endsWith(')') && closingParen(t, 0) === t.length - 1) t = t.slice(1, -1).trim()
    return t
  }
  const whole = strip(expr)
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < whole.length; i++) {
    const char = whole[i]
    if (char === "'") quoted = !quoted
    if (quoted) continue
    if (char === '(') depth++
    else if (char === ')') depth--
    else if (depth === 0 && whole.startsWith(' OR ', i)) {
      parts.push(strip(whole.slice(start, i)))
      start = i + 4
    }
  }
  parts.push(strip(whole.slice(start)))
  return parts
}

function closingParen(text: string, open: number): number {
  let depth = 0
  let quoted = false
  for (let i = open; i < text.length; i++) {
    if (text[i] === "'") quoted = !quoted
    if (quoted) continue
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return i
  }
  return -1
}

/** The schemas the Data API serves: PostgREST's db_schemas where the platform sets it, public otherwise. */
async function apiSchemas(db: Sql): Promise<string[]> {
  const { rows } = await db.query<{ schemas: string | null }>(`select pg_catalog.current_setting('pgrst.db_schemas', true) as schemas`)
  const listed = (rows[0]?.schemas ?? '').split(',').map((name) => name.trim()).filter(Boolean)
  return listed.length > 0 ? listed : ['public']
}

const textArray = (values: string[]) => `array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')}]::text[]`

/**
 * Runs every advisor. Policies are read as pg_get_expr prints them, with schema-qualified names only when the
 * session's search_path is empty: the caller's transaction sets it so.
 */
export async function runAdvisors(db: Sql): Promise<LintResult[]> {
  const api = textArray(await apiSchemas(db))
  const platform = textArray(PLATFORM_SCHEMAS)
  const results: LintResult[] = []
  for (const advisor of ADVISORS) {
    const sql = advisor.sql.replaceAll('{{platform}}', platform).replaceAll('{{api}}', api)
    const { rows } = await db.query<{ object: string; detail: string; expr?: string }>(sql)
    const findings: Finding[] = rows
      .filter((row) => !advisor.keep || advisor.keep(row))
      .map((row) => ({ object: row.object, detail: row.detail }))
    if (advisor.name === 'function_search_path_mutable') {
      for (const finding of findings) {
        const why = INLINED_FUNCTIONS[finding.object]
        if (why && finding.detail === 'SQL-standard body') finding.accepted = why
      }
    }
    results.push({ name: advisor.name, level: advisor.level, description: advisor.description, findings })
  }
  return results
}
