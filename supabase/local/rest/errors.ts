import { HttpError } from '../http'

/** PostgREST's error body: always these four keys, in this order. */
export function pgrstError(
  status: number,
  code: string,
  message: string,
  details: unknown = null,
  hint: unknown = null,
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(status, { code, details, hint, message }, headers)
}

/** A malformed query parameter (PGRST100), with the position the way PostgREST's parser reports it. */
export function queryParamError(what: string, input: string, position: number, expecting: string): HttpError {
  const found = position >= input.length ? 'end of input' : JSON.stringify(input[position])
  return pgrstError(
    400,
    'PGRST100',
    `"failed to parse ${what} (${input})" (line 1, column ${position + 1})`,
    `unexpected ${found} expecting ${expecting}`,
  )
}

export const errors = {
  tableNotFound: (schema: string, name: string, suggestion?: string) =>
    pgrstError(
      404,
      'PGRST205',
      `Could not find the table '${schema}.${name}' in the schema cache`,
      null,
      suggestion ? `Perhaps you meant the table '${schema}.${suggestion}'` : null,
    ),
  columnNotFound: (table: string, column: string) =>
    pgrstError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`),
  // Postgres' own wording: PostgREST lets the database report an unknown column in select, filters and order.
  undefinedColumn: (table: string, column: string) => pgrstError(400, '42703', `column ${table}.${column} does not exist`),
  undefinedType: (type: string) => pgrstError(400, '42704', `type "${type}" does not exist`),
  // Postgres' own refusal of the statement PostgREST builds for two embeds sharing a join alias.
  duplicateAlias: (alias: string) => pgrstError(400, '42712', `table name "${alias}" specified more than once`),
  notEmbedded: (resource: string) =>
    pgrstError(
      400,
      'PGRST108',
      `'${resource}' is not an embedded resource in this request`,
      null,
      `Verify that '${resource}' is included in the 'select' query parameter.`,
    ),
  relatedOrderNotToOne: (origin: string, target: string) =>
    pgrstError(
      400,
      'PGRST118',
      `A related order on '${target}' is not possible`,
      `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
    ),
  unacceptableFilter: (target: string) =>
    pgrstError(
      400,
      'PGRST120',
      `Bad operator on the '${target}' embedded resource`,
      'Only is null or not is null filters are allowed on embedded resources',
    ),
  aggregatesNotAllowed: () => pgrstError(400, 'PGRST123', 'Use of aggregate functions is not allowed'),
  invalidBody: (message: string, details: string | null = null) => pgrstError(400, 'PGRST102', message, details),
  invalidRange: (details: string) => pgrstError(416, 'PGRST103', 'Requested range not satisfiable', details),
  unacceptableSchema: (schema: string, exposed: string[]) =>
    pgrstError(406, 'PGRST106', `Invalid schema: ${schema}`, null, `Only the following schemas are exposed: ${exposed.join(', ')}`),
  mediaType: (types: string[]) =>
    pgrstError(406, 'PGRST107', `None of these media types are available: ${types.join(', ')}`),
  unsupportedContentType: (type: string) =>
    pgrstError(415, 'PGRST107', `None of these media types are available: ${type}`),
  singularity: (rows: number) =>
    pgrstError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`),
  unsupportedMethod: (method: string) => pgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`),
  invalidRpcMethod: (method: string) => pgrstError(405, 'PGRST101', `Cannot use the ${method} method on RPC`),
  invalidPreferences: (prefs: string[]) =>
    pgrstError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${prefs.join(', ')}`),
  maxAffected: (rows: number) =>
    pgrstError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${rows} rows`),
  invalidPath: () => pgrstError(404, 'PGRST125', 'Invalid path specified in request URL'),
  putRange: () => pgrstError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT'),
  putFilters: () => pgrstError(405, 'PGRST105', "Filters must include all and only primary key columns with 'eq' operators"),
  putMismatch: () => pgrstError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)'),
  notImplemented: (details: string) => pgrstError(400, 'PGRST127', 'Feature not implemented', details),
  // Postgres would answer 55000, which PostgREST maps to 500; the request is what is wrong, so 405.
  notWritable: (action: 'insert' | 'update' | 'delete', relation: string, kind: string) =>
    pgrstError(
      405,
      '55000',
      `cannot ${{ insert: 'insert into', update: 'update', delete: 'delete from' }[action]} ${kind} "${relation}"`,
      null,
      `To enable ${{ insert: 'inserting into', update: 'updating', delete: 'deleting from' }[action]} the ${kind}, provide an INSTEAD OF ${action.toUpperCase()} trigger.`,
    ),
}

export interface DatabaseErrorLike {
  code: string
  message: string
  detail?: string
  hint?: string
}

/** Errors raised by Postgres (PGlite and node-postgres alike) carry a five-character SQLSTATE. */
export function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  const e = error as Partial<DatabaseErrorLike> | null
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.message === 'string'
}

/** PostgREST's SQLSTATE → HTTP status table (src/PostgREST/Error.hs, mapSQLtoHTTP). */
function statusForSqlState(code: string, message: string, authenticated: boolean): number {
  switch (code) {
    case '23503':
    case '23505':
      return 409
    case '25006':
      return 405
    case '21000':
      // PostgREST answers 500 to a payload that upserts one row twice; it is the client's mistake, so 400 here.
      return message.endsWith('requires a WHERE clause') || message.startsWith('ON CONFLICT DO UPDATE command cannot affect row a second time')
        ? 400
        : 500
    case '22023':
      return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400
    case '53400':
      return 500
    case '57P01':
      return 503
    case 'P0001':
      return 400
    case '42883':
      return message.startsWith('function xmlagg(') ? 406 : 404
    case '42P01':
      return 404
    case '42P17':
      return 500
    case '42501':
      return authenticated ? 403 : 401
  }
  const prefix = code.slice(0, 2)
  if (prefix === '08') return 503
  if (prefix === '53') return 503
  if (['0L', '0P', '28'].includes(prefix)) return 403
  if (['09', '25', '2D', '38', '39', '3B', '40', '54', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(prefix)) return 500
  if (prefix === 'PT') {
    const status = Number(code.slice(2))
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500
  }
  return 400
}

/** Turns a database error into PostgREST's answer, including RAISE SQLSTATE 'PGRST' with its JSON message and detail. */
export function fromDatabaseError(error: DatabaseErrorLike, authenticated: boolean): HttpError {
  if (error.code === 'PGRST') return fromRaisedPgrst(error)
  const status = statusForSqlState(error.code, error.message, authenticated)
  const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}
  return pgrstError(status, error.code, error.message, error.detail ?? null, error.hint ?? null, headers)
}

function fromRaisedPgrst(error: DatabaseErrorLike): HttpError {
  const parse = (text: string | undefined): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(text ?? '')
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
    } catch {
      return undefined
    }
  }
  const body = parse(error.message)
  if (!body || typeof body.code !== 'string' || typeof body.message !== 'string') {
    return pgrstError(
      500,
      'PGRST121',
      `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`,
      `Invalid JSON value for MESSAGE: '${error.message}'`,
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    )
  }
  const detail = parse(error.detail)
  const status = detail?.status
  const rawHeaders = detail?.headers
  if (!detail || typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599 || typeof rawHeaders !== 'object' || rawHeaders === null) {
    return pgrstError(
      500,
      'PGRST121',
      `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`,
      error.detail ? `Invalid JSON value for DETAIL: '${error.detail}'` : 'DETAIL is missing in the RAISE statement',
      "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
    )
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(rawHeaders)) {
    if (typeof value === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && !/[\r\n]/.test(value)) headers[name] = value
  }
  return pgrstError(status, body.code, body.message, body.details ?? null, body.hint ?? null, headers)
}
