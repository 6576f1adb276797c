import type { LogicTree, Operation, QueryParams } from './ast'
import { pgrstError } from './errors'

/**
 * The statement timeouts of hosted Supabase's API roles (their role settings, which PostgREST applies to each
 * request's transaction): anon 3 s, authenticated 8 s; service_role has none of its own and keeps the
 * authenticator's 8 s, as does any other role. A statement cut answers 57014, which PostgREST sends as 500.
 */
const ROLE_TIMEOUTS: Record<string, string> = { anon: '3s', authenticated: '8s' }
const AUTHENTICATOR_TIMEOUT = '8s'

export function roleStatementTimeout(role: string): string {
  return ROLE_TIMEOUTS[role] ?? AUTHENTICATOR_TIMEOUT
}

// A back-reference (\1 to \9…) makes PostgreSQL's regular expressions backtrack: exponential in the text's length.
const BACK_REFERENCE = /\\[1-9]/
// A lookahead or lookbehind constraint runs a match from each position: quadratic (a 10 KB text took 0.2 s).
const LOOKAROUND = /\(\?<?[=!]/
// A bound repeats its atom in the automaton: nested large bounds make it huge (the 255 PostgreSQL allows, nested).
const BOUND = /(?<!\\)\{(\d+)(?:,(\d*))?\}/g
const MAX_BOUND = 20
const MAX_PATTERN_LENGTH = 1000

function tooCostly(pattern: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH || BACK_REFERENCE.test(pattern) || LOOKAROUND.test(pattern)) return true
  return [...pattern.matchAll(BOUND)].some(([, low, high]) => Number(low) > MAX_BOUND || Number(high || 0) > MAX_BOUND)
}

/**
 * PGlite has no timer to interrupt a statement (statement_timeout is ignored): the server's PGlite thread ends and
 * reopens the database to cut one past its timeout, holding every request meanwhile, and PGlite in process cannot cut
 * it at all. Without back-references, lookaround constraints and large bounds, PostgreSQL matches a regular expression
 * in about linear time in its text, so on PGlite the others are refused up front with PostgreSQL's
 * invalid_regular_expression (400); on PostgreSQL the statement timeout bounds them as hosted.
 */
export function refuseUnboundedPatterns(params: QueryParams): void {
  for (const { filter } of params.filters) checkOperation(filter.operation)
  for (const { tree } of params.logic) checkTree(tree)
}

function checkTree(tree: LogicTree): void {
  if (tree.type === 'filter') checkOperation(tree.filter.operation)
  else tree.children.forEach(checkTree)
}

function checkOperation(operation: Operation): void {
  if (operation.op !== 'match' && operation.op !== 'imatch') return
  if (tooCostly(operation.value)) {
    throw pgrstError(
      400,
      '2201B',
      `invalid regular expression: back-references, lookaround constraints, bounds over ${MAX_BOUND} and patterns over ${MAX_PATTERN_LENGTH} characters are refused by the local backend on PGlite`,
      'PGlite cannot interrupt a statement: its statement timeout restarts the database, which every request would wait for.',
      'Run the local backend on PostgreSQL (DATABASE_URL) to use them under the statement timeout.',
    )
  }
}
