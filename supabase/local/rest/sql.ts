import type { JsonStep, Operation } from './ast'
import { hoistsAggregates, type CallPlan, type Condition, type EmbedPlan, type InsertPlan, type OutputItem, type PlannedOrder, type ReadPlan, type SelectAggregate, type UpdatePlan } from './planner'
import { quoteIdent, quoteLiteral } from './identifiers'
import type { Column, RowFunction, Table } from './schema'

// From a plan to one parameterised statement. Identifiers are quoted and come only from the plan (schema-cache
// names, planner-made aliases and the output keys the client asked for); every value is a bound parameter, or a
// quoted constant for a call sent in one round trip (LiteralParams). The only
// SQL text taken from elsewhere is a column's default, as the catalog deparses it (missing=default).
// Postgres produces the JSON itself (json_agg, row_to_json, to_json), so values serialise as PostgREST's do.

export function qualified(table: Table): string {
  return `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`
}

export class Params {
  readonly values: unknown[] = []
  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/**
 * Values written into the statement as constants, for a statement sent without parameters (writeAsCaller in
 * session.ts). A string constant has no type until its context gives it one, as a parameter sent without a type, so
 * the statement means the same. Only text and bytes are taken (what a function call's arguments are); `complete` says
 * whether every value was.
 */
export class LiteralParams extends Params {
  complete = true
  override add(value: unknown): string {
    const literal = typeof value === 'string' ? quoteLiteral(value) : Buffer.isBuffer(value) ? `E'\\\\x${value.toString('hex')}'` : undefined
    if (literal === undefined) this.complete = false
    return literal ?? 'null'
  }
}

function columnRef(alias: string, column: Column): string {
  if (column.computed) return rowFunctionCall(column.computed, alias)
  return `${quoteIdent(alias)}.${quoteIdent(column.name)}`
}

/** `"public"."fn"(row(…)::"public"."table")`: the function called with the row of `alias`, rebuilt from its columns. */
function rowFunctionCall(fn: RowFunction, alias: string): string {
  const row = `row(${fn.rowColumns.map((name) => `${quoteIdent(alias)}.${quoteIdent(name)}`).join(', ')})::${fn.rowType}`
  return `${quoteIdent(fn.schema)}.${quoteIdent(fn.function)}(${row})`
}

function jsonPathSql(expression: string, path: JsonStep[], p: Params): string {
  let sql = expression
  for (const step of path) sql += step.kind === 'index' ? `${step.arrow}${p.add(step.value)}::int` : `${step.arrow}${p.add(step.value)}`
  return sql
}

// ---------------------------------------------------------------- conditions

const SIMPLE_OPERATORS: Record<string, string> = {
  eq: '=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  neq: '<>',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
}

const FTS_FUNCTIONS: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
}

function operationSql(target: string, column: Column, path: JsonStep[], operation: Operation, p: Params): string {
  switch (operation.op) {
    case 'is':
      return `${target} is ${operation.value === 'not_null' ? 'not null' : operation.value}`
    case 'isdistinct':
      return `${target} is distinct from ${p.add(operation.value)}`
    case 'in':
      // `in.()` matches nothing, as `= any('{}')` does in PostgREST.
      if (operation.values.length === 1 && operation.values[0] === '') return 'false'
      return `${target} in (${operation.values.map((value) => p.add(value)).join(', ')})`
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const config = operation.config === undefined ? '' : `${p.add(operation.config)}::regconfig, `
      const document = column.type === 'tsvector' && path.length === 0 ? target : `to_tsvector(${config}${target})`
      return `${document} @@ ${FTS_FUNCTIONS[operation.op]}(${config}${p.add(operation.value)})`
    }
    default: {
      const symbol = SIMPLE_OPERATORS[operation.op]!
      // PostgREST's like patterns use * as the wildcard, since % is awkward in URLs.
      const value = operation.op === 'like' || operation.op === 'ilike' ? operation.value.replace(/\*/g, '%') : operation.value
      if ('quantifier' in operation && operation.quantifier) return `${target} ${symbol} ${operation.quantifier}(${p.add(value)})`
      return `${target} ${symbol} ${p.add(value)}`
    }
  }
}

function conditionSql(condition: Condition, alias: string, p: Params): string {
  switch (condition.kind) {
    case 'filter': {
      const target = jsonPathSql(columnRef(alias, condition.column), condition.jsonPath, p)
      const sql = operationSql(target, condition.column, condition.jsonPath, condition.operation, p)
      return condition.negate ? `not (${sql})` : `(${sql})`
    }
    case 'logic': {
      const parts = condition.children.map((child) => conditionSql(child, alias, p))
      const joined = `(${parts.join(condition.operator === 'and' ? ' and ' : ' or ')})`
      return condition.negate ? `not ${joined}` : joined
    }
    case 'embedNull':
      return `(${quoteIdent(condition.embed.lateral)}."pgrst_body" is ${condition.isNull ? '' : 'not '}null)`
  }
}

function whereSql(conditions: string[]): string {
  return conditions.length === 0 ? '' : ` where ${conditions.join(' and ')}`
}

function orderSql(plan: ReadPlan, order: PlannedOrder[], p: Params): string {
  if (order.length === 0) return ''
  const terms = order.map((term) => {
    const target =
      term.target.kind === 'column'
        ? jsonPathSql(columnRef(plan.alias, term.target.column), term.target.jsonPath, p)
        : `${quoteIdent(term.target.embed.lateral)}.${quoteIdent(term.target.name)}`
    return `${target}${term.direction ? ` ${term.direction}` : ''}${term.nulls ? ` nulls ${term.nulls}` : ''}`
  })
  return ` order by ${terms.join(', ')}`
}

function rangeSql(limit: number | undefined, offset: number | undefined, p: Params): string {
  return `${limit === undefined ? '' : ` limit ${p.add(String(limit))}::bigint`}${offset ? ` offset ${p.add(String(offset))}::bigint` : ''}`
}

// ---------------------------------------------------------------- reads

function columnSql(item: Extract<OutputItem, { kind: 'column' }>, alias: string, p: Params): string {
  const value = jsonPathSql(columnRef(alias, item.column), item.jsonPath, p)
  return item.cast ? `cast(${value} as ${item.cast})` : value
}

/** The aggregated value with its cast; none for count() of the rows. */
function aggregatedValue(item: SelectAggregate, alias: string, p: Params): string | undefined {
  if (!item.value) return undefined
  const value = jsonPathSql(columnRef(alias, item.value.column), item.value.jsonPath, p)
  return item.value.cast ? `cast(${value} as ${item.value.cast})` : value
}

function aggregateCall(item: SelectAggregate, value: string): string {
  const call = `${item.fn}(${value})`
  return item.cast ? `cast(${call} as ${item.cast})` : call
}

/** What a spread embed lends its parent: each output's name, and the aggregate the parent computes over it. */
function spreadOutputs(plan: ReadPlan): Array<{ name: string; aggregate?: SelectAggregate }> {
  return plan.items.flatMap((item) => {
    if (item.kind === 'aggregate') return [{ name: item.name, aggregate: item }]
    if (item.kind === 'column') return [{ name: item.name }]
    return item.embed.spread ? spreadOutputs(item.embed.child) : [{ name: item.embed.name }]
  })
}

/**
 * The output columns of a plan, each `expression as "name"`, marking aggregates. A level with aggregates is grouped
 * by all its other columns, so its embedded objects are jsonb there: json has no equality to group by.
 * `hoisting`: the level is a to-one spread whose parent computes its aggregates; it gives the values to aggregate.
 */
function selectEntries(plan: ReadPlan, p: Params, hoisting = false): Array<{ sql: string; aggregate: boolean }> {
  const entries: Array<{ sql: string; aggregate: boolean }> = []
  const groupable = !hoisting && hoistsAggregates(plan) ? '::jsonb' : ''
  for (const item of plan.items) {
    if (item.kind === 'column') {
      entries.push({ sql: `${columnSql(item, plan.alias, p)} as ${quoteIdent(item.name)}`, aggregate: false })
      continue
    }
    if (item.kind === 'aggregate') {
      const value = aggregatedValue(item, plan.alias, p)
      // count() of the rows becomes a count of this constant, null where the parent row has no match.
      if (hoisting) entries.push({ sql: `${value ?? '1'} as ${quoteIdent(item.name)}`, aggregate: false })
      else entries.push({ sql: `${aggregateCall(item, value ?? '*')} as ${quoteIdent(item.name)}`, aggregate: true })
      continue
    }
    const { embed } = item
    const lateral = quoteIdent(embed.lateral)
    if (!embed.spread) {
      const value = embed.rel.toOne ? `${lateral}."pgrst_body"${groupable}` : `coalesce(${lateral}."pgrst_body", '[]'::json)${groupable}`
      entries.push({ sql: `${value} as ${quoteIdent(embed.name)}`, aggregate: false })
      continue
    }
    for (const output of spreadOutputs(embed.child)) {
      const ref = `${lateral}.${quoteIdent(output.name)}`
      const as = ` as ${quoteIdent(output.name)}`
      if (!embed.rel.toOne) entries.push({ sql: `coalesce(${ref}, '[]'::json)${groupable}${as}`, aggregate: false })
      else if (output.aggregate && !hoisting) entries.push({ sql: `${aggregateCall(output.aggregate, ref)}${as}`, aggregate: true })
      else entries.push({ sql: `${ref}${as}`, aggregate: false })
    }
  }
  return entries
}

function selectList(plan: ReadPlan, p: Params, hoisting = false): string[] {
  return selectEntries(plan, p, hoisting).map((entry) => entry.sql)
}

/** `group by` the positions of every output column that is not an aggregate, when the level has aggregates. */
function selectWithGrouping(plan: ReadPlan, p: Params): { columns: string; groupBy: string } {
  const entries = selectEntries(plan, p)
  const keys = entries.flatMap((entry, i) => (entry.aggregate ? [] : [String(i + 1)]))
  const groupBy = hoistsAggregates(plan) && keys.length > 0 ? ` group by ${keys.join(', ')}` : ''
  return { columns: entries.map((entry) => entry.sql).join(', '), groupBy }
}

function outputNames(plan: ReadPlan): string[] {
  return spreadOutputs(plan).map((output) => output.name)
}

/** The child's rows, filtered by the join to its parent, its own filters, order and range. */
function embedQuery(embed: EmbedPlan, parentAlias: string, p: Params, columns: string, groupBy = ''): string {
  const child = embed.child
  const conditions: string[] = []
  let from = `${qualified(child.table)} as ${quoteIdent(child.alias)}`
  if (embed.rel.computed) {
    // A function returning one row (not a set) gives a row of nulls when it finds none, which PostgREST embeds as
    // an object of nulls; a set of no rows is null.
    from = `${rowFunctionCall(embed.rel.computed, parentAlias)} as ${quoteIdent(child.alias)}`
  } else if (embed.rel.junction) {
    const { junction } = embed.rel
    const jt = quoteIdent(embed.junctionAlias)
    const on = junction.targetColumns.map(([target, column]) => `${jt}.${quoteIdent(column)} = ${quoteIdent(child.alias)}.${quoteIdent(target)}`)
    from += ` join ${quoteIdent(child.table.schema)}.${quoteIdent(junction.table)} as ${jt} on ${on.join(' and ')}`
    for (const [origin, column] of junction.sourceColumns) conditions.push(`${jt}.${quoteIdent(column)} = ${quoteIdent(parentAlias)}.${quoteIdent(origin)}`)
  } else {
    for (const [origin, target] of embed.rel.columns) {
      conditions.push(`${quoteIdent(child.alias)}.${quoteIdent(target)} = ${quoteIdent(parentAlias)}.${quoteIdent(origin)}`)
    }
  }
  from += joinsSql(child, p, 'all')
  conditions.push(...child.where.map((condition) => conditionSql(condition, child.alias, p)))
  // A to-one embed has at most one row anyway; the limit keeps Postgres from pulling the subquery up into the
  // parent's join tree, where many embeds would make planning time explode.
  const limit = child.limit ?? (embed.rel.toOne ? 1 : undefined)
  return `select ${columns} from ${from}${whereSql(conditions)}${groupBy}${orderSql(child, child.order, p)}${rangeSql(limit, child.offset, p)}`
}

function lateralJoin(embed: EmbedPlan, parentAlias: string, p: Params): string {
  const child = embed.child
  const lateral = quoteIdent(embed.lateral)
  const row = quoteIdent(embed.rowAlias)
  const hidden = embed.hidden.map((h) => `${jsonPathSql(columnRef(child.alias, h.column), h.jsonPath, p)} as ${quoteIdent(h.name)}`)
  let body: string
  if (embed.rel.toOne && !embed.spread && hoistsAggregates(child)) {
    // Aggregates over the one related row (or none: count() is then 0), grouped by the embed's other columns.
    const { columns, groupBy } = selectWithGrouping(child, p)
    body = `select row_to_json(${row}.*) as "pgrst_body" from (${embedQuery(embed, parentAlias, p, columns, groupBy)}) as ${row}`
  } else if (embed.rel.toOne) {
    const columns = selectList(child, p, embed.spread)
    // A scalar subquery builds the object, so that a missing row gives null rather than an object of nulls.
    const select = embed.spread ? [...columns, ...hidden] : [`(select row_to_json(${row}.*) from (select ${columns.join(', ')}) as ${row}) as "pgrst_body"`, ...hidden]
    body = embedQuery(embed, parentAlias, p, select.join(', '))
  } else {
    const { columns, groupBy } = selectWithGrouping(child, p)
    const inner = embedQuery(embed, parentAlias, p, columns, groupBy)
    const spread = embed.spread ? outputNames(child).map((name) => `, json_agg(${row}.${quoteIdent(name)}) as ${quoteIdent(name)}`).join('') : ''
    body = `select json_agg(${row}.*) as "pgrst_body"${spread} from (${inner}) as ${row}`
  }
  const on = embed.inner && !embed.rel.toOne ? `${lateral}."pgrst_body" is not null` : 'true'
  return ` ${embed.inner ? 'inner' : 'left'} join lateral (${body}) as ${lateral} on ${on}`
}

/** `all`: every embed; `filtering`: only those that can remove parent rows (for counting). */
function joinsSql(plan: ReadPlan, p: Params, which: 'all' | 'filtering'): string {
  const usedByConditions = new Set<EmbedPlan>()
  const collect = (condition: Condition): void => {
    if (condition.kind === 'embedNull') usedByConditions.add(condition.embed)
    if (condition.kind === 'logic') condition.children.forEach(collect)
  }
  plan.where.forEach(collect)
  return plan.embeds
    .filter((embed) => which === 'all' || embed.inner || usedByConditions.has(embed))
    .map((embed) => lateralJoin(embed, plan.alias, p))
    .join('')
}

export type BodyFormat = 'json' | 'object' | 'csv' | 'none'

export interface ReadOptions {
  /** The FROM item of the top level, aliased as the plan's alias. */
  source: string
  /** Filters already applied elsewhere (by the mutation that produced `source`). */
  skipWhere?: boolean
  skipOrderAndRange?: boolean
  exactCount?: boolean
  body: BodyFormat
  stripNulls?: boolean
  /** For functions returning a set of scalars: the values themselves rather than objects. */
  scalarColumn?: string
}

/** One row: `total` (exact count or null), `page_total` and `body` (text) for the plan's top level. */
export function readStatement(plan: ReadPlan, p: Params, options: ReadOptions): string {
  const where = options.skipWhere ? [] : plan.where.map((condition) => conditionSql(condition, plan.alias, p))
  const { columns, groupBy } = selectWithGrouping(plan, p)
  const order = options.skipOrderAndRange ? '' : orderSql(plan, plan.order, p)
  const range = options.skipOrderAndRange ? '' : rangeSql(plan.limit, plan.offset, p)
  const inner = `select ${columns} from ${options.source}${joinsSql(plan, p, 'all')}${whereSql(where)}${groupBy}${order}${range}`
  const total = options.exactCount ? `(select count(*) from ${options.source}${joinsSql(plan, p, 'filtering')}${whereSql(where)})` : 'null::bigint'
  return `select ${total} as "total", count(*) as "page_total", ${bodySql(options)} as "body" from (${inner}) as "pgrst_t"`
}

function bodySql(options: ReadOptions): string {
  const rows = options.scalarColumn ? `"pgrst_t".${quoteIdent(options.scalarColumn)}` : `"pgrst_t".*`
  const strip = (json: string) => (options.stripNulls ? `json_strip_nulls(${json})` : json)
  switch (options.body) {
    case 'none':
      return 'null::text'
    case 'object':
      return `coalesce((${strip(`json_agg(${rows})->0`)})::text, 'null')`
    case 'csv': {
      const line = `substring(row("pgrst_t".*)::text, 2, length(row("pgrst_t".*)::text) - 2)`
      const header = `coalesce((select string_agg(k, ',') from json_object_keys(json_agg("pgrst_t".*)->0) as k), '')`
      return `${header} || E'\\n' || coalesce(string_agg(${line}, E'\\n'), '')`
    }
    case 'json':
      return `(${strip(`coalesce(json_agg(${rows}), '[]'::json)`)})::text`
  }
}

/** An estimate of the rows a read would return, from the planner (count=planned and count=estimated). */
export function explainStatement(plan: ReadPlan, p: Params, source: string): string {
  const where = plan.where.map((condition) => conditionSql(condition, plan.alias, p))
  return `explain (format json) select 1 from ${source}${joinsSql(plan, p, 'filtering')}${whereSql(where)}`
}

/** The count of rows a read would return, stopping after `cap` + 1 (count=estimated). */
export function cappedCountStatement(plan: ReadPlan, p: Params, source: string, cap: number): string {
  const where = plan.where.map((condition) => conditionSql(condition, plan.alias, p))
  return `select count(*) as "total" from (select 1 from ${source}${joinsSql(plan, p, 'filtering')}${whereSql(where)} limit ${p.add(String(cap + 1))}::bigint) as "pgrst_c"`
}

// ---------------------------------------------------------------- writes

/** The root columns a read over a mutation's RETURNING needs: selected columns and the keys of embeds. */
export function referencedColumns(plan: ReadPlan): Column[] {
  const names = new Set<string>()
  // A function of the row needs all of it.
  const add = (column: Column) => (column.computed ? column.computed.rowColumns : [column.name]).forEach((name) => names.add(name))
  for (const item of plan.items) {
    if (item.kind === 'column') add(item.column)
    if (item.kind === 'aggregate' && item.value) add(item.value.column)
  }
  for (const embed of plan.embeds) {
    const { rel } = embed
    const origin = rel.computed ? rel.computed.rowColumns : rel.junction ? rel.junction.sourceColumns.map(([o]) => o) : rel.columns.map(([o]) => o)
    for (const name of origin) names.add(name)
  }
  return plan.table.columns.filter((column) => names.has(column.name))
}

export type Returning = { kind: 'none' } | { kind: 'columns'; columns: Column[]; alias: string }

function returningSql(returning: Returning, extra: string[]): string {
  const list = returning.kind === 'columns' ? returning.columns.map((column) => `${columnRef(returning.alias, column)} as ${quoteIdent(column.name)}`) : []
  const all = [...list, ...extra]
  return ` returning ${all.length === 0 ? '1 as "pgrst_one"' : all.join(', ')}`
}

export function insertStatement(plan: InsertPlan, p: Params, returning: Returning, alias: string): string {
  const target = `${qualified(plan.table)} as ${quoteIdent(alias)}`
  const names = plan.columns.map((column) => quoteIdent(column.name))
  let source: string
  if (plan.columns.length === 0) {
    // Every column takes its default, once per row given.
    source = `select from json_array_elements(${p.add(JSON.stringify(plan.rows))}::json)`
  } else if (plan.missingDefault && plan.columns.some((column) => column.defaultSql !== undefined)) {
    // As PostgREST does it: every row is laid over an object of the columns' defaults, computed anew for each row
    // (so each row draws its identity value, even one that gives its own), then read as the table's rows.
    const defaults = plan.columns
      .filter((column) => column.defaultSql !== undefined)
      .map((column) => `${p.add(column.name)}::text, (${column.defaultSql})`)
    const rows = `(select jsonb_agg(jsonb_build_object(${defaults.join(', ')}) || "pgrst_row" order by "pgrst_n") from jsonb_array_elements(${p.add(JSON.stringify(plan.rows))}::jsonb) with ordinality as "pgrst_rows"("pgrst_row", "pgrst_n"))`
    source = `select ${names.map((name) => `"pgrst_body".${name}`).join(', ')} from jsonb_populate_recordset(null::${qualified(plan.table)}, ${rows}) as "pgrst_body"`
  } else {
    source = `select ${names.map((name) => `"pgrst_body".${name}`).join(', ')} from json_populate_recordset(null::${qualified(plan.table)}, ${p.add(JSON.stringify(plan.rows))}::json) as "pgrst_body"`
  }
  if (plan.match) source += ` where ${plan.match.map(({ column, value }) => `"pgrst_body".${quoteIdent(column.name)} = ${p.add(value)}`).join(' and ')}`
  let conflict = ''
  const extra: string[] = []
  if (plan.conflict) {
    const on = plan.conflict.columns.map(quoteIdent).join(', ')
    if (plan.conflict.action === 'ignore' || plan.columns.length === 0) conflict = ` on conflict (${on}) do nothing`
    else conflict = ` on conflict (${on}) do update set ${names.map((name) => `${name} = excluded.${name}`).join(', ')}`
    if (plan.conflict.action === 'merge') extra.push(`(${quoteIdent(alias)}.xmax = 0) as "pgrst_inserted"`)
  }
  const columns = plan.columns.length === 0 ? '' : ` (${names.join(', ')})`
  return `insert into ${target}${columns} ${source}${conflict}${returningSql(returning, extra)}`
}

/** The WHERE of an update or delete: the top-level filters, and for a limited one the rows its order and range pick. */
function mutationWhere(read: ReadPlan, p: Params): string {
  const conditions = read.where.map((condition) => conditionSql(condition, read.alias, p))
  if (read.limit === undefined && !read.offset) return whereSql(conditions)
  const order = read.order.filter((term) => term.target.kind === 'column')
  const alias = quoteIdent(read.alias)
  // The subquery reuses the alias on purpose: its conditions then refer to its own rows.
  const picked = `select ${alias}.ctid from ${qualified(read.table)} as ${alias}${whereSql(conditions)}${orderSql(read, order, p)}${rangeSql(read.limit, read.offset, p)}`
  return ` where ${alias}.ctid = any(array(${picked}))`
}

export function updateStatement(plan: UpdatePlan, read: ReadPlan, p: Params, returning: Returning): string {
  const target = `${qualified(plan.table)} as ${quoteIdent(read.alias)}`
  const sets = [
    ...plan.columns.map((column) => `${quoteIdent(column.name)} = "pgrst_body".${quoteIdent(column.name)}`),
    ...plan.defaults.map((column) => `${quoteIdent(column.name)} = default`),
  ]
  const body = `(select * from json_populate_record(null::${qualified(plan.table)}, ${p.add(JSON.stringify(plan.values))}::json)) as "pgrst_body"`
  return `update ${target} set ${sets.join(', ')} from ${body}${mutationWhere(read, p)}${returningSql(returning, [])}`
}

export function deleteStatement(read: ReadPlan, p: Params, returning: Returning): string {
  return `delete from ${qualified(read.table)} as ${quoteIdent(read.alias)}${mutationWhere(read, p)}${returningSql(returning, [])}`
}

export interface MutationOptions {
  /** Present when the client wants the rows back: the read over the mutation's RETURNING. */
  read?: { plan: ReadPlan; body: BodyFormat; stripNulls?: boolean }
  upsert?: boolean
  /** Return the primary key of the row (Location header of return=headers-only). */
  primaryKey?: Column[]
}

/** Wraps a mutation: `page_total` rows changed, `inserted` (upserts), `body`, and `location` (primary key values). */
export function mutationStatement(mutation: string, p: Params, options: MutationOptions): string {
  const source = `"pgrst_source"`
  const inserted = options.upsert ? `(select count(*) from ${source} where "pgrst_inserted")` : 'null::bigint'
  const location = options.primaryKey?.length
    ? `(select json_agg(json_build_array(${options.primaryKey.map((column) => `${source}.${quoteIdent(column.name)}::text`).join(', ')})) from ${source})`
    : 'null::json'
  if (!options.read) {
    return `with ${source} as (${mutation}) select (select count(*) from ${source}) as "page_total", ${inserted} as "inserted", null::text as "body", ${location}::text as "location"`
  }
  const read = readStatement(options.read.plan, p, {
    source: `${source} as ${quoteIdent(options.read.plan.alias)}`,
    skipWhere: true,
    skipOrderAndRange: true,
    body: options.read.body,
    ...(options.read.stripNulls ? { stripNulls: true } : {}),
  })
  return `with ${source} as (${mutation}) select (select count(*) from ${source}) as "page_total", ${inserted} as "inserted", "pgrst_read"."body", ${location}::text as "location" from (${read}) as "pgrst_read"`
}

// ---------------------------------------------------------------- functions

/** `"public"."fn"(name := "pgrst_args"."name", …)` with its FROM items (the arguments as one JSON record). */
function callSql(plan: CallPlan, p: Params): { call: string; from: string } {
  const fn = `${quoteIdent(plan.routine.schema)}.${quoteIdent(plan.routine.name)}`
  if (plan.single !== undefined) return { call: `${fn}(${p.add(plan.single)}::${plan.routine.params[0]!.typeSql})`, from: '' }
  if (plan.args.length === 0) return { call: `${fn}()`, from: '' }
  const record: Record<string, unknown> = {}
  for (const { param, value } of plan.args) record[param.name] = value
  const definitions = plan.args.map(({ param }) => `${quoteIdent(param.name)} ${param.typeSql}`)
  const args = plan.args.map(({ param }) => `${param.variadic ? 'variadic ' : ''}${quoteIdent(param.name)} := "pgrst_args".${quoteIdent(param.name)}`)
  return {
    call: `${fn}(${args.join(', ')})`,
    from: `json_to_record(${p.add(JSON.stringify(record))}::json) as "pgrst_args"(${definitions.join(', ')})`,
  }
}

/** For a function returning rows: a CTE that calls it once, then the usual read over its rows. */
export function callReadStatement(plan: CallPlan, read: ReadPlan, p: Params, options: Omit<ReadOptions, 'source'>): string {
  const { call, from } = callSql(plan, p)
  const result = plan.result!
  const columnList = plan.routine.returns.kind === 'scalar' ? `(${quoteIdent(result.columns[0]!.name)})` : ''
  const items = from ? `${from}, ${call} as "pgrst_call"${columnList}` : `${call} as "pgrst_call"${columnList}`
  const cte = `with "pgrst_source" as materialized (select "pgrst_call".* from ${items})`
  return `${cte} ${readStatement(read, p, { ...options, source: `"pgrst_source" as ${quoteIdent(read.alias)}` })}`
}

/** For a function returning one scalar (or void): its value as JSON text. */
export function callScalarStatement(plan: CallPlan, p: Params): string {
  const { call, from } = callSql(plan, p)
  const value = plan.routine.returns.kind === 'void' ? `${call} as "pgrst_void"` : `to_json(${call})::text as "body"`
  return `select ${value}${from ? ` from ${from}` : ''}`
}
