import { serverClient } from './supabase-server'

export interface Caller {
  token: string
  userId: string
}

/**
 * The signed-in person behind a request's bearer token, or null. The token is verified before anything else:
 * against the project's published keys (JWKS) for a token signed with an asymmetric key, through the auth server
 * for a legacy HS256 one (supabase.auth.getClaims() does both). An opaque API key is not a person.
 */
export async function verifiedCaller(request: Request, url: string, publishableKey: string): Promise<Caller | null> {
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1]?.trim()
  if (!token || token.split('.').length !== 3) return null
  const { data, error } = await serverClient(url, publishableKey).auth.getClaims(token)
  const sub = data?.claims.sub
  if (error || data?.claims.role !== 'authenticated' || typeof sub !== 'string') return null
  return { token, userId: sub }
}
