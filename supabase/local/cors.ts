import type { IncomingMessage } from 'node:http'
import { header } from './http'

const ALLOWED_METHODS = 'GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS'
const DEFAULT_ALLOWED_HEADERS =
  'authorization,x-client-info,apikey,content-type,accept,accept-profile,content-profile,prefer,range,x-supabase-api-version'
const EXPOSED_HEADERS = 'Content-Range,Content-Location,Location,Preference-Applied,X-Supabase-Api-Version,Range-Unit'

/** CORS as Supabase's gateway answers it: any origin, credentials allowed, the asked-for headers echoed. */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': header(req, 'origin') ?? '*',
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    Vary: 'Origin',
  }
}

export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  return {
    ...corsHeaders(req),
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': header(req, 'access-control-request-headers') ?? DEFAULT_ALLOWED_HEADERS,
    'Access-Control-Max-Age': '3600',
  }
}
