import { pgrstError } from './errors'
import type { Relationship, SchemaCache } from './schema'
import { closest } from './similarity'

// Which foreign key an embed means, with PostgREST's rules (src/PostgREST/Plan.hs, findRel): the target is a
// table, a foreign-key constraint or a foreign-key column of the origin, optionally disambiguated by a hint.

export function findRelationship(schema: SchemaCache, origin: string, target: string, hint: string | undefined): Relationship {
  const candidates = schema.relationships.get(origin) ?? []
  // A computed relationship is named by its function, and takes the place of a foreign key of the same name.
  const computed = hint === undefined ? candidates.find((rel) => rel.computed?.function === target) : undefined
  if (computed) return computed
  const matches = candidates.filter((rel) => {
    if (rel.computed) return false
    const single = rel.columns.length === 1 ? rel.columns[0] : undefined
    const originColumn = (name: string) => single?.[0] === name
    const targetColumn = (name: string) => single?.[1] === name
    const constraint = (name: string) => rel.cardinality !== 'm2m' && rel.constraint === name
    const junction = (name: string) => rel.junction?.table === name
    if (rel.isSelf) {
      // One foreign key, two readings: `children:table(*)` is the one-to-many, `parent_column(*)` the many-to-one.
      if (hint === undefined) {
        return (target === rel.foreignTable && rel.cardinality === 'o2m') || (originColumn(target) && rel.cardinality === 'm2o')
      }
      return target === rel.foreignTable && rel.cardinality === 'o2m' && targetColumn(hint)
    }
    // Named by its constraint or its column, a foreign key means its own table, not the views that show it.
    const toView = schema.tables.get(rel.foreignTable)?.kind === 'view'
    if (hint === undefined) return target === rel.foreignTable || (!toView && (constraint(target) || originColumn(target)))
    return target === rel.foreignTable && (constraint(hint) || originColumn(hint) || targetColumn(hint) || junction(hint))
  })
  if (matches.length === 1) return matches[0]!
  if (matches.length === 0) throw noRelationship(schema, origin, target, hint)
  throw ambiguous(origin, target, matches)
}

function noRelationship(schema: SchemaCache, origin: string, target: string, hint: string | undefined) {
  const known = schema.relationships.get(origin)
  let suggestion: string | null = null
  if (known) {
    const child = closest(target, [...new Set(known.map((rel) => rel.foreignTable))])
    if (child && child !== target) suggestion = `Perhaps you meant '${child}' instead of '${target}'.`
  } else {
    const parent = closest(origin, [...schema.relationships.keys()])
    if (parent) suggestion = `Perhaps you meant '${parent}' instead of '${origin}'.`
  }
  return pgrstError(
    400,
    'PGRST200',
    `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
    `Searched for a foreign key relationship between '${origin}' and '${target}'${hint === undefined ? '' : ` using the hint '${hint}'`} in the schema '${schema.name}', but no matches were found.`,
    suggestion,
  )
}

const CARDINALITY_NAMES = { m2o: 'many-to-one', o2m: 'one-to-many', o2o: 'one-to-one', m2m: 'many-to-many' } as const

function ambiguous(origin: string, target: string, rels: Relationship[]) {
  const list = (names: string[]) => `(${names.join(', ')})`
  const details = rels.map((rel) => ({
    cardinality: CARDINALITY_NAMES[rel.cardinality],
    embedding: `${rel.table} with ${rel.foreignTable}`,
    relationship: rel.junction
      ? `${rel.junction.table} using ${rel.junction.constraint1}${list(rel.junction.sourceColumns.map(([, j]) => j))} and ${rel.junction.constraint2}${list(rel.junction.targetColumns.map(([, j]) => j))}`
      : `${rel.constraint} using ${rel.table}${list(rel.columns.map(([o]) => o))} and ${rel.foreignTable}${list(rel.columns.map(([, t]) => t))}`,
  }))
  const options = rels.map((rel) => `'${rel.foreignTable}!${rel.junction ? rel.junction.table : rel.constraint}'`).join(', ')
  return pgrstError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${origin}' and '${target}'`,
    details,
    `Try changing '${target}' to one of the following: ${options}. Find the desired relationship in the 'details' key.`,
  )
}
