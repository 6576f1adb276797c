import type { Database } from '../database'
import { quoteIdent } from './identifiers'

// The schema cache: what PostgREST introspects at start (src/PostgREST/SchemaCache.hs), one per exposed schema.
// Every identifier that reaches SQL comes from here, never from the request.

export interface Column {
  name: string
  /** Postgres' own spelling, for messages and the OpenAPI description. */
  type: string
  /** The type as SQL, schema-qualified and quoted (`"pg_catalog"."int4"`, `"public"."user_role"[]`). */
  typeSql: string
  typeOid: number
  nullable: boolean
  hasDefault: boolean
  generated: boolean
  /**
   * The default as PostgREST's schema cache has it, schema-qualified: the column's or its domain's default,
   * `nextval(…)` of an identity column's sequence. Evaluated once per row under Prefer: missing=default.
   */
  defaultSql?: string
  /** A computed column: a function of the row, `fn(row)`, which PostgREST selects, filters and orders like a column. */
  computed?: RowFunction
}

/**
 * A function taking one row of a relation: a computed column (it returns a value) or a computed relationship (it
 * returns rows of another relation). It is called with the row rebuilt from the relation's columns, so that the
 * call means the same whether the row comes from the table, a function's result or a mutation's RETURNING.
 */
export interface RowFunction {
  schema: string
  function: string
  /** The parameter's type as SQL: the relation's row type. */
  rowType: string
  /** The relation's columns, in order, which make up its row. */
  rowColumns: string[]
  /** Whether it returns a set: a function returning one composite gives a row of nulls when it finds nothing. */
  returnsSet: boolean
}

export interface Table {
  schema: string
  name: string
  kind: 'table' | 'view' | 'materialized view' | 'foreign table'
  columns: Column[]
  columnsByName: Map<string, Column>
  /** Computed columns by name: selectable, filterable and orderable, never part of `*` nor writable. */
  computedColumns: Map<string, Column>
  primaryKey: string[]
  insertable: boolean
  updatable: boolean
  deletable: boolean
}

export type Cardinality = 'm2o' | 'o2m' | 'o2o' | 'm2m'

export interface Junction {
  table: string
  constraint1: string
  constraint2: string
  /** [origin column, junction column] */
  sourceColumns: Array<[string, string]>
  /** [target column, junction column] */
  targetColumns: Array<[string, string]>
}

export interface Relationship {
  table: string
  foreignTable: string
  isSelf: boolean
  cardinality: Cardinality
  constraint: string
  /** [origin column, target column]; empty for many-to-many. */
  columns: Array<[string, string]>
  junction?: Junction
  /** A computed relationship: the function of the origin's row that returns the target's rows. */
  computed?: RowFunction
  toOne: boolean
}

export interface RoutineParam {
  name: string
  typeSql: string
  /** Postgres' name for the type (`integer`, `character varying`), as PostgREST writes it in messages. */
  type: string
  required: boolean
  variadic: boolean
}

export interface Routine {
  schema: string
  name: string
  params: RoutineParam[]
  setOf: boolean
  returns:
    | { kind: 'void' }
    | { kind: 'scalar'; type: string }
    | { kind: 'composite'; columns: Column[]; table?: string }
  volatility: 'immutable' | 'stable' | 'volatile'
  /** The function's own `set statement_timeout`, which PostgREST applies to the call's transaction. */
  statementTimeout?: string
}

export interface SchemaCache {
  /** The exposed schema this cache describes. */
  name: string
  tables: Map<string, Table>
  /** Relationships by origin table name. */
  relationships: Map<string, Relationship[]>
  routines: Map<string, Routine[]>
  /** Type names a cast (`col::type`) may use, lower-cased, to their SQL. */
  castTypes: Map<string, string>
  /** PostgREST's db-aggregates-enabled, off unless the database turns it on for the authenticator role. */
  aggregatesEnabled: boolean
}

interface TypeRow {
  oid: string
  name: string
  schema: string
  elem: string
  category: string
  kind: string
  relid: string
}

// The SQL standard's type names that are not pg_type names.
const TYPE_ALIASES: Record<string, string> = {
  int: 'int4',
  integer: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  real: 'float4',
  float: 'float8',
  'double precision': 'float8',
  decimal: 'numeric',
  boolean: 'bool',
  'character varying': 'varchar',
  character: 'bpchar',
  char: 'bpchar',
  'timestamp without time zone': 'timestamp',
  'timestamp with time zone': 'timestamptz',
  'time without time zone': 'time',
  'time with time zone': 'timetz',
  'bit varying': 'varbit',
}

const RELATION_KINDS: Record<string, Table['kind']> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized view',
  f: 'foreign table',
}

/** Reads tables, columns, keys, relationships and functions of an exposed schema. Runs as the database owner. */
export async function loadSchemaCache(db: Database, schemaName: string): Promise<SchemaCache> {
  const types = new Map<string, TypeRow>()
  for (const row of (
    await db.query<TypeRow>(
      `select t.oid::text as oid, t.typname as name, n.nspname as schema, t.typelem::text as elem,
              t.typcategory::text as category, t.typtype::text as kind, t.typrelid::text as relid
         from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace`,
    )
  ).rows) {
    types.set(row.oid, row)
  }
  const typeSql = (oid: string): string => {
    const type = types.get(oid)
    if (!type) return '"pg_catalog"."text"'
    if (type.category === 'A' && type.elem !== '0') return `${typeSql(type.elem)}[]`
    return `${quoteIdent(type.schema)}.${quoteIdent(type.name)}`
  }

  const castTypes = new Map<string, string>()
  for (const schema of ['pg_catalog', schemaName, 'extensions']) {
    for (const type of types.values()) {
      if (type.schema !== schema || type.category === 'A' || type.kind === 'p') continue
      const key = type.name.toLowerCase()
      if (!castTypes.has(key)) castTypes.set(key, typeSql(type.oid))
    }
  }
  for (const [alias, name] of Object.entries(TYPE_ALIASES)) {
    const sql = castTypes.get(name)
    if (sql) castTypes.set(alias, sql)
  }

  const { rows: relationRows } = await db.query<{
    oid: string
    name: string
    kind: string
    insertable: boolean
    updatable: boolean
    deletable: boolean
  }>(
    `select c.oid::text as oid, c.relname as name, c.relkind::text as kind,
            c.relkind in ('r', 'p') or (pg_catalog.pg_relation_is_updatable(c.oid, false) & 8) = 8 as insertable,
            c.relkind in ('r', 'p') or (pg_catalog.pg_relation_is_updatable(c.oid, false) & 4) = 4 as updatable,
            c.relkind in ('r', 'p') or (pg_catalog.pg_relation_is_updatable(c.oid, false) & 16) = 16 as deletable
       from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    [schemaName],
  )

  const { rows: routineRows } = await db.query<{
    name: string
    rettype: string
    retset: boolean
    volatility: string
    ndefaults: number
    rows: number
    argtypes: string[] | null
    allargtypes: string[] | null
    argmodes: string[] | null
    argnames: string[] | null
    argtypenames: string[]
    statement_timeout: string | null
  }>(
    // In creation order, the order in which PostgREST lists overloads.
    `select p.proname as name, p.prorettype::text as rettype, p.proretset as retset, p.provolatile::text as volatility,
            p.pronargdefaults::int as ndefaults, p.prorows::float8 as rows, p.proargtypes::oid[]::text[] as argtypes,
            p.proallargtypes::text[] as allargtypes, p.proargmodes::text[] as argmodes, p.proargnames as argnames,
            (select substr(c, length('statement_timeout=') + 1) from unnest(p.proconfig) as c
              where c like 'statement_timeout=%') as statement_timeout,
            array(select t::pg_catalog.regtype::text
                    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as a(t, i) order by i) as argtypenames
       from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1 and p.prokind = 'f'
      order by p.oid`,
    [schemaName],
  )

  // Columns of the exposed relations, and of composite types that exposed functions return.
  const composite = new Set<string>()
  for (const routine of routineRows) {
    const type = types.get(routine.rettype)
    if (type?.kind === 'c') composite.add(type.relid)
  }
  const relids = [...new Set([...relationRows.map((r) => r.oid), ...composite])]
  const { rows: columnRows } = await db.query<{
    relid: string
    name: string
    typeoid: string
    type: string
    nullable: boolean
    has_default: boolean
    generated: string
    identity: string
  }>(
    `select a.attrelid::text as relid, a.attname as name, a.atttypid::text as typeoid,
            pg_catalog.format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
            a.atthasdef as has_default, a.attgenerated::text as generated, a.attidentity::text as identity
       from pg_catalog.pg_attribute a
      where a.attrelid = any($1::oid[]) and a.attnum > 0 and not a.attisdropped
      order by a.attrelid, a.attnum`,
    [`{${relids.join(',')}}`],
  )
  const defaults = await columnDefaults(db, relationRows.map((r) => r.oid))
  const columnsByRelid = new Map<string, Column[]>()
  for (const row of columnRows) {
    const defaultSql = defaults.get(`${row.relid} ${row.name}`)
    const list = columnsByRelid.get(row.relid) ?? []
    list.push({
      name: row.name,
      type: row.type,
      typeSql: typeSql(row.typeoid),
      typeOid: Number(row.typeoid),
      nullable: row.nullable,
      hasDefault: row.has_default || row.identity !== '',
      generated: row.generated !== '' || row.identity === 'a',
      ...(defaultSql === undefined ? {} : { defaultSql }),
    })
    columnsByRelid.set(row.relid, list)
  }

  const tables = new Map<string, Table>()
  const tableByOid = new Map<string, Table>()
  for (const row of relationRows) {
    const columns = columnsByRelid.get(row.oid) ?? []
    const table: Table = {
      schema: schemaName,
      name: row.name,
      kind: RELATION_KINDS[row.kind] ?? 'table',
      columns,
      columnsByName: new Map(columns.map((column) => [column.name, column])),
      computedColumns: new Map(),
      primaryKey: [],
      insertable: row.insertable,
      updatable: row.updatable,
      deletable: row.deletable,
    }
    tables.set(table.name, table)
    tableByOid.set(row.oid, table)
  }

  // A view's columns that are plain references to a base table's columns carry that table's foreign keys, as in
  // PostgREST's schema cache.
  const viewSources = await viewColumnSources(db, relationRows.filter((row) => row.kind === 'v').map((row) => row.oid))
  const baseOids = new Set([...viewSources.values()].flatMap((sources) => sources.map((source) => source.relid)))
  const { rows: constraintRows } = await db.query<{
    name: string
    type: string
    relid: string
    frelid: string
    attnames: string[]
    fattnames: string[] | null
  }>(
    `select con.conname as name, con.contype::text as type, con.conrelid::text as relid, con.confrelid::text as frelid,
            array(select a.attname::text from unnest(con.conkey) with ordinality k(num, i)
                    join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.i) as attnames,
            array(select a.attname::text from unnest(con.confkey) with ordinality k(num, i)
                    join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.i) as fattnames
       from pg_catalog.pg_constraint con
      where con.conrelid = any($1::oid[]) and con.contype in ('p', 'u', 'f')
      order by con.conname`,
    [`{${[...new Set([...relationRows.map((r) => r.oid), ...baseOids])].join(',')}}`],
  )

  const uniqueKeys = new Map<string, string[][]>()
  for (const row of constraintRows) {
    if (row.type !== 'p' && row.type !== 'u') continue
    const table = tableByOid.get(row.relid)
    if (table && row.type === 'p') table.primaryKey = row.attnames
    uniqueKeys.set(row.relid, [...(uniqueKeys.get(row.relid) ?? []), row.attnames])
  }

  /** The exposed relations that show all of `columns` of the relation `relid`: itself, and views of its columns. */
  const exposedAs = (relid: string, columns: string[]): Array<{ table: Table; name: (column: string) => string }> => {
    const found: Array<{ table: Table; name: (column: string) => string }> = []
    const self = tableByOid.get(relid)
    if (self) found.push({ table: self, name: (column) => column })
    for (const [viewOid, sources] of viewSources) {
      const names = new Map<string, string>()
      // The first view column of each base column; a view that shows one twice is joined through the first.
      for (const source of sources) if (source.relid === relid && !names.has(source.column)) names.set(source.column, source.name)
      const view = tableByOid.get(viewOid)
      if (view && columns.every((column) => names.has(column))) found.push({ table: view, name: (column) => names.get(column)! })
    }
    return found
  }

  const relationships: Relationship[] = []
  for (const row of constraintRows) {
    if (row.type !== 'f' || !row.fattnames) continue
    const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((name) => b.includes(name))
    const unique = (uniqueKeys.get(row.relid) ?? []).some((key) => sameSet(key, row.attnames))
    for (const origin of exposedAs(row.relid, row.attnames)) {
      for (const target of exposedAs(row.frelid, row.fattnames)) {
        const columns = row.attnames.map((name, i): [string, string] => [origin.name(name), target.name(row.fattnames![i]!)])
        const isSelf = origin.table.name === target.table.name
        relationships.push({ table: origin.table.name, foreignTable: target.table.name, isSelf, cardinality: unique ? 'o2o' : 'm2o', constraint: row.name, columns, toOne: true })
        relationships.push({
          table: target.table.name,
          foreignTable: origin.table.name,
          isSelf,
          cardinality: unique ? 'o2o' : 'o2m',
          constraint: row.name,
          columns: columns.map(([a, b]): [string, string] => [b, a]),
          toOne: unique,
        })
      }
    }
  }
  // A table whose primary key includes two foreign keys joins their targets many-to-many.
  for (const first of relationships) {
    if (first.cardinality !== 'm2o') continue
    const junction = tables.get(first.table)!
    for (const second of relationships) {
      if (second.cardinality !== 'm2o' || second.table !== first.table || second.constraint === first.constraint) continue
      const used = [...first.columns, ...second.columns].map(([junctionColumn]) => junctionColumn)
      if (!used.every((name) => junction.primaryKey.includes(name))) continue
      relationships.push({
        table: first.foreignTable,
        foreignTable: second.foreignTable,
        isSelf: first.foreignTable === second.foreignTable,
        cardinality: 'm2m',
        constraint: '',
        columns: [],
        junction: {
          table: junction.name,
          constraint1: first.constraint,
          constraint2: second.constraint,
          sourceColumns: first.columns.map(([j, o]): [string, string] => [o, j]),
          targetColumns: second.columns.map(([j, t]): [string, string] => [t, j]),
        },
        toOne: false,
      })
    }
  }

  // Functions of one row of an exposed relation: computed columns, or computed relationships when they return rows
  // of an exposed relation (to-one unless they return a set of more than one row).
  for (const row of routineRows) {
    const inputs = row.argtypes ?? []
    const origin = inputs.length === 1 && !(row.argmodes ?? []).includes('v') ? tableByOid.get(types.get(inputs[0]!)?.relid ?? '') : undefined
    const returnType = types.get(row.rettype)
    // Pseudo-types (void, record of OUT parameters, trigger) are neither.
    if (!origin || !returnType || returnType.kind === 'p') continue
    const fn: RowFunction = { schema: schemaName, function: row.name, rowType: typeSql(inputs[0]!), rowColumns: origin.columns.map((column) => column.name), returnsSet: row.retset }
    const target = returnType.kind === 'c' ? tableByOid.get(returnType.relid) : undefined
    if (target) {
      const toOne = !row.retset || row.rows === 1
      relationships.push({
        table: origin.name,
        foreignTable: target.name,
        isSelf: false,
        cardinality: toOne ? 'm2o' : 'o2m',
        constraint: row.name,
        columns: [],
        computed: fn,
        toOne,
      })
    } else if (!row.retset && !origin.columnsByName.has(row.name)) {
      origin.computedColumns.set(row.name, {
        name: row.name,
        type: returnType.name,
        typeSql: typeSql(row.rettype),
        typeOid: Number(row.rettype),
        nullable: true,
        hasDefault: false,
        generated: true,
        computed: fn,
      })
    }
  }
  const relationshipsByTable = new Map<string, Relationship[]>()
  for (const rel of relationships) relationshipsByTable.set(rel.table, [...(relationshipsByTable.get(rel.table) ?? []), rel])

  const routines = new Map<string, Routine[]>()
  for (const row of routineRows) {
    const routine = describeRoutine(schemaName, row, types, typeSql, columnsByRelid, tableByOid)
    if (routine) routines.set(routine.name, [...(routines.get(routine.name) ?? []), routine])
  }

  return { name: schemaName, tables, relationships: relationshipsByTable, routines, castTypes, aggregatesEnabled: await aggregatesEnabled(db) }
}

interface ViewColumnSource {
  /** The view's column. */
  name: string
  /** The base relation (never a view) and its column that the view's column shows as it is. */
  relid: string
  column: string
}

/**
 * For each view, its columns that show a base table's column as it is, followed through views of views. As PostgREST
 * does, this reads the view's query tree (pg_rewrite): each output column of the top-level query names the table
 * and column it comes from (`resorigtbl`, `resorigcol`), which Postgres records even through subqueries.
 */
async function viewColumnSources(db: Database, viewOids: string[]): Promise<Map<string, ViewColumnSource[]>> {
  const raw = new Map<string, Array<{ name: string; relid: string; attnum: number }>>()
  let pending = viewOids
  // A view reads views in turn; a few levels are enough, and the bound keeps a cycle (impossible in Postgres) finite.
  for (let level = 0; level < 16 && pending.length > 0; level++) {
    const { rows } = await db.query<{ relid: string; action: string }>(
      `select r.ev_class::text as relid, r.ev_action::text as action
         from pg_catalog.pg_rewrite r join pg_catalog.pg_class c on c.oid = r.ev_class
        where r.ev_class = any($1::oid[]) and c.relkind = 'v' and r.rulename = '_RETURN'`,
      [`{${pending.join(',')}}`],
    )
    for (const row of rows) raw.set(row.relid, targetListOrigins(row.action))
    const referenced = [...new Set(rows.flatMap((row) => raw.get(row.relid)!.map((origin) => origin.relid)))].filter((relid) => !raw.has(relid))
    pending = referenced
  }
  const relids = [...new Set([...raw.values()].flatMap((origins) => origins.map((origin) => origin.relid)))]
  const { rows: attributes } = await db.query<{ relid: string; attnum: number; name: string }>(
    `select attrelid::text as relid, attnum::int as attnum, attname::text as name
       from pg_catalog.pg_attribute where attrelid = any($1::oid[]) and attnum > 0 and not attisdropped`,
    [`{${relids.join(',')}}`],
  )
  const attname = new Map(attributes.map((row) => [`${row.relid} ${row.attnum}`, row.name]))
  const resolve = (relid: string, column: string, depth: number): { relid: string; column: string } | undefined => {
    const origins = raw.get(relid)
    if (!origins) return { relid, column }
    const origin = origins.find((candidate) => candidate.name === column)
    const originColumn = origin && attname.get(`${origin.relid} ${origin.attnum}`)
    if (!origin || originColumn === undefined || depth > 16) return undefined
    return resolve(origin.relid, originColumn, depth + 1)
  }
  const sources = new Map<string, ViewColumnSource[]>()
  for (const viewOid of viewOids) {
    const resolved = (raw.get(viewOid) ?? []).flatMap((origin) => {
      const base = resolve(viewOid, origin.name, 0)
      return base ? [{ name: origin.name, ...base }] : []
    })
    sources.set(viewOid, resolved)
  }
  return sources
}

/**
 * The output columns of a rule's query tree (pg_node_tree text) that come from a table's column: the entries of the
 * top-level query's `:targetList` with a `:resorigtbl`. In that text `(…)` are lists, `{…}` nodes, and a backslash
 * escapes the next character of a token (a column name with a space or a brace).
 */
function targetListOrigins(tree: string): Array<{ name: string; relid: string; attnum: number }> {
  const tokens: Array<{ text: string; depth: number }> = []
  let depth = 0
  let current = ''
  let escaped = false
  const flush = () => {
    if (current !== '' || escaped) tokens.push({ text: current, depth })
    current = ''
    escaped = false
  }
  for (let i = 0; i < tree.length; i++) {
    const ch = tree[i]!
    if (ch === '\\') {
      current += tree[i + 1] ?? ''
      escaped = true
      i++
    } else if (ch === '(' || ch === '{') {
      flush()
      depth++
    } else if (ch === ')' || ch === '}') {
      flush()
      depth--
    } else if (/\s/.test(ch)) flush()
    else current += ch
  }
  flush()
  // `({QUERY … :targetList ({TARGETENTRY :resname … :resorigtbl … :resorigcol …} …) …})`: the query's own fields are
  // at depth 2, each entry's at depth 4.
  const start = tokens.findIndex((token) => token.depth === 2 && token.text === ':targetList')
  if (start < 0) return []
  const origins: Array<{ name: string; relid: string; attnum: number }> = []
  let entry: Record<string, string> = {}
  const finish = () => {
    if (entry.resname !== undefined && entry.resjunk !== 'true' && entry.resorigtbl !== undefined && entry.resorigtbl !== '0') {
      origins.push({ name: entry.resname, relid: entry.resorigtbl, attnum: Number(entry.resorigcol) })
    }
    entry = {}
  }
  for (let i = start + 1; i < tokens.length && tokens[i]!.depth > 2; i++) {
    const token = tokens[i]!
    if (token.depth !== 4) continue
    if (token.text === 'TARGETENTRY') finish()
    else if (token.text.startsWith(':') && tokens[i + 1]?.depth === 4) entry[token.text.slice(1)] = tokens[++i]!.text
  }
  finish()
  return origins
}

/**
 * PostgREST's in-database configuration: `alter role authenticator [in database …] set pgrst.db_aggregates_enabled`,
 * the setting for this database winning over the role's. Read at start, as PostgREST reads it.
 */
async function aggregatesEnabled(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ value: string }>(
    `select split_part(setting, '=', 2) as value
       from pg_catalog.pg_db_role_setting s, unnest(s.setconfig) as setting
      where s.setrole = (select oid from pg_catalog.pg_roles where rolname = 'authenticator')
        and s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = pg_catalog.current_database()))
        and split_part(setting, '=', 1) = 'pgrst.db_aggregates_enabled'
      order by s.setdatabase desc
      limit 1`,
  )
  return ['true', 'on', 'yes', '1'].includes(rows[0]?.value.trim().toLowerCase() ?? '')
}

/**
 * Each column's default as an expression, keyed `relid name`. Deparsed with an empty search_path, so that every
 * name in it is schema-qualified and means the same in a request, whatever that request's search_path.
 */
async function columnDefaults(db: Database, relids: string[]): Promise<Map<string, string>> {
  const rows = await db.transaction(async (tx) => {
    await tx.query(`select pg_catalog.set_config('search_path', '', true)`)
    const result = await tx.query<{ key: string; expression: string | null }>(
      `select a.attrelid::text || ' ' || a.attname as key,
              case when ad.adbin is not null then pg_catalog.pg_get_expr(ad.adbin, ad.adrelid)
                   when a.attidentity = 'd' then
                     'pg_catalog.nextval(' || pg_catalog.quote_literal(pg_catalog.pg_get_serial_sequence(a.attrelid::pg_catalog.regclass::text, a.attname)) || '::pg_catalog.regclass)'
                   else pg_catalog.pg_get_expr(t.typdefaultbin, 0)
              end as expression
         from pg_catalog.pg_attribute a
         join pg_catalog.pg_type t on t.oid = a.atttypid
         left join pg_catalog.pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
        where a.attrelid = any($1::pg_catalog.oid[]) and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''`,
      [`{${relids.join(',')}}`],
    )
    return result.rows
  })
  return new Map(rows.flatMap((row) => (row.expression === null ? [] : [[row.key, row.expression] as const])))
}

/** The types of an unnamed argument PostgREST can fill: with the JSON body, or with a raw text, XML or binary one. */
const BODY_TYPES = ['json', 'jsonb', 'text', 'xml', 'bytea']

function describeRoutine(
  schema: string,
  row: {
    name: string
    rettype: string
    retset: boolean
    volatility: string
    ndefaults: number
    argtypes: string[] | null
    allargtypes: string[] | null
    argmodes: string[] | null
    argnames: string[] | null
    argtypenames: string[]
    statement_timeout: string | null
  },
  types: Map<string, TypeRow>,
  typeSql: (oid: string) => string,
  columnsByRelid: Map<string, Column[]>,
  tableByOid: Map<string, Table>,
): Routine | undefined {
  const allTypes = row.argmodes ? (row.allargtypes ?? []) : (row.argtypes ?? [])
  const inputs: Array<{ name: string; oid: string; typeName: string; variadic: boolean }> = []
  const outputs: Array<{ name: string; oid: string }> = []
  allTypes.forEach((oid, i) => {
    const mode = row.argmodes?.[i] ?? 'i'
    const name = row.argnames?.[i] ?? ''
    if (mode === 'i' || mode === 'b' || mode === 'v') inputs.push({ name, oid, typeName: row.argtypenames[i] ?? 'unknown', variadic: mode === 'v' })
    if (mode === 'o' || mode === 'b' || mode === 't') outputs.push({ name, oid })
  })
  // PostgREST cannot name an unnamed argument, so it leaves out every function with one, except a function whose
  // single unnamed argument is the first and of a type that takes the whole body (SchemaCache.hs, "callable").
  const unnamed = inputs.filter((input) => input.name === '').length
  if (unnamed > 1 || (unnamed === 1 && !BODY_TYPES.includes(inputs[0]!.typeName))) return undefined
  const firstOptional = inputs.length - row.ndefaults
  const params = inputs.map((input, i) => ({
    name: input.name,
    typeSql: typeSql(input.oid),
    type: input.typeName,
    required: i < firstOptional,
    variadic: input.variadic,
  }))

  const returnType = types.get(row.rettype)
  let returns: Routine['returns']
  if (returnType?.schema === 'pg_catalog' && returnType.name === 'void') returns = { kind: 'void' }
  else if (returnType?.schema === 'pg_catalog' && returnType.name === 'record') {
    if (outputs.length === 0) return undefined
    returns = {
      kind: 'composite',
      columns: outputs.map((output, i) => ({
        name: output.name || `column${i + 1}`,
        type: types.get(output.oid)?.name ?? 'unknown',
        typeSql: typeSql(output.oid),
        typeOid: Number(output.oid),
        nullable: true,
        hasDefault: false,
        generated: false,
      })),
    }
  } else if (returnType?.kind === 'c') {
    const table = tableByOid.get(returnType.relid)
    returns = { kind: 'composite', columns: columnsByRelid.get(returnType.relid) ?? [], ...(table ? { table: table.name } : {}) }
  } else if (returnType?.kind === 'p' || !returnType) {
    // trigger, event_trigger and other pseudo-types cannot be called over HTTP.
    return undefined
  } else {
    returns = { kind: 'scalar', type: returnType.name }
  }

  const volatility = row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile'
  return {
    schema,
    name: row.name,
    params,
    setOf: row.retset,
    returns,
    volatility,
    ...(row.statement_timeout ? { statementTimeout: row.statement_timeout } : {}),
  }
}
