import { createClient } from '@supabase/supabase-js'
import type { Database } from '@/lib/database.types'
import { getSupabase, getSupabaseConfig, type AppSupabaseClient } from '@/lib/supabase'

/** What a Web Worker needs to call the API as the signed-in user, under the same row-level security: never more. */
export interface ApiAccess {
  url: string
  anonKey: string
  accessToken: string
}

/** The API's address and key with the signed-in user's current token, for a worker that reads on the user's behalf. */
export async function currentApiAccess(): Promise<ApiAccess> {
  const { data } = await getSupabase().auth.getSession()
  const accessToken = data.session?.access_token
  if (!accessToken) throw new Error('Votre session a expiré : reconnectez-vous pour télécharger le rapport.')
  const { url, anonKey } = getSupabaseConfig()
  return { url, anonKey, accessToken }
}

/** A client of the API as the user whose token it carries, for a Web Worker (which has no session storage). */
export function clientFor(access: ApiAccess): AppSupabaseClient {
  return createClient<Database>(access.url, access.anonKey, { accessToken: async () => access.accessToken })
}
