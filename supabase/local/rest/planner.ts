import type { AggregateFunction, Field, Filter, JsonStep, LogicTree, Operation, OrderTerm, Preferences, QueryParams, SelectItem } from './ast'
import { errors, pgrstError } from './errors'
import { findRelationship } from './relationships'
import type { Column, Relationship, Routine, RoutineParam, SchemaCache, Table } from './schema'
import { closest } from './similarity'

// From the request AST to a plan: every name is looked up in the schema cache and replaced by what was
// found there, relationships are resolved, and SQL aliases are assigned. The SQL builder trusts the plan.

export interface SelectColumn {
  kind: 'column'
  column: Column
  jsonPath: JsonStep[]
  /** The cast's type as SQL, from the schema cache. */
  cast?: string
  name: string
}

/** `column.sum()`, `count()`: the rows of its level are grouped by every other item of that level. */
export interface SelectAggregate {
  kind: 'aggregate'
  fn: AggregateFunction
  /** The aggregated value; none for count() of the rows. */
  value?: { column: Column; jsonPath: JsonStep[]; cast?: string }
  /** The cast of the aggregate's result (`amount.avg()::int`). */
  cast?: string
  name: string
}

export interface SelectEmbed {
  kind: 'embed'
  embed: EmbedPlan
}

export type OutputItem = SelectColumn | SelectAggregate | SelectEmbed

export interface EmbedPlan {
  relation: string
  alias?: string
  /** The key of the embedded object or array in each row. */
  name: string
  rel: Relationship
  spread: boolean
  inner: boolean
  /** `rel()`: an embed used only to filter, which is not part of the output. */
  visible: boolean
  child: ReadPlan
  lateral: string
  rowAlias: string
  junctionAlias: string
  /** Columns of a to-one embed that the parent orders by, carried alongside the embedded object. */
  hidden: Array<{ name: string; column: Column; jsonPath: JsonStep[] }>
}

export type Condition =
  | { kind: 'filter'; column: Column; jsonPath: JsonStep[]; negate: boolean; operation: Operation }
  | { kind: 'logic'; negate: boolean; operator: 'and' | 'or'; children: Condition[] }
  | { kind: 'embedNull'; embed: EmbedPlan; isNull: boolean }

export interface PlannedOrder {
  target: { kind: 'column'; column: Column; jsonPath: JsonStep[] } | { kind: 'related'; embed: EmbedPlan; name: string }
  direction?: 'asc' | 'desc'
  nulls?: 'first' | 'last'
}

export interface ReadPlan {
  table: Table
  alias: string
  /** What PostgREST's statement calls this level's table, which Postgres names in its errors (`messages_1.sum`). */
  label: string
  items: OutputItem[]
  embeds: EmbedPlan[]
  where: Condition[]
  order: PlannedOrder[]
  limit?: number
  offset?: number
}

export interface InsertPlan {
  table: Table
  columns: Column[]
  /** The rows, reduced to the inserted columns. */
  rows: Array<Record<string, unknown>>
  missingDefault: boolean
  conflict?: { columns: string[]; action: 'merge' | 'ignore' }
  /** PUT: the primary key the URL names; a payload row with another key is not written. */
  match?: Array<{ column: Column; value: string }>
}

export interface UpdatePlan {
  table: Table
  columns: Column[]
  values: Record<string, unknown>
  /** Columns named in `columns=` but absent from the body, set to their default under missing=default. */
  defaults: Column[]
}

export interface CallPlan {
  routine: Routine
  /** The arguments given, by parameter; `single`: the whole payload, for the one unnamed parameter. */
  args: Array<{ param: RoutineParam; value: unknown }>
  single?: string | Buffer
  /** What the function returns, seen as a relation (composite rows, or one column named after the function). */
  result?: Table
}

/** A function call's input: the arguments by name (a POST's JSON object, a GET's query parameters) and the payload. */
export interface CallInput {
  args: Record<string, unknown> | undefined
  /** The payload as sent (the bytes themselves for binary), which a function with one unnamed parameter receives whole. */
  raw: string | Buffer
  /** A POST's payload: JSON, or raw text, XML or binary for a function with one unnamed parameter of that type. */
  payload?: 'json' | 'text' | 'xml' | 'bytea'
}

const MAX_OUTPUT_COLUMNS = 1000
const MAX_EMBEDS = 100

/** The key PostgREST gives a selected field: its alias, the last key of its JSON path, or its name. */
function outputName(field: Field): string {
  const last = field.jsonPath[field.jsonPath.length - 1]
  if (!last) return field.name
  if (last.kind === 'key') return last.value
  const lastKey = [...field.jsonPath].reverse().find((step) => step.kind === 'key')
  return lastKey?.value ?? field.name
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** What a function returns, seen as a relation; rows of an exposed relation keep its computed columns. */
function pseudoTable(schema: string, name: string, columns: Column[], computedColumns = new Map<string, Column>()): Table {
  return {
    schema,
    name,
    kind: 'table',
    columns,
    columnsByName: new Map(columns.map((column) => [column.name, column])),
    computedColumns,
    primaryKey: [],
    insertable: false,
    updatable: false,
    deletable: false,
  }
}

export class Planner {
  private counter = 0
  private embedCount = 0

  constructor(private readonly schema: SchemaCache) {}

  table(name: string): Table {
    const table = this.schema.tables.get(name)
    if (!table) throw errors.tableNotFound(this.schema.name, name, closest(name, [...this.schema.tables.keys()]))
    return table
  }

  /** The read part of any request: select tree, filters, logic trees, order and ranges at every level. */
  read(table: Table, params: QueryParams): ReadPlan {
    const root = this.node(table, params.select, 0, table.name)
    for (const { path, filter } of params.filters) {
      const node = this.find(root, path)
      node.where.push(this.filterCondition(node, filter))
    }
    for (const { path, tree } of params.logic) {
      const node = this.find(root, path)
      node.where.push(this.logicCondition(node, tree))
    }
    for (const { path, terms } of params.order) {
      const node = this.find(root, path)
      node.order = terms.map((term) => this.orderTerm(node, term))
    }
    for (const range of params.ranges) {
      const node = this.find(root, range.path)
      if (range.limit !== undefined) node.limit = range.limit
      if (range.offset !== undefined) node.offset = range.offset
    }
    return root
  }

  private node(table: Table, items: SelectItem[], depth: number, label: string): ReadPlan {
    const plan: ReadPlan = { table, alias: `t${this.counter++}`, label, items: [], embeds: [], where: [], order: [] }
    // PostgREST joins each embed under the alias `<origin>_<name or alias>_<depth>`; two embeds with the same one
    // make Postgres refuse the statement.
    const joinAliases = new Set<string>()
    for (const item of items) {
      if (item.type === 'star') {
        for (const column of table.columns) plan.items.push({ kind: 'column', column, jsonPath: [], name: column.name })
      } else if (item.type === 'field') {
        // A bare `count` that is not a column is the count() aggregate (PostgREST's "case of count").
        const bareCount = item.field.name === 'count' && item.field.jsonPath.length === 0 && !table.columnsByName.has('count')
        if (item.aggregate || bareCount) {
          if (!this.schema.aggregatesEnabled) throw errors.aggregatesNotAllowed()
          plan.items.push(this.aggregate(plan, item, bareCount))
        } else {
          const column = this.column(plan, item.field.name)
          const cast = item.cast === undefined ? undefined : this.castType(item.cast)
          plan.items.push({ kind: 'column', column, jsonPath: item.field.jsonPath, ...(cast ? { cast } : {}), name: item.alias ?? outputName(item.field) })
        }
      } else {
        if (++this.embedCount > MAX_EMBEDS) throw pgrstError(400, 'PGRST100', `At most ${MAX_EMBEDS} embedded resources per request`)
        const rel = findRelationship(this.schema, table.name, item.relation, item.hint)
        const joinAlias = `${rel.table}_${item.alias ?? item.relation}_${depth + 1}`
        if (joinAliases.has(joinAlias)) throw errors.duplicateAlias(joinAlias)
        joinAliases.add(joinAlias)
        // A many-to-many embed joins its junction without aliasing the target table.
        const childLabel = rel.junction ? rel.foreignTable : `${rel.foreignTable}_${depth + 1}`
        const child = this.node(this.table(rel.foreignTable), item.children, depth + 1, childLabel)
        // A to-one spread hoists its aggregates to this level, a to-one or to-many embed computes them over its own
        // rows; a to-many spread with aggregates is not done here.
        if (hoistsAggregates(child) && item.spread && !rel.toOne) {
          throw errors.notImplemented('Aggregate functions inside a to-many embedded resource that is spread')
        }
        const n = this.counter++
        const embed: EmbedPlan = {
          relation: item.relation,
          ...(item.alias === undefined ? {} : { alias: item.alias }),
          name: item.alias ?? item.relation,
          rel,
          spread: item.spread,
          inner: item.joinType === 'inner',
          visible: !isEmptyEmbed(child),
          child,
          lateral: `j${n}`,
          rowAlias: `s${n}`,
          junctionAlias: `x${n}`,
          hidden: [],
        }
        plan.embeds.push(embed)
        if (embed.visible || embed.spread) plan.items.push({ kind: 'embed', embed })
      }
      if (plan.items.length > MAX_OUTPUT_COLUMNS) throw pgrstError(400, 'PGRST100', `At most ${MAX_OUTPUT_COLUMNS} selected columns per resource`)
    }
    return plan
  }

  private aggregate(plan: ReadPlan, item: Extract<SelectItem, { type: 'field' }>, bareCount: boolean): SelectAggregate {
    const fn = item.aggregate ?? 'count'
    const ofRows = bareCount || item.field.name === '*'
    const valueCast = item.cast === undefined ? undefined : this.castType(item.cast)
    const resultCast = item.aggregateCast === undefined ? undefined : this.castType(item.aggregateCast)
    return {
      kind: 'aggregate',
      fn,
      ...(ofRows ? {} : { value: { column: this.column(plan, item.field.name), jsonPath: item.field.jsonPath, ...(valueCast ? { cast: valueCast } : {}) } }),
      ...(resultCast ? { cast: resultCast } : {}),
      name: item.alias ?? fn,
    }
  }

  private column(plan: ReadPlan, name: string): Column {
    const column = plan.table.columnsByName.get(name) ?? plan.table.computedColumns.get(name)
    if (!column) throw errors.undefinedColumn(plan.label, name)
    return column
  }

  private castType(name: string): string {
    const sql = this.schema.castTypes.get(name.toLowerCase().replace(/\s+/g, ' '))
    if (!sql) throw errors.undefinedType(name)
    return sql
  }

  private embedNamed(node: ReadPlan, name: string): EmbedPlan | undefined {
    return node.embeds.find((embed) => embed.alias === name) ?? node.embeds.find((embed) => embed.relation === name)
  }

  private find(root: ReadPlan, path: string[]): ReadPlan {
    let node = root
    for (const name of path) {
      const embed = this.embedNamed(node, name)
      if (!embed) throw errors.notEmbedded(name)
      node = embed.child
    }
    return node
  }

  private filterCondition(node: ReadPlan, filter: Filter): Condition {
    const embed = filter.field.jsonPath.length === 0 ? this.embedNamed(node, filter.field.name) : undefined
    const { operation } = filter
    if (embed && !embed.spread) {
      const nullCheck = operation.op === 'is' && (operation.value === 'null' || operation.value === 'not_null')
      if (nullCheck) return { kind: 'embedNull', embed, isNull: (operation.value === 'null') !== filter.negate }
      if (!node.table.columnsByName.has(filter.field.name)) throw errors.unacceptableFilter(filter.field.name)
    }
    const column = this.column(node, filter.field.name)
    return { kind: 'filter', column, jsonPath: filter.field.jsonPath, negate: filter.negate, operation }
  }

  private logicCondition(node: ReadPlan, tree: LogicTree): Condition {
    if (tree.type === 'filter') return this.filterCondition(node, tree.filter)
    return { kind: 'logic', negate: tree.negate, operator: tree.operator, children: tree.children.map((child) => this.logicCondition(node, child)) }
  }

  private orderTerm(node: ReadPlan, term: OrderTerm): PlannedOrder {
    const direction = term.direction ? { direction: term.direction } : {}
    const nulls = term.nulls ? { nulls: term.nulls } : {}
    if (term.relation === undefined) {
      return { target: { kind: 'column', column: this.column(node, term.field.name), jsonPath: term.field.jsonPath }, ...direction, ...nulls }
    }
    const embed = this.embedNamed(node, term.relation)
    if (!embed) throw errors.notEmbedded(term.relation)
    if (!embed.rel.toOne) throw errors.relatedOrderNotToOne(node.table.name, term.relation)
    if (!embed.spread && hoistsAggregates(embed.child)) {
      throw errors.notImplemented('Ordering by a column of a to-one embedded resource with aggregate functions')
    }
    const name = `pgrst_o${this.counter++}`
    embed.hidden.push({ name, column: this.column(embed.child, term.field.name), jsonPath: term.field.jsonPath })
    return { target: { kind: 'related', embed, name }, ...direction, ...nulls }
  }

  insert(table: Table, body: unknown, params: QueryParams, prefs: Preferences): InsertPlan {
    const rows = Array.isArray(body) ? body : [body]
    if (!rows.every(isPlainObject)) throw errors.invalidBody('All object keys must match', 'The payload must be a JSON object or an array of JSON objects')
    let names = params.columns
    if (!names) {
      const first = Object.keys(rows[0] ?? {})
      const same = rows.every((row) => {
        const keys = Object.keys(row)
        return keys.length === first.length && keys.every((key) => first.includes(key))
      })
      if (!same) throw errors.invalidBody('All object keys must match')
      names = first
    }
    const columns = [...new Set(names)].map((name) => {
      const column = table.columnsByName.get(name)
      if (!column) throw errors.columnNotFound(table.name, name)
      return column
    })
    const plan: InsertPlan = {
      table,
      columns,
      rows: rows.map((row) => project(row, columns, prefs.missing === 'default')),
      missingDefault: prefs.missing === 'default',
    }
    if (prefs.resolution) {
      const conflictColumns = params.onConflict ?? table.primaryKey
      for (const name of conflictColumns) if (!table.columnsByName.has(name)) throw errors.columnNotFound(table.name, name)
      if (conflictColumns.length > 0) plan.conflict = { columns: conflictColumns, action: prefs.resolution === 'merge-duplicates' ? 'merge' : 'ignore' }
    }
    return plan
  }

  /**
   * PUT, PostgREST's single-row upsert: the query string names the row by one eq filter on each primary key column
   * and nothing else, and the payload's first row is inserted, or replaces the row with that key.
   */
  put(table: Table, body: unknown, params: QueryParams): InsertPlan {
    if (params.ranges.some((range) => range.path.length === 0)) throw errors.putRange()
    const keys = new Map<string, string>()
    for (const { path, filter } of params.filters) {
      if (path.length > 0) continue
      const { operation } = filter
      const plainEq = operation.op === 'eq' && !operation.quantifier && !filter.negate && filter.field.jsonPath.length === 0
      if (!plainEq || keys.has(filter.field.name)) throw errors.putFilters()
      keys.set(filter.field.name, operation.value)
    }
    const primaryKey = table.primaryKey
    const onlyKeys = keys.size === primaryKey.length && primaryKey.every((name) => keys.has(name))
    if (primaryKey.length === 0 || !onlyKeys || params.logic.some((logic) => logic.path.length === 0)) throw errors.putFilters()
    const rows = Array.isArray(body) ? body.slice(0, 1) : [body]
    const plan = this.insert(table, rows, { ...params, columns: undefined, onConflict: undefined }, { resolution: 'merge-duplicates' })
    // A row without its key cannot be the one the URL names.
    if (rows.length > 0 && !primaryKey.every((name) => plan.columns.some((column) => column.name === name))) throw errors.putMismatch()
    plan.match = primaryKey.map((name) => ({ column: table.columnsByName.get(name)!, value: keys.get(name)! }))
    return plan
  }

  update(table: Table, body: unknown, params: QueryParams, prefs: Preferences): UpdatePlan {
    if (!isPlainObject(body)) throw errors.invalidBody('Empty or invalid json', 'The payload of an update must be a JSON object')
    const names = params.columns ?? Object.keys(body)
    const columns = [...new Set(names)].map((name) => {
      const column = table.columnsByName.get(name)
      if (!column) throw errors.columnNotFound(table.name, name)
      return column
    })
    const present = columns.filter((column) => Object.hasOwn(body, column.name))
    const defaults = prefs.missing === 'default' ? columns.filter((column) => !Object.hasOwn(body, column.name)) : []
    const missingAsNull = prefs.missing !== 'default' && params.columns !== undefined
    return {
      table,
      columns: missingAsNull ? columns : present,
      values: project(body, missingAsNull ? columns : present, false),
      defaults,
    }
  }

  /**
   * Chooses the function by name and argument names, as PostgREST does: every argument must be a parameter and
   * every parameter without a default must be given (an unnamed parameter is the key ""). A POST whose arguments
   * match no function may go to one whose single unnamed parameter takes the payload's type: json or jsonb for
   * JSON, text, xml or bytea for a raw payload. A function with one unnamed parameter receives the payload whole.
   */
  call(name: string, input: CallInput): CallPlan {
    const { args, payload } = input
    const keys = args ? Object.keys(args).sort() : []
    const candidates = this.schema.routines.get(name) ?? []
    const named = args
      ? candidates.filter((routine) => {
          const names = routine.params.map((param) => param.name)
          // A raw payload is an argument: it never goes to a function without parameters.
          if (routine.params.length === 0) return keys.length === 0 && (payload === undefined || payload === 'json')
          return keys.every((key) => names.includes(key)) && routine.params.every((param) => !param.required || keys.includes(param.name))
        })
      : []
    const takesPayload = (type: string) => (payload === 'json' ? ['json', 'jsonb'].includes(type) : payload === type)
    const singleUnnamed = candidates.filter((routine) => routine.params.length === 1 && routine.params[0]!.name === '' && takesPayload(routine.params[0]!.type))
    const chosen = named.length > 0 ? named : singleUnnamed
    if (chosen.length > 1) throw ambiguousRoutine(chosen)
    const routine = chosen[0]
    if (!routine) {
      if (!args && candidates.length > 0) throw errors.invalidBody('Empty or invalid json', 'The arguments of a function call must be a JSON object')
      throw this.noRoutine(name, keys, payload !== undefined, candidates)
    }
    const plan: CallPlan = { routine, args: [] }
    if (routine.params.length === 1 && routine.params[0]!.name === '') plan.single = input.raw
    else for (const key of keys) plan.args.push({ param: routine.params.find((param) => param.name === key)!, value: args![key] })

    if (routine.returns.kind === 'composite') {
      const table = routine.returns.table === undefined ? undefined : this.schema.tables.get(routine.returns.table)
      plan.result = pseudoTable(routine.schema, routine.returns.table ?? routine.name, routine.returns.columns, table?.computedColumns)
    } else if (routine.returns.kind === 'scalar' && routine.setOf) {
      plan.result = pseudoTable(routine.schema, routine.name, [
        { name: routine.name, type: routine.returns.type, typeSql: '', typeOid: 0, nullable: true, hasDefault: false, generated: false },
      ])
    }
    return plan
  }

  private noRoutine(name: string, keys: string[], isPost: boolean, overloads: Routine[]) {
    const signature = keys.length === 0 ? ' without parameters' : `(${keys.join(', ')})`
    const searched = keys.length === 0 ? ' without parameters' : ` with parameter${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`
    let hint: string | null = null
    if (overloads.length === 0) {
      const other = closest(name, [...this.schema.routines.keys()])
      if (other) hint = `Perhaps you meant to call the function ${this.schema.name}.${other}`
    } else {
      const lists = overloads.map((routine) => `(${routine.params.map((param) => param.name).sort().join(', ')})`)
      const best = closest(`(${keys.join(', ')})`, lists)
      if (best) hint = `Perhaps you meant to call the function ${this.schema.name}.${name}${best}`
    }
    return pgrstError(
      404,
      'PGRST202',
      `Could not find the function ${this.schema.name}.${name}${signature} in the schema cache`,
      `Searched for the function ${this.schema.name}.${name}${searched}${isPost ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`,
      hint,
    )
  }
}

function ambiguousRoutine(routines: Routine[]) {
  const list = routines.map((routine) => `${routine.schema}.${routine.name}(${routine.params.map((param) => `${param.name} => ${param.type}`).join(', ')})`)
  return pgrstError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${list.join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  )
}

/** Whether a level computes aggregates: its own, or those a to-one spread embed lifts into it. */
export function hoistsAggregates(plan: ReadPlan): boolean {
  return plan.items.some((item) => item.kind === 'aggregate' || (item.kind === 'embed' && item.embed.spread && item.embed.rel.toOne && hoistsAggregates(item.embed.child)))
}

function isEmptyEmbed(plan: ReadPlan): boolean {
  return !plan.items.some((item) => item.kind !== 'embed') && plan.embeds.every((embed) => isEmptyEmbed(embed.child))
}

/** Keeps only the given columns; a missing one is null, or left out under missing=default. */
function project(row: Record<string, unknown>, columns: Column[], keepMissingOut: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const column of columns) {
    if (Object.hasOwn(row, column.name)) out[column.name] = row[column.name]
    else if (!keepMissingOut) out[column.name] = null
  }
  return out
}
