// A campaign's reminder days and escalation delay through the campaigns feature's own API module, signed in as the
// demo administrator, against the local server: a value the form would refuse, sent anyway, comes back as a 400 with
// the database's French message (PostgREST's error shape), and a good one is kept while the campaign runs.
import type { SupabaseClient } from '@supabase/supabase-js'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { demo } from '../db/support/actors'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { createCampaign, updateCampaign } = await import('@/features/campaigns/api/save-campaign')

const backend = testBackendForFile()
let client: SupabaseClient
let running: string

beforeAll(async () => {
  client = await backend.signedIn(demo.admin.email)
  session.client = client
  const { rows } = await backend.db.query<{ id: string }>(
    `insert into public.campaigns (name, start_date, end_date) values ('Rappels API', current_date, current_date + 30) returning id`,
  )
  running = rows[0]!.id
  await backend.db.query(`update public.campaigns set status = 'active' where id = $1`, [running])
})

const settings = { notifications_enabled: true, reminders_enabled: true, reminder_days: [7, 3, 1], escalation_delay_days: 0 }

describe("a campaign's reminder settings over the API", () => {
  it.each([
    [{ reminder_days: [5, 5] }, 'Le rappel à 5 jours avant la fin est donné deux fois.'],
    [{ reminder_days: [0] }, 'Un rappel est envoyé de 1 à 365 jours avant la date de fin (0 demandé).'],
    [{ reminder_days: [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1] }, 'Une campagne compte au plus 10 rappels (11 demandés).'],
    [{ escalation_delay_days: 45 }, "Le délai d'escalade est de 0 à 30 jours après la date de fin."],
  ])('answers %j with a 400 in French, and keeps the campaign as it was', async (change, message) => {
    const raw = await client.from('campaigns').update({ ...settings, ...change }).eq('id', running).select('id')
    expect(raw.status).toBe(400)
    expect(raw.error).toMatchObject({ code: '23514', message })
    // The screens' module throws that message as is.
    await expect(updateCampaign(running, { ...settings, ...change })).rejects.toThrow(message)
    const { rows } = await backend.db.query(`select reminder_days, escalation_delay_days from public.campaigns where id = $1`, [running])
    expect(rows[0]).toEqual({ reminder_days: [7, 3, 1], escalation_delay_days: 0 })
  })

  it('refuses a new campaign with bad days the same way', async () => {
    const draft = { name: 'Rappels en double', description: '', application_id: null, account_type: null, start_date: '2027-03-01', end_date: '2027-03-31', recurrence: null, auto_start: false }
    await expect(createCampaign({ ...draft, ...settings, reminder_days: [3, 3] })).rejects.toThrow('Le rappel à 3 jours avant la fin est donné deux fois.')
    const { rows } = await backend.db.query(`select count(*)::int as n from public.campaigns where name = 'Rappels en double'`)
    expect(rows[0]).toEqual({ n: 0 })
  })

  it('keeps good days and a delay on a running campaign', async () => {
    await updateCampaign(running, { ...settings, reminder_days: [14, 2], escalation_delay_days: 5 })
    const { rows } = await backend.db.query(`select reminder_days, escalation_delay_days from public.campaigns where id = $1`, [running])
    expect(rows[0]).toEqual({ reminder_days: [14, 2], escalation_delay_days: 5 })
  })
})
