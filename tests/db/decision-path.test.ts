// The decision's path as the catalog has it: a decision writes one right, one item and one decision, and its writer
// applies their effects itself (private.apply_decision_effects, supabase/migrations/20261121001155_effects.sql) while
// the statement triggers built for bulk writes stand aside (recertif.writer_applies_effects). A trigger added to that
// path must either stand aside and have its work named in the single-row path, or run for a decision too.
import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'

const guard = /\(current_setting\('recertif\.writer_applies_effects'(::text)?, true\) IS DISTINCT FROM 'on'(::text)?\)/i

type Trigger = { table: string; name: string; fn: string; statement: boolean; definition: string }

let db: Database
let triggers: Trigger[]
let singleRowPath: string

beforeAll(async () => {
  db = await freshDatabase()
  // The triggers that fire on a decision's three statements: update of user_rights and campaign_items, insert into
  // right_decisions (a trigger for some columns only included: the catalog keeps which in tgattr).
  const { rows } = await db.query<Trigger>(
    `select c.relname as table, t.tgname as name, p.proname as fn, (t.tgtype & 1) = 0 as statement,
            pg_get_triggerdef(t.oid) as definition
       from pg_trigger t
       join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
       join pg_proc p on p.oid = t.tgfoid
      where not t.tgisinternal
        and ((c.relname in ('user_rights', 'campaign_items') and (t.tgtype & 16) <> 0)
             or (c.relname = 'right_decisions' and (t.tgtype & 4) <> 0))
      order by 1, 2`,
  )
  triggers = rows
  singleRowPath = (
    await db.query<{ src: string }>(
      `select p.prosrc as src from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'private' and p.proname = 'apply_decision_effects'`,
    )
  ).rows[0]!.src
})
afterAll(() => db.close())

describe('the statement triggers on a decision’s path', () => {
  it('are listed, and each stands aside for a decision', () => {
    const statementTriggers = triggers.filter((t) => t.statement)
    expect(statementTriggers.map((t) => `${t.table}.${t.name}`)).toEqual(
      expect.arrayContaining([
        'campaign_items.campaign_items_guard_update',
        'campaign_items.campaign_items_notify_moved',
        'right_decisions.right_decisions_tally_insert',
        'user_rights.user_rights_announce_update',
        'user_rights.user_rights_guard_closed_campaign_update',
        'user_rights.user_rights_risks_update',
        'user_rights.user_rights_tally_update',
      ]),
    )
    const unguarded = statementTriggers.filter((t) => !guard.test(t.definition))
    expect(unguarded.map((t) => `${t.table}.${t.name}: ${t.definition}`)).toEqual([])
  })

  it('have their work done by the single-row path when they stand aside', () => {
    const guarded = triggers.filter((t) => guard.test(t.definition))
    expect(guarded.length).toBeGreaterThanOrEqual(7)
    const missing = guarded.filter((t) => !singleRowPath.includes(`private.${t.fn}`))
    expect(missing.map((t) => `${t.table}.${t.name} (private.${t.fn})`)).toEqual([])
  })

  it('leaves no row trigger but the freeze of decisions standing aside', () => {
    const guardedRows = triggers.filter((t) => !t.statement && guard.test(t.definition))
    expect(guardedRows.map((t) => t.name)).toEqual(['right_decisions_guard_closed_campaign'])
  })
})

// File order is dependency order: no migration calls a function that a later migration defines.
/** Every migration's name and its SQL without comments, in the order they apply. */
async function migrationSources(): Promise<{ files: string[]; sources: string[] }> {
  const dir = path.resolve('supabase/migrations')
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort()
  const sources = await Promise.all(files.map(async (name) => (await readFile(path.join(dir, name), 'utf8')).replace(/--[^\n]*/g, '')))
  return { files, sources }
}

describe('the migrations', () => {
  it('call only functions of their own file or an earlier one', async () => {
    const { files, sources } = await migrationSources()
    const definedIn = new Map<string, number>()
    sources.forEach((sql, index) => {
      for (const match of sql.matchAll(/create\s+(?:or\s+replace\s+)?function\s+((?:public|private)\.\w+)\s*\(/gi)) {
        if (!definedIn.has(match[1]!)) definedIn.set(match[1]!, index)
      }
    })
    const forward = sources.flatMap((sql, index) =>
      [...new Set([...sql.matchAll(/\b((?:public|private)\.\w+)\s*\(/g)].map((match) => match[1]!))]
        .filter((name) => (definedIn.get(name) ?? index) > index)
        .map((name) => `${files[index]} calls ${name} of ${files[definedIn.get(name)!]}`),
    )
    expect(forward).toEqual([])
  })

  it('add no column to another file’s table', async () => {
    const { files, sources } = await migrationSources()
    const tableFile = new Map<string, number>()
    sources.forEach((sql, index) => {
      for (const match of sql.matchAll(/create\s+(?:unlogged\s+)?table\s+((?:public|private)\.\w+)/gi)) tableFile.set(match[1]!, index)
    })
    const added = sources.flatMap((sql, index) =>
      [...sql.matchAll(/alter\s+table\s+(?:only\s+)?((?:public|private)\.\w+)\s+add\s+column/gi)]
        .filter((match) => (tableFile.get(match[1]!) ?? index) !== index)
        .map((match) => `${files[index]} adds a column to ${match[1]}`),
    )
    expect(added).toEqual([])
  })
})
