// Every action, field and coded value the database can write into public.audit_logs has its French words in
// src/domain/audit-labels.ts. The list comes from the migrated database itself: the sources of the installed functions
// (their calls to private.write_audit and their own inserts into the trail), the tables whose rows the generic trigger
// logs, their columns, and the enumerations and check constraints of the columns that hold codes. A new action, key or
// column written in SQL without its words makes this test fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import {
  AUDIT_ACTION_LABELS,
  AUDIT_CODE_KINDS,
  AUDIT_RESOURCE_LABELS,
  AUDIT_STRUCTURE_KEYS,
  auditCodeLabel,
  auditField,
} from '@/domain/audit-labels'

interface SqlFunction {
  name: string
  args: string[]
  src: string
}

/** The source without its comments, its string literals kept (a quote inside a comment would mislead the scan). */
function withoutComments(src: string): string {
  let out = ''
  for (let i = 0; i < src.length; i += 1) {
    const char = src[i]!
    if (char === "'") {
      const end = src.indexOf("'", i + 1)
      let close = end
      while (close !== -1 && src[close + 1] === "'") close = src.indexOf("'", close + 2)
      const stop = close === -1 ? src.length : close + 1
      out += src.slice(i, stop)
      i = stop - 1
    } else if (char === '-' && src[i + 1] === '-') {
      const end = src.indexOf('\n', i)
      i = end === -1 ? src.length : end - 1
    } else {
      out += char
    }
  }
  return out
}

/** The top-level arguments of each call to `callee` in the source, as text. */
function callsOf(src: string, callee: string): string[][] {
  const calls: string[][] = []
  const lower = src.toLowerCase()
  for (let at = lower.indexOf(`${callee}(`); at !== -1; at = lower.indexOf(`${callee}(`, at + 1)) {
    if (/[\w.]/.test(lower[at - 1] ?? '')) continue
    const args: string[] = []
    let depth = 0
    let current = ''
    for (let i = at + callee.length + 1; i < src.length; i += 1) {
      const char = src[i]!
      if (char === "'") {
        let close = src.indexOf("'", i + 1)
        while (close !== -1 && src[close + 1] === "'") close = src.indexOf("'", close + 2)
        current += src.slice(i, close + 1)
        i = close
      } else if (char === '(') {
        depth += 1
        current += char
      } else if (char === ')' && depth > 0) {
        depth -= 1
        current += char
      } else if (char === ')' || (char === ',' && depth === 0)) {
        args.push(current.trim())
        current = ''
        if (char === ')') break
      } else {
        current += char
      }
    }
    calls.push(args)
  }
  return calls
}

const literals = (text: string) => [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replaceAll("''", "'"))

/** The keys of every jsonb_build_object in the text, nested ones included: its arguments at even places. */
function builtKeys(text: string): string[] {
  return callsOf(text, 'jsonb_build_object').flatMap((args) => [
    ...args.flatMap((arg, index) => (index % 2 === 0 ? literals(arg).slice(0, 1) : [])),
    ...args.flatMap((arg, index) => (index % 2 === 1 ? builtKeys(arg) : [])),
  ])
}

interface Written {
  /** action → the resource types it is written on ('' when the call does not say it literally). */
  actions: Map<string, Set<string>>
  /** "resource type:key" of every details key the functions build. */
  keys: Set<string>
  /** What the scan could not read: an action passed in a way it does not follow. */
  unread: string[]
}

function add(map: Map<string, Set<string>>, key: string, value: string) {
  map.set(key, (map.get(key) ?? new Set()).add(value))
}

/** The actions and details keys the functions write through private.write_audit or their own insert. */
function scanWriters(functions: readonly SqlFunction[], auditedTables: readonly string[]): Written {
  const written: Written = { actions: new Map(), keys: new Set(), unread: [] }
  const sources = functions.map((f) => ({ ...f, src: withoutComments(f.src) }))
  for (const fn of sources) {
    for (const [action = '', resource = '', , details = ''] of callsOf(fn.src, 'private.write_audit')) {
      const resources = literals(resource).length > 0 ? literals(resource) : resource === 'tg_table_name' ? auditedTables : ['']
      // A CASE names its results after then and else; its tests (tg_op's 'INSERT'…) are no actions.
      let actions = /^case\b/i.test(action) ? [...action.matchAll(/\b(?:then|else)\s+'(\w+)'/gi)].map((m) => m[1]!) : literals(action)
      // An action passed in by the caller (create_delegation's p_action): the literals its callers pass there.
      const param = fn.args.indexOf(action)
      if (actions.length === 0 && param !== -1) {
        actions = sources.flatMap((caller) => callsOf(caller.src, fn.name).flatMap((args) => literals(args[param] ?? '')))
      }
      if (actions.length === 0) written.unread.push(`${fn.name}: write_audit(${action}, …)`)
      for (const name of actions) for (const type of resources) add(written.actions, name, type)
      for (const key of builtKeys(details)) for (const type of resources) written.keys.add(`${type}:${key}`)
    }
    if (fn.name !== 'private.write_audit' && /insert\s+into\s+public\.audit_logs/i.test(fn.src)) {
      const actions = [...fn.src.matchAll(/'(\w+)'\s+as\s+action/gi)].map((m) => m[1]!)
      if (actions.length === 0) written.unread.push(`${fn.name}: insert into public.audit_logs`)
      for (const name of actions) add(written.actions, name, '')
    }
  }
  return written
}

let db: Database
let functions: SqlFunction[]
let auditedTables: string[]
let written: Written

beforeAll(async () => {
  db = await freshDatabase()
  const rows = await db.query<{ name: string; args: string[] | null; src: string }>(
    `select n.nspname || '.' || p.proname as name, p.proargnames as args, p.prosrc as src
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private') and p.prokind = 'f'`,
  )
  functions = rows.rows.map((r) => ({ name: r.name, args: r.args ?? [], src: r.src }))
  const tables = await db.query<{ table_name: string }>(
    `select distinct c.relname as table_name
       from pg_catalog.pg_trigger t
       join pg_catalog.pg_class c on c.oid = t.tgrelid
       join pg_catalog.pg_proc p on p.oid = t.tgfoid
      where p.proname = 'audit_row_change' and not t.tgisinternal
      order by 1`,
  )
  auditedTables = tables.rows.map((r) => r.table_name)
  written = scanWriters(functions, auditedTables)
}, 120_000)
afterAll(() => db?.close())

/** The columns of a table as the row trigger logs them (it drops those it subtracts from to_jsonb(…)). */
async function loggedColumns(table: string): Promise<string[]> {
  const trigger = functions.find((f) => f.name === 'private.audit_row_change')!
  const dropped = [...trigger.src.matchAll(/to_jsonb\((?:old|new)\)\s*-\s*'(\w+)'/g)].map((m) => m[1]!)
  const { rows } = await db.query<{ column_name: string }>(
    `select a.attname as column_name
       from pg_catalog.pg_attribute a
      where a.attrelid = ('public.' || $1)::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [table],
  )
  return rows.map((r) => r.column_name).filter((name) => !dropped.includes(name))
}

/** The codes a column may hold: its enumeration's labels, or the list of its check constraint (col in ('a', 'b')). */
async function columnCodes(table: string, column: string): Promise<string[]> {
  const enumLabels = await db.query<{ label: string }>(
    `select e.enumlabel as label
       from pg_catalog.pg_attribute a
       join pg_catalog.pg_enum e on e.enumtypid = a.atttypid
      where a.attrelid = ('public.' || $1)::regclass and a.attname = $2
      order by e.enumsortorder`,
    [table, column],
  )
  if (enumLabels.rows.length > 0) return enumLabels.rows.map((r) => r.label)
  const checks = await db.query<{ def: string }>(
    `select pg_catalog.pg_get_constraintdef(c.oid) as def
       from pg_catalog.pg_constraint c
      where c.conrelid = ('public.' || $1)::regclass and c.contype = 'c'`,
    [table],
  )
  const pattern = new RegExp(`\\(${column} = ANY \\(ARRAY\\[([^\\]]+)\\]\\)\\)`)
  return [...new Set(checks.rows.flatMap((r) => literals(pattern.exec(r.def)?.[1] ?? '')))]
}

describe('the words of the audit trail', () => {
  it('finds the writers of the trail, the known ones among them', () => {
    expect(written.unread).toEqual([])
    for (const action of ['create', 'update', 'delete', 'decide', 'sign_off', 'delegate', 'reassign', 'import_directory', 'invite_users']) {
      expect([...written.actions.keys()], action).toContain(action)
    }
    expect(auditedTables).toEqual(expect.arrayContaining(['users', 'applications', 'campaigns', 'user_rights', 'right_removals']))
    for (const key of ['user_rights:decision', 'campaigns:stage', 'review_delegations:delegate_id', 'campaigns:fallback_reviewers', 'users:leaving']) {
      expect([...written.keys], key).toContain(key)
    }
  })

  it('has a French label for every action and every resource type', () => {
    const missing = [...written.actions.keys()].filter((action) => !Object.hasOwn(AUDIT_ACTION_LABELS, action))
    expect(missing).toEqual([])
    const types = new Set([...auditedTables, ...[...written.actions.values()].flatMap((set) => [...set])].filter(Boolean))
    expect([...types].filter((type) => !Object.hasOwn(AUDIT_RESOURCE_LABELS, type))).toEqual([])
  })

  it('has a French label for every key the audited functions write in their details', () => {
    const missing = [...written.keys].filter((entry) => {
      const [type = '', key = ''] = entry.split(':')
      return !AUDIT_STRUCTURE_KEYS.includes(key) && auditField(type, key) === undefined
    })
    expect(missing).toEqual([])
  })

  it('has a French label for every column of every audited table', async () => {
    const missing: string[] = []
    for (const table of auditedTables) {
      for (const column of await loggedColumns(table)) if (auditField(table, column) === undefined) missing.push(`${table}.${column}`)
    }
    expect(missing).toEqual([])
  })

  it('words every code an audited column or a decision’s, a delegation’s details may hold', async () => {
    // The decisions' and delegations' events copy some columns of their own records into their details.
    const keys = new Set([...written.keys].map((entry) => entry.split(':')[1]!))
    const copied = ['right_decisions', 'review_delegations'].flatMap((table) => [...keys].map((key) => [table, key] as const))
    const columns: (readonly [string, string, string])[] = []
    for (const table of auditedTables) for (const column of await loggedColumns(table)) columns.push([table, column, table])
    for (const [table, key] of copied) columns.push([table, key, ''])
    const checked: string[] = []
    const missing: string[] = []
    for (const [table, column, resource] of columns) {
      let codes: string[]
      try {
        codes = await columnCodes(table, column)
      } catch {
        continue
      }
      if (codes.length === 0) continue
      const kind = auditField(resource, column)?.kind
      if (!kind || !AUDIT_CODE_KINDS.includes(kind)) {
        missing.push(`${table}.${column}: codes without words`)
        continue
      }
      for (const code of codes) {
        checked.push(`${table}.${column}=${code}`)
        if (auditCodeLabel(kind, code) === undefined) missing.push(`${table}.${column}=${code}`)
      }
    }
    expect(missing).toEqual([])
    // Not vacuous: the enumerations and check lists were found.
    expect(checked).toEqual(
      expect.arrayContaining([
        'users.role=bpo_groupe',
        'user_rights.status=refused_manager',
        'campaigns.status=archived',
        'right_removals.state=verified',
        'right_decisions.decision=approved',
        'right_decisions.stage=bpo_metier',
        'right_decisions.acting_as=fallback',
      ]),
    )
  })
})
