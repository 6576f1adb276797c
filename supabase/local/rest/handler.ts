import type { ApiContext, RouteHandler } from '../server'
import { HttpError } from '../http'

// Placeholder until the PostgREST-compatible layer lands: parser → planner → SQL builder.
export async function createRestHandler(_context: ApiContext): Promise<RouteHandler> {
  return async () => {
    throw new HttpError(501, { message: 'REST API not implemented yet' })
  }
}
