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
const MAX_PATTERN_LENGTH = 1000

/**
 * PGlite runs in the server's own thread and has no timer to interrupt a statement (statement_timeout is ignored),
 * so a pattern that takes minutes would hold every request as long. Without back-references PostgreSQL matches a
 * regular expression in time polynomial in its text and pattern, so on PGlite those are refused up front with
 * PostgreSQL's invalid_regular_expression (400); on PostgreSQL the statement timeout bounds them as hosted.
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
  if (BACK_REFERENCE.test(operation.value) || operation.value.length > MAX_PATTERN_LENGTH) {
    throw pgrstError(
      400,
      '2201B',
      'invalid regular expression: back-references and patterns over 1000 characters are refused by the local backend on PGlite',
      'PGlite cannot interrupt a statement, so it cannot apply the statement timeout that bounds such a pattern on PostgreSQL.',
      'Run the local backend on PostgreSQL (DATABASE_URL) to use them under the statement timeout.',
    )
  }
}
