import type { Sql } from './database'

/**
 * TypeScript types for supabase-js in the shape `supabase gen types typescript` writes, generated from the
 * migrated database itself (the CLI needs Docker, which these machines lack). With them, supabase-js types
 * rows, inserts, RPC arguments and embeds (a to-one embed is an object, not an array).
 */
export async function generateTypes(db: Sql, schema = 'public'): Promise<string> {
  const enums = await db.query<{ name: string; labels: string[] }>(
    `select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as labels
       from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = $1 group by t.typname order by t.typname`,
    [schema],
  )
  const relations = await db.query<{ name: string; kind: string }>(
    `select c.relname as name, c.relkind::text as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm') order by c.relname`,
    [schema],
  )
  const columns = await db.query<Column>(
    `select c.relname as relation, a.attname as name, a.attnum as position, t.typname as type, t.typtype::text as type_kind,
            et.typname as element_type, et.typtype::text as element_kind,
            not a.attnotnull as nullable, a.atthasdef or a.attidentity <> '' as has_default,
            a.attidentity = 'a' or a.attgenerated <> '' as generated
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_type t on t.oid = a.atttypid left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
      where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`,
    [schema],
  )
  const foreignKeys = await db.query<ForeignKey>(
    `select con.conname as name, c.relname as relation, fc.relname as referenced,
            array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
            array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as referenced_columns,
            exists (select 1 from pg_index ix where ix.indrelid = con.conrelid and ix.indisunique and ix.indpred is null
                     and ix.indkey::int2[] @> con.conkey and ix.indkey::int2[] <@ con.conkey) as one_to_one
       from pg_constraint con
       join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_class fc on fc.oid = con.confrelid
      where con.contype = 'f' and n.nspname = $1
      order by c.relname, con.conname`,
    [schema],
  )
  const functions = await db.query<Fn>(
    `select p.proname as name, coalesce(p.proargnames, '{}')::text[] as arg_names, p.pronargs as arg_count,
            p.pronargdefaults as default_count, p.proretset as returns_set,
            array(select t.typname::text from unnest(p.proargtypes) with ordinality a(oid, i) join pg_type t on t.oid = a.oid order by a.i) as arg_types,
            array(select t.typtype::text from unnest(p.proargtypes) with ordinality a(oid, i) join pg_type t on t.oid = a.oid order by a.i) as arg_kinds,
            rt.typname as return_type, rt.typtype::text as return_kind, rc.relname as return_relation
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       join pg_type rt on rt.oid = p.prorettype left join pg_class rc on rc.oid = rt.typrelid
      where n.nspname = $1 and p.prokind = 'f' and rt.typname <> 'trigger'
      order by p.proname, p.pronargs`,
    [schema],
  )

  const enumNames = new Set(enums.rows.map((e) => e.name))
  const scalar = (type: string, kind: string): string => {
    if (kind === 'e' && enumNames.has(type)) return `Database["${schema}"]["Enums"]["${type}"]`
    return TS_TYPES[type] ?? 'unknown'
  }
  const columnType = (c: Column): string =>
    c.element_type ? `${scalar(c.element_type, c.element_kind ?? 'b')}[]` : scalar(c.type, c.type_kind)

  const body = (kinds: string[], isView: boolean) =>
    relations.rows
      .filter((r) => kinds.includes(r.kind))
      .map((relation) => {
        const cols = columns.rows.filter((c) => c.relation === relation.name)
        const nullable = (c: Column) => (c.nullable ? ' | null' : '')
        const row = cols.map((c) => `          ${c.name}: ${columnType(c)}${nullable(c)}`)
        const insert = cols.map((c) =>
          c.generated
            ? `          ${c.name}?: never`
            : `          ${c.name}${c.nullable || c.has_default || isView ? '?' : ''}: ${columnType(c)}${nullable(c)}`,
        )
        const update = cols.map((c) => (c.generated ? `          ${c.name}?: never` : `          ${c.name}?: ${columnType(c)}${nullable(c)}`))
        const relationships = foreignKeys.rows
          .filter((fk) => fk.relation === relation.name)
          .map(
            (fk) => `          {
            foreignKeyName: "${fk.name}"
            columns: [${fk.columns.map((c) => `"${c}"`).join(', ')}]
            isOneToOne: ${fk.one_to_one}
            referencedRelation: "${fk.referenced}"
            referencedColumns: [${fk.referenced_columns.map((c) => `"${c}"`).join(', ')}]
          }`,
          )
        return `      ${relation.name}: {
        Row: {
${row.join('\n')}
        }
        Insert: {
${insert.join('\n')}
        }
        Update: {
${update.join('\n')}
        }
        Relationships: [${relationships.length ? `\n${relationships.join(',\n')}\n        ` : ''}]
      }`
      })
      .join('\n')

  const fnBody = functions.rows
    .map((fn) => {
      const required = fn.arg_count - fn.default_count
      const args = fn.arg_names.slice(0, fn.arg_count).map((name, i) => {
        const type = scalar(fn.arg_types[i] ?? '', fn.arg_kinds[i] ?? 'b')
        return `          ${name}${i >= required ? '?' : ''}: ${type}`
      })
      let returns = fn.return_relation
        ? `Database["${schema}"]["Tables"]["${fn.return_relation}"]["Row"]`
        : fn.return_type === 'void'
          ? 'undefined'
          : scalar(fn.return_type, fn.return_kind)
      if (fn.returns_set) returns = `${returns}[]`
      return `      ${fn.name}: {
        Args: ${args.length ? `{\n${args.join('\n')}\n        }` : 'never'}
        Returns: ${returns}
      }`
    })
    .join('\n')

  const enumBody = enums.rows.map((e) => `      ${e.name}: ${e.labels.map((l) => `"${l}"`).join(' | ')}`).join('\n')
  const enumConstants = enums.rows.map((e) => `      ${e.name}: [${e.labels.map((l) => `"${l}"`).join(', ')}],`).join('\n')
  const section = (content: string) => (content ? `{\n${content}\n    }` : '{\n      [_ in never]: never\n    }')

  return `// Generated by \`npm run db:types\` from supabase/migrations. Do not edit by hand.
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  __InternalSupabase: {
    PostgrestVersion: "12"
  }
  ${schema}: {
    Tables: ${section(body(['r', 'p'], false))}
    Views: ${section(body(['v', 'm'], true))}
    Functions: ${section(fnBody)}
    Enums: ${section(enumBody)}
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type PublicSchema = Database["${schema}"]
export type Tables<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Row"]
export type TablesInsert<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Insert"]
export type TablesUpdate<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Update"]
export type Enums<T extends keyof PublicSchema["Enums"]> = PublicSchema["Enums"][T]

export const Constants = {
  ${schema}: {
    Enums: {
${enumConstants}
    },
  },
} as const
`
}

interface Column {
  relation: string
  name: string
  position: number
  type: string
  type_kind: string
  element_type: string | null
  element_kind: string | null
  nullable: boolean
  has_default: boolean
  generated: boolean
}

interface ForeignKey {
  name: string
  relation: string
  referenced: string
  columns: string[]
  referenced_columns: string[]
  one_to_one: boolean
}

interface Fn {
  name: string
  arg_names: string[]
  arg_count: number
  default_count: number
  returns_set: boolean
  arg_types: string[]
  arg_kinds: string[]
  return_type: string
  return_kind: string
  return_relation: string | null
}

const TS_TYPES: Record<string, string> = {
  bool: 'boolean',
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  numeric: 'number',
  oid: 'number',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  name: 'string',
  citext: 'string',
  uuid: 'string',
  date: 'string',
  time: 'string',
  timetz: 'string',
  timestamp: 'string',
  timestamptz: 'string',
  interval: 'string',
  inet: 'string',
  cidr: 'string',
  bytea: 'string',
  json: 'Json',
  jsonb: 'Json',
  record: 'Json',
  void: 'undefined',
}
