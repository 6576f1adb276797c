// The seal as an auditor checks it from outside: a script with the service role key asks the database to verify the
// chain, then reads every audit row over the REST API and recomputes the hashes itself; the security officer checks
// it from the browser; nobody else may.
import type { SupabaseClient } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { chainHashes, type SealedRow } from '../support/audit-chain'
import { DEMO_PASSWORD, testBackendForFile } from './support/server'

const backend = testBackendForFile()

async function signedIn(email: string): Promise<SupabaseClient> {
  const client = backend.client()
  const { error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  expect(error).toBeNull()
  return client
}

describe('an auditor’s script with the service role key', () => {
  it('gets an intact verdict whose head it recomputes from the rows read page by page', async () => {
    const service = backend.serviceClient()
    const { data: verdict, error } = await service.rpc('verify_audit_chain')
    expect(error).toBeNull()

    const rows: (SealedRow & { prev_hash: string | null; hash: string })[] = []
    for (let from = 0; ; from += 40) {
      const page = await service.from('audit_logs').select('*').order('id').range(from, from + 39)
      expect(page.error).toBeNull()
      rows.push(...page.data!)
      if (page.data!.length < 40) break
    }
    const recomputed = chainHashes(rows)
    // bytea comes as PostgreSQL's hex text, "\x…".
    expect(rows.map((r) => r.hash)).toEqual(recomputed.map((h) => `\\x${h}`))
    expect(verdict).toEqual({
      intact: true,
      rows_checked: rows.length,
      head_id: rows.length,
      head_hash: recomputed.at(-1),
      first_broken_id: null,
      reason: null,
    })
  })
})

describe('from the browser', () => {
  it('the security officer verifies the seal', async () => {
    const { data, error } = await (await signedIn('rssi@example.com')).rpc('verify_audit_chain')
    expect(error).toBeNull()
    expect(data).toMatchObject({ intact: true, first_broken_id: null })
  })

  it('an administrator is told it is the security officer’s', async () => {
    const { data, error } = await (await signedIn('admin@example.com')).rpc('verify_audit_chain')
    expect(data).toBeNull()
    expect(error).toMatchObject({ code: '42501', message: 'Réservé au RSSI.' })
  })

  it('the anonymous key cannot call it', async () => {
    const { data, error } = await backend.client().rpc('verify_audit_chain')
    expect(data).toBeNull()
    expect(error?.code).toBe('42501')
  })
})
