// A stolen password alone opens nothing: an administrator's or RSSI's session that has not passed its second factor
// (aal1) holds no role in the database, so every table reads no more than an ordinary person reads and every RPC that
// asks for a role refuses, whereas the same person at aal2 keeps their powers. Checked through the REST API with
// tokens signed as the auth server signs them.
import { createClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { describe, expect, it } from 'vitest'
import { signAccessToken } from '../../supabase/local/keys'
import { demo } from '../db/support/actors'
import { DEMO_PASSWORD, testBackendForFile } from './support/server'

const backend = testBackendForFile()

type Person = 'admin' | 'rssi' | 'user'
const token = (who: Person, aal: 'aal1' | 'aal2') =>
  signAccessToken({ role: 'authenticated', sub: demo[who].id, email: demo[who].email, aud: 'authenticated', aal }, 600)

function rest(path: string, bearer: string, init: RequestInit = {}) {
  return fetch(`${backend.url}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: backend.server.config.publishableKey, Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', Prefer: 'count=exact' },
  })
}

async function visibleRows(table: string, bearer: string): Promise<number> {
  const response = await rest(`${table}?select=*&limit=1`, bearer)
  if (!response.ok) return 0
  return Number(response.headers.get('content-range')?.split('/')[1] ?? 0)
}

describe('second factor enforced by the database', () => {
  it('the password sign-in of the RSSI gives an aal1 session the database does not empower', async () => {
    const client = backend.client()
    // The test client passes the demo factor; a plain supabase-js sign-in is what an attacker with the password gets.
    const raw = createClient(backend.url, backend.server.config.publishableKey, { auth: { persistSession: false }, realtime: { transport: WebSocket as never } })
    const { data } = await raw.auth.signInWithPassword({ email: 'rssi@example.com', password: DEMO_PASSWORD })
    expect((await raw.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' })
    const started = await raw.rpc('mfa_required')
    expect(started.data).toBe(true)
    expect(await visibleRows('audit_logs', data.session!.access_token)).toBe(0)
    await client.auth.signInWithPassword({ email: 'rssi@example.com', password: DEMO_PASSWORD })
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2')
    expect((await client.from('audit_logs').select('id', { count: 'exact', head: true })).count).toBeGreaterThan(0)
  })

  it('every table reads no more at aal1 than the same person would as an ordinary user, where aal2 reads more', async () => {
    const { rows } = await backend.db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'v', 'm') order by 1`,
    )
    const privileged: string[] = []
    for (const who of ['admin', 'rssi'] as const) {
      const counts = async (aal: 'aal1' | 'aal2') => {
        const bearer = await token(who, aal)
        return Promise.all(rows.map(({ name }) => visibleRows(name, bearer)))
      }
      const strong = await counts('aal2')
      const weak = await counts('aal1')
      // What the same person reads with the role of an ordinary user: their own rights, reviews and messages.
      await backend.db.query(`update public.users set role = 'user' where id = $1`, [demo[who].id])
      const ordinary = await counts('aal2').finally(() => backend.db.query(`update public.users set role = $2 where id = $1`, [demo[who].id, who]))
      rows.forEach(({ name }, index) => {
        if (strong[index]! > ordinary[index]!) privileged.push(`${name} (${who})`)
        expect(weak[index]!, `${name} as ${who} at aal1`).toBeLessThanOrEqual(ordinary[index]!)
      })
    }
    // The comparison is not empty: the administrators' tables read more at aal2.
    expect(privileged).toEqual(expect.arrayContaining(['audit_logs (rssi)']))
  })

  it('every RPC that refuses an ordinary person but serves an administrator or RSSI at aal2 refuses them at aal1', async () => {
    const { rows } = await backend.db.query<{ name: string; args: string[] | null }>(
      `select p.proname as name, p.proargnames[1:p.pronargs] as args
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and has_function_privilege('authenticated', p.oid, 'execute') and p.prokind = 'f'
        order by 1`,
    )
    const code = async (name: string, body: string, bearer: string) => {
      const response = await rest(`rpc/${name}`, bearer, { method: 'POST', body })
      return ((await response.json().catch(() => null)) as { code?: string } | null)?.code
    }
    const privileged: string[] = []
    for (const { name, args } of rows) {
      // Every argument null: the role is checked before the arguments, or the call fails on them for everyone alike.
      const body = JSON.stringify(Object.fromEntries((args ?? []).map((arg) => [arg, null])))
      if ((await code(name, body, await token('user', 'aal2'))) !== '42501') continue
      for (const who of ['admin', 'rssi'] as const) {
        if ((await code(name, body, await token(who, 'aal2'))) === '42501') continue
        privileged.push(`${name} (${who})`)
        expect({ rpc: name, who, code: await code(name, body, await token(who, 'aal1')) }).toEqual({ rpc: name, who, code: '42501' })
      }
    }
    expect(privileged.length).toBeGreaterThan(10)
  })
})
