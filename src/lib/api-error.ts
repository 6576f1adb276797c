import type { PostgrestError } from '@supabase/supabase-js'

/** What the screens say when an error came with no message of its own. */
export const DEFAULT_ERROR_MESSAGE = 'Une erreur est survenue'

/** What an API call failed with, as supabase-js reports it (PostgREST, RPC or auth errors all carry a message). */
export type ApiFailure = Pick<PostgrestError, 'message'> & Partial<Pick<PostgrestError, 'code' | 'details' | 'hint'>>

/**
 * Turns a supabase-js error into a thrown Error whose message the screens show as is. The database already answers in
 * French; an empty message (a dropped connection, say) falls back to the caller's wording so the screen never shows
 * a blank error. The Postgres code stays on the error for callers that branch on it (42501, 23505…).
 */
export class ApiError extends Error {
  readonly code: string | undefined

  constructor(failure: ApiFailure, fallback = DEFAULT_ERROR_MESSAGE) {
    super(failure.message?.trim() ? failure.message : fallback)
    this.name = 'ApiError'
    this.code = failure.code
  }
}

export function throwApiError(failure: ApiFailure, fallback?: string): never {
  throw new ApiError(failure, fallback)
}

/**
 * The row a read by id found, or null when there is none with this id: a malformed id is a row that does not exist,
 * not a failure. Any other error is thrown as the screens show it.
 */
export function rowOrNull<Row>({ data, error }: { data: Row[] | null; error: ApiFailure | null }): Row | null {
  if (error?.code === '22P02') return null
  if (error) throwApiError(error)
  return data?.[0] ?? null
}
