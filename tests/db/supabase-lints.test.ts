// Supabase's database advisors on the migrated schema, here on PGlite as on PostgreSQL; CI also runs them, with
// plpgsql_check, through scripts/db-lint.ts.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { runAdvisors, topLevelDisjuncts } from '../../scripts/db-lint/advisors'
import { freshDatabase } from '../support/database'

let db: Database
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

it('passes every ERROR and WARN advisor, the inlined functions listed as accepted', async () => {
  const results = await db.transaction(async (tx) => {
    await tx.exec(`set local search_path = ''`)
    return runAdvisors(tx)
  })
  const open = results.flatMap((result) =>
    result.findings.filter((finding) => !finding.accepted).map((finding) => `${result.level} ${result.name}: ${finding.object}: ${finding.detail}`),
  )
  expect(open).toEqual([])
  const accepted = results.flatMap((result) => result.findings.filter((finding) => finding.accepted).map((finding) => finding.object))
  expect(accepted.sort()).toEqual([
    'private.audit_chain_hash(bigint,timestamp with time zone,uuid,text,text,text,text,text,jsonb,inet,bytea)',
    'private.is_reviewed(public.right_status,boolean,boolean,boolean)',
    'private.items_in_scope(text,uuid,public.account_type)',
    'private.rights_in_scope(text,uuid[],uuid,public.account_type)',
    'private.rights_matching_terms(text[],uuid[],uuid[],uuid,public.account_type)',
  ])
})

it('flags what the advisors are for, in a schema of its own rolled back', async () => {
  const rolledBack = new Error('rolled back')
  let results: Awaited<ReturnType<typeof runAdvisors>> = []
  await db
    .transaction(async (tx) => {
      await tx.exec(`
        create table public.lint_probe (id integer primary key, password text);
        grant select on public.lint_probe to anon;
        create function public.lint_probe_fn() returns integer language sql as 'select 1';
        create function public.lint_probe_inlined() returns integer language sql immutable return 1;
        create view public.lint_probe_view as select id from public.lint_probe;
        grant select on public.lint_probe_view to authenticated;
        create table public.lint_probe_owned (id integer primary key, owner uuid);
        alter table public.lint_probe_owned enable row level security;
        create policy lint_probe_read on public.lint_probe_owned for select to authenticated using (owner = auth.uid());
        create policy lint_probe_read_too on public.lint_probe_owned for select to authenticated
          using (auth.uid() is null or owner = (select auth.uid()));
        create policy lint_probe_delete on public.lint_probe_owned for delete to authenticated using (true);
        create index lint_probe_owner_a on public.lint_probe_owned (owner);
        create index lint_probe_owner_b on public.lint_probe_owned (owner);
        revoke all on public.lint_probe_owned, public.lint_probe_view from anon;
        set local search_path = '';
      `)
      results = await runAdvisors(tx)
      throw rolledBack
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error
    })
  const flagged = (name: string) =>
    results.find((result) => result.name === name)!.findings.filter((finding) => finding.object.includes('lint_probe'))
  expect(flagged('rls_disabled_in_public').map((finding) => finding.object)).toEqual(['public.lint_probe'])
  expect(flagged('sensitive_columns_exposed').map((finding) => finding.detail)).toEqual(['columns password'])
  expect(flagged('pg_graphql_anon_table_exposed').map((finding) => finding.object)).toEqual(['public.lint_probe'])
  expect(flagged('security_definer_view').map((finding) => finding.object)).toEqual(['public.lint_probe_view'])
  expect(flagged('function_search_path_mutable').map((finding) => [finding.object, finding.accepted])).toEqual([
    ['public.lint_probe_fn()', undefined],
    ['public.lint_probe_inlined()', undefined],
  ])
  expect(flagged('auth_rls_initplan').map((finding) => finding.detail).sort()).toEqual([
    'policy lint_probe_read',
    'policy lint_probe_read_too',
  ])
  expect(flagged('multiple_permissive_policies').map((finding) => finding.detail)).toEqual([
    'role authenticated, select: lint_probe_read, lint_probe_read_too',
  ])
  expect(flagged('rls_policy_null_auth_disjunct').map((finding) => finding.detail)).toEqual(['policy lint_probe_read_too'])
  expect(flagged('rls_policy_always_true').map((finding) => finding.detail)).toEqual(['policy lint_probe_delete (delete)'])
  expect(flagged('duplicate_index').map((finding) => finding.detail)).toEqual(['lint_probe_owner_a, lint_probe_owner_b'])
})

it('reads the top-level disjuncts of a policy as PostgreSQL prints it', () => {
  expect(topLevelDisjuncts('((auth.uid() IS NULL) OR (owner = auth.uid()))')).toEqual(['auth.uid() IS NULL', 'owner = auth.uid()'])
  expect(topLevelDisjuncts("((auth.uid() IS NOT NULL) AND ((a = 1) OR (b = 'x OR y')))")).toEqual([
    "(auth.uid() IS NOT NULL) AND ((a = 1) OR (b = 'x OR y'))",
  ])
})
