import type { IncomingMessage } from 'node:http'
import type { Database, Sql } from '../database'
import { decodeUtf8, header } from '../http'
import type { Accept, Preferences, QueryParams } from './ast'
import { errors } from './errors'
import { quoteIdent } from './identifiers'
import type { CallInput, Condition, Planner, ReadPlan } from './planner'
import { parseBody, parseRangeHeader } from './request'
import { CONTENT_TYPES, contentRange, locationFor, pageResponse, preferenceApplied, singularityResponse, type RestResponse } from './response'
import type { Routine, Table } from './schema'
import { asCaller, Rollback, writeAsCaller, type Caller } from './session'
import {
  LiteralParams,
  Params,
  callReadStatement,
  callScalarStatement,
  cappedCountStatement,
  deleteStatement,
  explainStatement,
  insertStatement,
  mutationStatement,
  qualified,
  readStatement,
  referencedColumns,
  updateStatement,
  type BodyFormat,
  type Returning,
} from './sql'

// What each kind of request does: read a relation, insert, update or delete, call a function. Each plans,
// builds one statement, and runs it in the caller's transaction.

export interface RestRequest {
  req: IncomingMessage
  /** The path under /rest/v1, as PostgREST sees it (request.path). */
  path: string
  method: string
  caller: Caller
  accept: Accept
  prefs: Preferences
  params: QueryParams
  body: Buffer
  planner: Planner
  /** The exposed schema the request is for (Accept-Profile, Content-Profile). */
  schema: string
  db: Database
  maxRows: number
}

interface ReadRow {
  total: string | number | null
  page_total: string | number
  body: string | null
}

interface MutationRow {
  page_total: string | number
  inserted: string | number | null
  body: string | null
  location: string | null
}

export async function readRelation(request: RestRequest, table: Table): Promise<RestResponse> {
  const plan = request.planner.read(table, request.params)
  applyTopLevelRange(plan, request)
  const source = `${qualified(table)} as ${quoteIdent(plan.alias)}`
  return run(request, true, {}, async (tx) => {
    const p = new Params()
    const row = await statementRow<ReadRow>(request, tx, readStatement(plan, p, { source, ...readOptions(request) }), p.values)
    const rows = Number(row.page_total)
    checkSingular(request, rows)
    return pageResponse({
      rows,
      offset: plan.offset ?? 0,
      total: await countFor(tx, plan, request, source, row),
      body: row.body ?? '',
      media: request.accept.media,
      headers: preferenceApplied(request.method, request.prefs),
    })
  })
}

export async function insertRows(request: RestRequest, table: Table): Promise<RestResponse> {
  const { prefs, planner } = request
  if (!table.insertable) throw errors.notWritable('insert', table.name, table.kind)
  const plan = planner.insert(table, parseBody(request.req, request.body, false), request.params, prefs)
  const read = planner.read(table, request.params)
  const representation = prefs.return === 'representation'
  const primaryKey = prefs.return === 'headers-only' ? table.primaryKey.map((name) => table.columnsByName.get(name)!) : []
  const returning: Returning = { kind: 'columns', columns: representation ? referencedColumns(read) : primaryKey, alias: read.alias }
  return run(request, false, {}, async (tx) => {
    const p = new Params()
    const sql = mutationStatement(insertStatement(plan, p, returning, read.alias), p, {
      ...(representation ? { read: readOverMutation(request, read) } : {}),
      upsert: plan.conflict?.action === 'merge',
      primaryKey,
    })
    const row = await statementRow<MutationRow>(request, tx, sql, p.values)
    const rows = Number(row.page_total)
    checkSingular(request, rows)
    const headers: Record<string, string> = {
      'Content-Range': contentRange(1, 0, prefs.count ? rows : undefined),
      ...preferenceApplied(request.method, prefs, { resolution: plan.conflict !== undefined, missing: true }),
    }
    const location = locationFor(table, primaryKey, row.location)
    if (location) headers.Location = location
    // An upsert that only merged existing rows created nothing.
    const status = plan.conflict?.action === 'merge' && Number(row.inserted ?? 0) === 0 ? 200 : 201
    if (!representation) return { status, headers, body: '' }
    return { status, headers: { ...headers, 'Content-Type': CONTENT_TYPES[request.accept.media] }, body: row.body ?? '' }
  })
}

/** PUT: one row inserted or replaced by its primary key; 201 when it was created, 200 when replaced. */
export async function putRow(request: RestRequest, table: Table): Promise<RestResponse> {
  const { prefs, planner } = request
  if (!table.insertable) throw errors.notWritable('insert', table.name, table.kind)
  const plan = planner.put(table, parseBody(request.req, request.body, false), request.params)
  const read = planner.read(table, request.params)
  const representation = prefs.return === 'representation'
  const returning: Returning = { kind: 'columns', columns: representation ? referencedColumns(read) : [], alias: read.alias }
  return run(request, false, {}, async (tx) => {
    const p = new Params()
    const sql = mutationStatement(insertStatement(plan, p, returning, read.alias), p, {
      ...(representation ? { read: readOverMutation(request, read) } : {}),
      upsert: true,
    })
    const row = await statementRow<MutationRow>(request, tx, sql, p.values)
    // The payload's key differed from the URL's, so nothing was written; PostgREST also undoes the transaction.
    if (Number(row.page_total) !== 1) throw errors.putMismatch()
    const headers = preferenceApplied(request.method, prefs)
    if (!representation) return { status: 204, headers, body: '' }
    const status = Number(row.inserted ?? 0) > 0 ? 201 : 200
    return { status, headers: { ...headers, 'Content-Type': CONTENT_TYPES[request.accept.media] }, body: row.body ?? '' }
  })
}

export async function updateOrDeleteRows(request: RestRequest, table: Table, kind: 'update' | 'delete'): Promise<RestResponse> {
  const { prefs, planner } = request
  if (!(kind === 'update' ? table.updatable : table.deletable)) throw errors.notWritable(kind, table.name, table.kind)
  const read = planner.read(table, request.params)
  if (read.where.some(filtersOnEmbed)) throw errors.notImplemented('An update or a delete cannot be filtered on an embedded resource')
  const update = kind === 'update' ? planner.update(table, parseBody(request.req, request.body, false), request.params, prefs) : undefined
  const representation = prefs.return === 'representation'
  const count = (rows: number) => (prefs.count ? rows : undefined)
  // PostgREST's ranges for these: an update names the rows it changed, a delete never does.
  const range = (rows: number) => (kind === 'update' ? contentRange(0, rows - 1, count(rows)) : contentRange(1, 0, count(rows)))
  const applied = preferenceApplied(request.method, prefs, { missing: kind === 'update', maxAffected: true })
  const answer = (rows: number, body: string | null): RestResponse => {
    const headers = { 'Content-Range': range(rows), ...applied }
    if (!representation) return { status: 204, headers, body: '' }
    return { status: 200, headers: { ...headers, 'Content-Type': CONTENT_TYPES[request.accept.media] }, body: body ?? '' }
  }

  if (update && update.columns.length === 0 && update.defaults.length === 0) {
    // An empty object sets nothing: no row changes.
    return request.accept.media === 'object' ? singularityResponse(0) : answer(0, '[]')
  }
  const returning: Returning = representation ? { kind: 'columns', columns: referencedColumns(read), alias: read.alias } : { kind: 'none' }
  return run(request, false, {}, async (tx) => {
    const p = new Params()
    const mutation = update ? updateStatement(update, read, p, returning) : deleteStatement(read, p, returning)
    const row = await statementRow<MutationRow>(request, tx, mutationStatement(mutation, p, representation ? { read: readOverMutation(request, read) } : {}), p.values)
    const rows = Number(row.page_total)
    if (prefs.handling === 'strict' && prefs.maxAffected !== undefined && rows > prefs.maxAffected) throw errors.maxAffected(rows)
    checkSingular(request, rows)
    return answer(rows, row.body)
  })
}

/** Raw payloads a function with one unnamed parameter of the matching type takes whole (PostgREST's raw media). */
const RAW_PAYLOADS: Record<string, 'text' | 'xml' | 'bytea'> = { 'text/plain': 'text', 'text/xml': 'xml', 'application/octet-stream': 'bytea' }

/** A call's arguments and payload: a POST's body (JSON, a form, or raw text, XML or bytes), a GET's query parameters. */
function callInput(request: RestRequest): CallInput {
  if (request.method !== 'POST') {
    // A parameter given several times is an array (for a variadic or array parameter).
    const args = Object.fromEntries([...request.params.rpcArgs].map(([key, values]) => [key, values.length === 1 ? values[0] : values]))
    return { args, raw: JSON.stringify(args) }
  }
  const type = (header(request.req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  const rawPayload = RAW_PAYLOADS[type]
  if (rawPayload) return { args: {}, raw: rawPayload === 'bytea' ? request.body : decodeUtf8(request.body), payload: rawPayload }
  const body = parseBody(request.req, request.body, true) ?? {}
  const args = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined
  const isJson = type !== 'application/x-www-form-urlencoded'
  return { args, raw: isJson && request.body.length > 0 ? decodeUtf8(request.body) : JSON.stringify(body), payload: 'json' }
}

export async function callFunction(request: RestRequest, name: string): Promise<RestResponse> {
  const isPost = request.method === 'POST'
  const plan = request.planner.call(name, callInput(request))
  const { routine } = plan
  const readOnly = !isPost
  const { prefs } = request
  // supabase-js asks for return=minimal when it wants only the count of a call it cannot send as HEAD.
  const withoutBody = (response: RestResponse): RestResponse => (isPost && prefs.return === 'minimal' ? { ...response, body: '' } : response)
  const applied = preferenceApplied(request.method, prefs, { maxAffected: true })
  // PostgREST counts what the function returned as the rows it affected: it cannot see the rows it changed.
  const checkAffected = (rows: number) => {
    if (prefs.handling === 'strict' && prefs.maxAffected !== undefined && rows > prefs.maxAffected) throw errors.maxAffected(rows)
  }

  if (!plan.result) {
    const answer = (row: { body?: string | null }): RestResponse => {
      if (routine.returns.kind === 'void') return { status: 204, headers: applied, body: '' }
      checkAffected(1)
      // One value: the range of a one-row result, counted when asked.
      const headers = { ...applied, 'Content-Type': CONTENT_TYPES.json, 'Content-Range': contentRange(0, 0, prefs.count ? 1 : undefined) }
      return withoutBody({ status: 200, headers, body: row.body ?? 'null' })
    }
    // A write whose answer cannot undo it (no plan asked for, no tx=rollback, a single row that max-affected cannot
    // refuse) is sent and committed in one round trip (session.ts, writeAsCaller): a decision is such a call.
    if (isPost && !request.accept.plan && prefs.tx !== 'rollback' && !(prefs.handling === 'strict' && prefs.maxAffected !== undefined && prefs.maxAffected < 1)) {
      const literal = new LiteralParams()
      const sql = callScalarStatement(plan, literal)
      const { timezone } = prefs
      const rows = literal.complete
        ? await writeAsCaller<{ body?: string | null }>(
            request.db,
            request.req,
            request.path,
            request.caller,
            { schema: request.schema, ...(timezone ? { timezone } : {}), ...timeoutOf(routine) },
            sql,
          )
        : undefined
      if (rows) return answer(onlyRow(rows))
    }
    return run(request, readOnly, timeoutOf(routine), async (tx) => {
      const p = new Params()
      return answer(await statementRow<{ body?: string | null }>(request, tx, callScalarStatement(plan, p), p.values))
    })
  }

  const read = request.planner.read(plan.result, request.params)
  applyTopLevelRange(read, request)
  return run(request, readOnly, timeoutOf(routine), async (tx) => {
    const p = new Params()
    const options = readOptions(request)
    // A function returning one row (not a set of them) answers with that row as an object.
    const body = !routine.setOf && options.body === 'json' ? 'object' : options.body
    const sql = callReadStatement(plan, read, p, { ...options, body, ...(routine.returns.kind === 'scalar' ? { scalarColumn: routine.name } : {}) })
    const row = await statementRow<ReadRow>(request, tx, sql, p.values)
    const rows = Number(row.page_total)
    checkAffected(rows)
    if (routine.setOf) checkSingular(request, rows)
    const response = pageResponse({
      rows,
      offset: read.offset ?? 0,
      // The planner cannot see into a function: its rows are only ever counted exactly.
      total: prefs.count ? Number(row.total ?? rows) : undefined,
      body: row.body ?? '',
      media: request.accept.media,
      headers: applied,
    })
    if (response.status >= 400) throw new Rollback(response)
    return withoutBody(response)
  })
}

function filtersOnEmbed(condition: Condition): boolean {
  return condition.kind === 'embedNull' || (condition.kind === 'logic' && condition.children.some(filtersOnEmbed))
}

const timeoutOf = (routine: Routine) => (routine.statementTimeout ? { statementTimeout: routine.statementTimeout } : {})

/**
 * The request's transaction, as the caller (under a called function's own statement timeout when it sets one);
 * tx=rollback keeps the answer but undoes the work.
 */
function run(request: RestRequest, readOnly: boolean, timeout: { statementTimeout?: string }, fn: (tx: Sql) => Promise<RestResponse>): Promise<RestResponse> {
  const { timezone, tx: txEnd } = request.prefs
  const options = { readOnly, schema: request.schema, ...(timezone ? { timezone } : {}), ...timeout }
  return asCaller(request.db, request.req, request.path, request.caller, options, async (tx) => {
    const response = await fn(tx)
    if (txEnd === 'rollback') throw new Rollback(response)
    return response
  })
}

const PLAN_MEDIA = { json: 'application/json', object: 'application/vnd.pgrst.object+json', csv: 'text/csv', openapi: 'application/openapi+json' }

/**
 * The row of the request's one statement. With `Accept: application/vnd.pgrst.plan`, the answer is that statement's
 * EXPLAIN instead, and the transaction is undone, so that even a plan with `options=analyze` changes nothing.
 */
async function statementRow<T>(request: RestRequest, tx: Sql, sql: string, params: unknown[]): Promise<T> {
  const { plan } = request.accept
  if (!plan) return queryOne<T>(tx, sql, params)
  const options = [`format ${plan.format}`, ...plan.options.map((option) => `${option} true`)]
  const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (${options.join(', ')}) ${sql}`, params)
  const lines = rows.map((row) => row['QUERY PLAN'])
  const body = plan.format === 'json' ? JSON.stringify(typeof lines[0] === 'string' ? JSON.parse(lines[0]) : lines[0]) : lines.join('\n')
  const type = `application/vnd.pgrst.plan+${plan.format}; for="${PLAN_MEDIA[request.accept.media]}"; charset=utf-8`
  throw new Rollback({ status: 200, headers: { 'Content-Type': type }, body })
}

async function queryOne<T>(tx: Sql, sql: string, params: unknown[]): Promise<T> {
  return onlyRow((await tx.query<T>(sql, params)).rows)
}

function onlyRow<T>(rows: T[]): T {
  const row = rows[0]
  // Every statement the builder makes answers exactly one row; none means the database failed silently.
  if (row === undefined) throw new Error('The database returned no row for an aggregate statement')
  return row
}

/** count=planned and count=estimated read the planner's estimate; estimated is exact up to max_rows. */
async function countFor(tx: Sql, plan: ReadPlan, request: RestRequest, source: string, row: ReadRow): Promise<number | undefined> {
  const method = request.prefs.count
  if (!method) return undefined
  if (method === 'exact') return Number(row.total)
  const estimate = async () => {
    const p = new Params()
    const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(explainStatement(plan, p, source), p.values)
    const raw = rows[0]?.['QUERY PLAN']
    const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan?: { 'Plan Rows'?: number } }>
    return Math.round(parsed[0]?.Plan?.['Plan Rows'] ?? 0)
  }
  if (method === 'planned') return estimate()
  const p = new Params()
  const capped = Number((await queryOne<{ total: string | number }>(tx, cappedCountStatement(plan, p, source, request.maxRows), p.values)).total)
  return capped > request.maxRows ? Math.max(capped, await estimate()) : capped
}

function readOptions(request: RestRequest): { body: BodyFormat; stripNulls: boolean; exactCount: boolean } {
  return { body: bodyFormat(request), stripNulls: request.accept.stripNulls, exactCount: request.prefs.count === 'exact' }
}

function readOverMutation(request: RestRequest, plan: ReadPlan) {
  return { plan, body: bodyFormat(request), stripNulls: request.accept.stripNulls }
}

function bodyFormat(request: RestRequest): BodyFormat {
  if (request.method === 'HEAD') return 'none'
  return request.accept.media === 'openapi' ? 'json' : request.accept.media
}

/** limit/offset (or a Range header) at the top level, silently capped at max_rows as Supabase caps every read. */
function applyTopLevelRange(plan: ReadPlan, request: RestRequest): void {
  const hasParams = request.params.ranges.some((range) => range.path.length === 0)
  const header = hasParams ? undefined : parseRangeHeader(request.req.headers.range)
  if (header) {
    plan.offset = header.offset
    if (header.limit !== undefined) plan.limit = header.limit
  }
  plan.limit = Math.min(plan.limit ?? request.maxRows, request.maxRows)
}

/** vnd.pgrst.object answers exactly one row; otherwise the transaction is undone and the answer is 406. */
function checkSingular(request: RestRequest, rows: number): void {
  if (request.accept.media === 'object' && rows !== 1) throw new Rollback(singularityResponse(rows))
}
