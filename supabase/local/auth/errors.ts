import type { IncomingMessage } from 'node:http'
import { HttpError, header } from '../http'

/**
 * An error as GoTrue reports it: an HTTP status, one of its error codes and a message. auth-js reads the code
 * from `code` only when the response echoes the X-Supabase-Api-Version it sent, else from `error_code`.
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Fields GoTrue adds to this error's body, such as weak_password's reasons. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

/** GoTrue's OAuth2-style answer ({error, error_description}), always 400, whatever API version was asked. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description)
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message)

const API_VERSION_HEADER = 'X-Supabase-Api-Version'
const API_VERSION_2024 = '2024-01-01'

/** The request's API version if it is a valid date from 2024-01-01 on; GoTrue answers older clients in the initial format. */
function requestedApiVersion(req: IncomingMessage): string | undefined {
  const value = header(req, API_VERSION_HEADER)
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return undefined
  return value >= API_VERSION_2024 ? API_VERSION_2024 : undefined
}

/** Turns an auth error into the HTTP answer GoTrue would write for this request. */
export function toHttpError(req: IncomingMessage, error: AuthError | OAuthError): HttpError {
  if (error instanceof OAuthError) {
    return new HttpError(400, { error: error.error, error_description: error.description })
  }
  if (requestedApiVersion(req)) {
    return new HttpError(error.status, { code: error.code, message: error.message, ...error.extra }, { [API_VERSION_HEADER]: API_VERSION_2024 })
  }
  return new HttpError(error.status, { code: error.status, error_code: error.code, msg: error.message, ...error.extra })
}
