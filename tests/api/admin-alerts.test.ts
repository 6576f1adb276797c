// The bell of admin and rssi reads rpc('admin_alerts') through the dashboards' api.ts, signed in, against the local
// server: a campaign still active past its end date is counted, and no longer once it is completed.
import { describe, expect, it, vi } from 'vitest'
import { demo } from '../db/support/actors'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { fetchAdminAlerts } = await import('@/features/dashboards/api')

const backend = testBackendForFile()

async function signIn(email: string) {
  session.client = await backend.signedIn(email)
}

/** The campaigns still active whose last day is before today in Paris, counted from the rows. */
async function overdueInDatabase(): Promise<number> {
  const { rows } = await backend.db.query<{ n: number | string }>(
    `select count(*) as n from public.campaigns where status = 'active' and end_date < (now() at time zone 'Europe/Paris')::date`,
  )
  return Number(rows[0]!.n)
}

describe('the bell of admin and rssi, through fetchAdminAlerts', () => {
  it.each([demo.admin.email, demo.rssi.email])('counts, for %s, the campaigns left running past their end date', async (email) => {
    await signIn(email)
    const before = await overdueInDatabase()
    expect(await fetchAdminAlerts()).toEqual({ overdue_campaigns: before })

    const { rows } = await backend.db.query<{ id: string }>(
      `insert into public.campaigns (name, start_date, end_date) values ($1, current_date - 20, current_date - 2) returning id`,
      [`Campagne échue ${email}`],
    )
    const id = rows[0]!.id
    await backend.db.query(`update public.campaigns set status = 'active' where id = $1`, [id])
    expect(await overdueInDatabase()).toBe(before + 1)
    expect(await fetchAdminAlerts()).toEqual({ overdue_campaigns: before + 1 })

    await backend.db.query(`update public.campaigns set status = 'completed' where id = $1`, [id])
    expect(await fetchAdminAlerts()).toEqual({ overdue_campaigns: before })
  })

  it('is refused to anyone else, in French', async () => {
    await signIn(demo.manager.email)
    await expect(fetchAdminAlerts()).rejects.toThrow('Seuls les administrateurs et le RSSI reçoivent ces alertes.')
  })
})
