// An administrator resets the RSSI's second factor through the users feature's API module, signed in against the
// local server: her factor is gone and the reset audited. The RSSI calling it on the administrator is refused in
// French, and the administrator keeps his factor.
import { describe, expect, it, vi } from 'vitest'
import { demo } from '../db/support/actors'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { resetSecondFactor } = await import('@/features/users/api')

const backend = testBackendForFile()

async function signIn(email: string) {
  session.client = await backend.signedIn(email)
}

const factorsOf = async (id: string) =>
  (await backend.db.query<{ n: number }>('select count(*)::int as n from auth.mfa_factors where user_id = $1', [id])).rows[0]!.n

describe('resetSecondFactor, through the users api', () => {
  it('is refused to the RSSI, in French, and leaves the administrator his factor', async () => {
    await signIn(demo.rssi.email)
    await expect(resetSecondFactor(demo.admin.id)).rejects.toThrow("Seul un administrateur peut réinitialiser le second facteur d'une personne.")
    expect(await factorsOf(demo.admin.id)).toBe(1)
  })

  it("is refused to the administrator on his own factor", async () => {
    await signIn(demo.admin.email)
    await expect(resetSecondFactor(demo.admin.id)).rejects.toThrow(/propre second facteur/)
    expect(await factorsOf(demo.admin.id)).toBe(1)
  })

  it("lets the administrator reset the RSSI's factor: it is gone, and the reset audited", async () => {
    await signIn(demo.admin.email)
    expect(await factorsOf(demo.rssi.id)).toBe(1)
    await resetSecondFactor(demo.rssi.id)
    expect(await factorsOf(demo.rssi.id)).toBe(0)
    const { rows } = await backend.db.query<{ user_email: string; details: { email: string } }>(
      `select user_email, details from public.audit_logs where action = 'reset_second_factor' order by id desc limit 1`,
    )
    expect(rows[0]).toMatchObject({ user_email: demo.admin.email, details: { email: demo.rssi.email } })
  })
})
