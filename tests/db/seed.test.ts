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

  it('gives the started campaigns their items through the workflow, and every decision its item', async () => {
    const { rows } = await db.query<{ campaign_id: string; items: number; decided: number }>(
      `select campaign_id::text, count(*)::int as items, count(*) filter (where status <> 'pending')::int as decided
         from public.campaign_items group by campaign_id order by campaign_id`,
    )
    // Last year's review kept all 17 rights it reviewed, although this quarter's took the standard ones over since.
    expect(rows).toEqual([
      { campaign_id: '00000000-0000-4000-c000-000000000001', items: 17, decided: 17 },
      { campaign_id: '00000000-0000-4000-c000-000000000002', items: 10, decided: 4 },
    ])
    const decisions = await db.query<{ n: number; with_item: number }>(`select count(*)::int as n, count(item_id)::int as with_item from public.right_decisions`)
    expect(decisions.rows[0]!.with_item).toBe(decisions.rows[0]!.n)
  })
})
