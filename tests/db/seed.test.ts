import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { demo } from './support/actors'

let db: Database
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

describe('seed', () => {
  it('gives each demo account a password that verifies with crypt, and refuses a wrong one', async () => {
    const { rows } = await db.query<{ email: string; good: boolean; bad: boolean }>(
      `select email,
              encrypted_password = extensions.crypt('Demo1234!', encrypted_password) as good,
              encrypted_password = extensions.crypt('demo1234!', encrypted_password) as bad
         from auth.users order by email`,
    )
    expect(rows.map((r) => r.email).sort()).toEqual(Object.values(demo).map((d) => d.email).sort())
    for (const row of rows) {
      expect(row, row.email).toMatchObject({ good: true, bad: false })
    }
  })

  it('links every demo account to an email identity and a profile of the right role', async () => {
    const { rows } = await db.query<{ email: string; role: string; identities: number }>(
      `select u.email, p.role::text as role, (select count(*)::int from auth.identities i where i.user_id = u.id and i.provider = 'email') as identities
         from auth.users u join public.users p on p.id = u.id`,
    )
    const roles = Object.fromEntries(rows.map((r) => [r.email, r.role]))
    for (const [role, account] of Object.entries(demo)) expect(roles[account.email]).toBe(role)
    expect(rows.every((r) => r.identities === 1)).toBe(true)
  })

  it('leaves every role something to do', async () => {
    const { rows } = await db.query<{ status: string }>(`select status::text from public.user_rights`)
    const statuses = new Set(rows.map((r) => r.status))
    for (const status of ['pending', 'validated_manager', 'validated_bpo_metier', 'refused_user', 'treatment_required']) {
      expect(statuses).toContain(status)
    }
    const campaigns = await db.query<{ status: string }>(`select status::text from public.campaigns`)
    expect(campaigns.rows.map((c) => c.status).sort()).toEqual(['active', 'completed', 'draft'])
  })
})
