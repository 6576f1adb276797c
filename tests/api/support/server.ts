import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll } from 'vitest'
import WebSocket from 'ws'
import type { Database } from '../../../supabase/local/database'
import { startLocalServer, type LocalServer } from '../../../supabase/local/server'
import { freshDatabase } from '../../support/database'
import { withDemoSecondFactor } from '../../support/second-factor'

export const DEMO_PASSWORD = 'Demo1234!'

export interface TestBackend {
  server: LocalServer
  db: Database
  url: string
  /**
   * A supabase-js client with the anon key that keeps its session in memory only; a demo administrator's or RSSI's
   * password sign-in passes their second factor too.
   */
  client(): SupabaseClient
  /** Such a client signed in with a demo account's password; throws if the sign-in fails. */
  signedIn(email: string): Promise<SupabaseClient>
  /** A client with the service_role key. */
  serviceClient(): SupabaseClient
  close(): Promise<void>
}

/** The real local server on a random port, over this test file's own copy of the seeded database. */
export async function startTestBackend(): Promise<TestBackend> {
  const db = await freshDatabase()
  const server = await startLocalServer({ db, port: 0 })
  const options = {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; supabase-js needs one to construct its realtime client.
    realtime: { transport: WebSocket as never },
  }
  const client = () => withDemoSecondFactor(createClient(server.url, server.config.anonKey, options))
  return {
    server,
    db,
    url: server.url,
    client,
    signedIn: async (email) => {
      const signedIn = client()
      const { error } = await signedIn.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
      if (error) throw error
      return signedIn
    },
    serviceClient: () => createClient(server.url, server.config.serviceRoleKey, options),
    close: async () => {
      await server.close()
      await db.close()
    },
  }
}

/**
 * startTestBackend for a whole test file: started by the file's first beforeAll and closed by its last afterAll. The
 * object stands for the started backend, so that the file declares it once, at the top.
 */
export function testBackendForFile(): TestBackend {
  let started: TestBackend | undefined
  beforeAll(async () => {
    started = await startTestBackend()
  })
  afterAll(() => started?.close())
  const backend = (): TestBackend => {
    if (!started) throw new Error('The backend is started by the hooks of the test file.')
    return started
  }
  return {
    get server() {
      return backend().server
    },
    get db() {
      return backend().db
    },
    get url() {
      return backend().url
    },
    client: () => backend().client(),
    signedIn: (email) => backend().signedIn(email),
    serviceClient: () => backend().serviceClient(),
    close: () => backend().close(),
  }
}
