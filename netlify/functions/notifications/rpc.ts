/** What an RPC answers: PostgREST's JSON, or its error ({ code, message }). */
export interface RpcResult<T> {
  data: T | null
  error: { code?: string; message: string } | null
}

export type Rpc = <T = unknown>(name: string, args?: Record<string, unknown>) => Promise<RpcResult<T>>

/**
 * Calls database functions over PostgREST (POST /rest/v1/rpc/<name>) with an API key and a bearer token: the service
 * role key for the pass, a user's access token to act as them. Plain fetch rather than supabase-js, whose client
 * needs a WebSocket at construction, which Node 20 (still supported by `npm start`) does not have.
 */
export function restRpc(url: string, apiKey: string, token = apiKey): Rpc {
  const base = `${url.replace(/\/+$/, '')}/rest/v1/rpc/`
  return async <T>(name: string, args: Record<string, unknown> = {}): Promise<RpcResult<T>> => {
    const response = await fetch(`${base}${name}`, {
      method: 'POST',
      headers: { apikey: apiKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(args),
    })
    const text = await response.text()
    const body: unknown = text ? JSON.parse(text) : null
    if (response.ok) return { data: body as T, error: null }
    const { code, message } = (body ?? {}) as { code?: string; message?: string }
    return { data: null, error: { code, message: message ?? `HTTP ${response.status}` } }
  }
}
