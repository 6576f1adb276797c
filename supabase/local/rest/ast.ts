// The request as PostgREST's grammar describes it, before anything is checked against the schema.

type JsonArrow = '->' | '->>'

export interface JsonStep {
  arrow: JsonArrow
  /** An array index (`->0`, `->-1`) or an object key. */
  kind: 'index' | 'key'
  value: string
}

export interface Field {
  name: string
  jsonPath: JsonStep[]
}

export type AggregateFunction = 'count' | 'sum' | 'avg' | 'max' | 'min'

export type JoinType = 'inner' | 'left'

export type SelectItem =
  | { type: 'star' }
  | {
      type: 'field'
      field: Field
      alias?: string
      cast?: string
      aggregate?: AggregateFunction
      aggregateCast?: string
    }
  | {
      type: 'embed'
      relation: string
      alias?: string
      hint?: string
      joinType?: JoinType
      spread: boolean
      children: SelectItem[]
    }

export type QuantifiableOperator = 'eq' | 'gte' | 'gt' | 'lte' | 'lt' | 'like' | 'ilike' | 'match' | 'imatch'
export type SimpleOperator = 'neq' | 'cs' | 'cd' | 'ov' | 'sl' | 'sr' | 'nxr' | 'nxl' | 'adj'
export type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts'
export type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown'

export type Operation =
  | { op: QuantifiableOperator; quantifier?: 'any' | 'all'; value: string }
  | { op: SimpleOperator; value: string }
  | { op: 'in'; values: string[] }
  | { op: 'is'; value: IsValue }
  | { op: 'isdistinct'; value: string }
  | { op: FtsOperator; config?: string; value: string }

export interface Filter {
  field: Field
  negate: boolean
  operation: Operation
}

export type LogicTree =
  | { type: 'filter'; filter: Filter }
  | { type: 'expr'; negate: boolean; operator: 'and' | 'or'; children: LogicTree[] }

export interface OrderTerm {
  /** Set for `relation(column)`: ordering by a column of an embedded to-one resource. */
  relation?: string
  field: Field
  direction?: 'asc' | 'desc'
  nulls?: 'first' | 'last'
}

/** Where in the select tree a parameter applies: [] is the top level, ['a', 'b'] the embed b inside a. */
export type EmbedPath = string[]

export interface QueryParams {
  select: SelectItem[]
  filters: Array<{ path: EmbedPath; filter: Filter }>
  logic: Array<{ path: EmbedPath; tree: LogicTree }>
  order: Array<{ path: EmbedPath; terms: OrderTerm[] }>
  ranges: Array<{ path: EmbedPath; limit?: number; offset?: number }>
  columns?: string[]
  onConflict?: string[]
  /** GET/HEAD on /rpc: the parameters without an operator are the function's arguments. */
  rpcArgs: Map<string, string[]>
}

type CountMethod = 'exact' | 'planned' | 'estimated'

export interface Preferences {
  return?: 'representation' | 'minimal' | 'headers-only'
  count?: CountMethod
  resolution?: 'merge-duplicates' | 'ignore-duplicates'
  missing?: 'default' | 'null'
  handling?: 'strict' | 'lenient'
  tx?: 'commit' | 'rollback'
  maxAffected?: number
  timezone?: string
}

export type MediaType = 'json' | 'object' | 'csv' | 'openapi'

export interface Accept {
  /** The representation asked for; with `plan`, the one whose statement is explained. */
  media: MediaType
  stripNulls: boolean
  /** `application/vnd.pgrst.plan`: EXPLAIN the request's statement, in this format with these options, instead. */
  plan?: { format: 'json' | 'text'; options: PlanOption[] }
}

export type PlanOption = 'analyze' | 'verbose' | 'settings' | 'buffers' | 'wal'
