// An administrator resets another person's second factor (a lost phone), audited; nobody resets their own, no other
// role may, and neither may an administrator whose own session has not passed its second factor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, demo } from './support/actors'

let db: Database
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

const factorsOf = async (id: string) => (await db.query<{ n: number }>('select count(*)::int as n from auth.mfa_factors where user_id = $1', [id])).rows[0]!.n
const reset = (actor: Parameters<typeof actAs>[1], id: string) =>
  actAs(db, actor, (tx) => tx.query('select public.reset_second_factor($1)', [id])).then(
    () => null,
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  )

describe('reset_second_factor', () => {
  it("lets an administrator reset the RSSI's factor, ends the RSSI's sessions and audits it", async () => {
    await db.query(`insert into auth.sessions (id, user_id) values (gen_random_uuid(), $1)`, [demo.rssi.id])
    expect(await factorsOf(demo.rssi.id)).toBe(1)
    expect(await reset('admin', demo.rssi.id)).toBeNull()
    expect(await factorsOf(demo.rssi.id)).toBe(0)
    expect((await db.query('select 1 from auth.sessions where user_id = $1', [demo.rssi.id])).rows).toHaveLength(0)
    const { rows } = await db.query<{ user_email: string; details: { email: string; factors: number } }>(
      `select user_email, details from public.audit_logs where action = 'reset_second_factor' order by id desc limit 1`,
    )
    expect(rows[0]).toMatchObject({ user_email: 'admin@example.com', details: { email: 'rssi@example.com', factors: 1 } })
  })

  it('refuses the administrator their own factor, and every other role', async () => {
    expect(await reset('admin', demo.admin.id)).toMatchObject({ code: '42501', message: expect.stringMatching(/propre second facteur/) })
    for (const actor of ['rssi', 'ra', 'manager', 'user'] as const) {
      expect(await reset(actor, demo.admin.id)).toMatchObject({ code: '42501' })
    }
    expect(await factorsOf(demo.admin.id)).toBe(1)
  })

  it('refuses an administrator whose session has not passed the second factor (aal1)', async () => {
    const refused = await db
      .transaction(async (tx) => {
        await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify({ sub: demo.admin.id, email: demo.admin.email, role: 'authenticated', aal: 'aal1' }),
        ])
        await tx.query('select public.reset_second_factor($1)', [demo.user.id])
      })
      .then(
        () => null,
        (error: { code?: string }) => error.code,
      )
    expect(refused).toBe('42501')
  })
})
