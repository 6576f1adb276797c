import type { SchemaCache } from './schema'

// The root endpoint: a Swagger 2.0 description of what the API exposes, as PostgREST serves it (abridged).

const JSON_TYPES: Record<string, string> = {
  smallint: 'integer',
  integer: 'integer',
  bigint: 'integer',
  numeric: 'number',
  real: 'number',
  'double precision': 'number',
  boolean: 'boolean',
  json: 'object',
  jsonb: 'object',
}

function jsonType(type: string): string {
  if (type.endsWith('[]')) return 'array'
  return JSON_TYPES[type] ?? 'string'
}

export function openApiDocument(schema: SchemaCache, host: string): Record<string, unknown> {
  const paths: Record<string, unknown> = { '/': { get: { summary: 'OpenAPI description (this document)', responses: { 200: { description: 'OK' } } } } }
  const definitions: Record<string, unknown> = {}
  for (const table of [...schema.tables.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const ref = { $ref: `#/definitions/${table.name}` }
    const operations: Record<string, unknown> = { get: { responses: { 200: { description: 'OK', schema: { type: 'array', items: ref } }, 206: { description: 'Partial Content' } } } }
    if (table.insertable) operations.post = { responses: { 201: { description: 'Created' } } }
    if (table.updatable) operations.patch = { responses: { 204: { description: 'No Content' } } }
    if (table.deletable) operations.delete = { responses: { 204: { description: 'No Content' } } }
    paths[`/${table.name}`] = operations
    definitions[table.name] = {
      type: 'object',
      required: table.columns.filter((column) => !column.nullable && !column.hasDefault).map((column) => column.name),
      properties: Object.fromEntries(
        table.columns.map((column) => [
          column.name,
          {
            type: jsonType(column.type),
            format: column.type,
            ...(table.primaryKey.includes(column.name) ? { description: 'Note:\nThis is a Primary Key.<pk/>' } : {}),
          },
        ]),
      ),
    }
  }
  for (const [name, routines] of [...schema.routines.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const routine = routines[0]!
    const parameters = [
      {
        in: 'body',
        name: 'args',
        required: true,
        schema: {
          type: 'object',
          required: routine.params.filter((param) => param.required).map((param) => param.name),
          properties: Object.fromEntries(routine.params.map((param) => [param.name, { type: jsonType(param.type), format: param.type }])),
        },
      },
    ]
    paths[`/rpc/${name}`] = { post: { parameters, responses: { 200: { description: 'OK' } } } }
  }
  return {
    swagger: '2.0',
    info: { title: 'Recertif local REST API', description: 'PostgREST-compatible API over the public schema', version: '12' },
    host,
    basePath: '/rest/v1',
    schemes: ['http'],
    consumes: ['application/json', 'application/vnd.pgrst.object+json'],
    produces: ['application/json', 'application/vnd.pgrst.object+json', 'text/csv'],
    paths,
    definitions,
  }
}
