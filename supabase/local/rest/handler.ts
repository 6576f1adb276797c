import { header, readBody, send, sendJson } from '../http'
import type { ApiContext, RouteHandler } from '../context'
import { callFunction, insertRows, putRow, readRelation, updateOrDeleteRows, type RestRequest } from './actions'
import { errors, fromDatabaseError, isDatabaseError } from './errors'
import { openApiDocument } from './openapi'
import { Planner } from './planner'
import { chooseSchema, negotiate, parsePreferences, parseQueryParams } from './request'
import { CONTENT_TYPES } from './response'
import { loadSchemaCache, type SchemaCache } from './schema'
import { authenticate } from './session'
import { refuseUnboundedPatterns } from './timeouts'

// /rest/v1: PostgREST's HTTP interface. Each request is parsed (request.ts, grammar.ts), planned against the
// schema cache read at start (schema.ts, planner.ts), built into one statement (sql.ts) and run in one
// transaction as the caller (actions.ts, session.ts).

export async function createRestHandler(context: ApiContext): Promise<RouteHandler> {
  const exposed = context.config.exposedSchemas ?? ['public']
  const caches = new Map<string, SchemaCache>()
  for (const name of exposed) caches.set(name, await loadSchemaCache(context.db, name))
  let timezones: Promise<Set<string>> | undefined
  const knownTimezones = () =>
    (timezones ??= context.db.query<{ name: string }>('select name from pg_catalog.pg_timezone_names').then(({ rows }) => new Set(rows.map((row) => row.name))))

  return async (req, res, route) => {
    const body = await readBody(req)
    const method = (req.method ?? 'GET').toUpperCase()
    const reading = method === 'GET' || method === 'HEAD'
    // As in PostgREST, the token is checked before anything else about the request.
    const caller = await authenticate(req, context.config)

    const segments = route.path
      .split('/')
      .slice(1)
      .map((segment) => {
        try {
          return decodeURIComponent(segment)
        } catch {
          throw errors.invalidPath()
        }
      })
    const isRoot = segments.length === 1 && segments[0] === ''
    const isRpc = segments.length === 2 && segments[0] === 'rpc'
    if (!isRoot && !isRpc && segments.length !== 1) throw errors.invalidPath()
    if (!isRoot && segments.some((segment) => segment === '' || segment.includes('\0'))) throw errors.invalidPath()
    const profileHeader = header(req, reading ? 'accept-profile' : 'content-profile')
    const schema = caches.get(chooseSchema(profileHeader, exposed))!

    if (isRoot) {
      if (!reading) throw errors.unsupportedMethod(method)
      negotiate(header(req, 'accept'), true)
      sendJson(res, 200, method === 'HEAD' ? undefined : openApiDocument(schema, header(req, 'host') ?? 'localhost'), { 'Content-Type': CONTENT_TYPES.openapi })
      return
    }
    if (isRpc && !['GET', 'HEAD', 'POST'].includes(method)) throw errors.invalidRpcMethod(method)
    if (!isRpc && !['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) throw errors.unsupportedMethod(method)

    const prefs = parsePreferences([req.headers.prefer ?? []].flat().join(','))
    if (prefs.timezone !== undefined && !(await knownTimezones()).has(prefs.timezone)) {
      if (prefs.handling === 'strict') throw errors.invalidPreferences([`timezone=${prefs.timezone}`])
      delete prefs.timezone
    }
    const params = parseQueryParams(route.url.search, isRpc && reading)
    if (context.db.kind === 'pglite') refuseUnboundedPatterns(params)
    const request: RestRequest = {
      req,
      path: route.path,
      method,
      caller,
      accept: negotiate(header(req, 'accept'), false, context.config.planEnabled ?? false),
      prefs,
      params,
      body,
      planner: new Planner(schema),
      schema: schema.name,
      db: context.db,
      maxRows: context.config.maxRows,
    }

    try {
      const name = segments[segments.length - 1]!
      const response = isRpc
        ? await callFunction(request, name)
        : reading
          ? await readRelation(request, request.planner.table(name))
          : method === 'POST'
            ? await insertRows(request, request.planner.table(name))
            : method === 'PUT'
              ? await putRow(request, request.planner.table(name))
              : await updateOrDeleteRows(request, request.planner.table(name), method === 'PATCH' ? 'update' : 'delete')
      // A client that named the schema is told which one answered.
      const profile: Record<string, string> = profileHeader === undefined ? {} : { 'Content-Profile': schema.name }
      send(res, response.status, method === 'HEAD' ? '' : response.body, { ...response.headers, ...profile })
    } catch (error) {
      if (isDatabaseError(error)) throw fromDatabaseError(error, caller.authenticated)
      throw error
    }
  }
}
