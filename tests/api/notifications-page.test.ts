// The « Envois d'e-mails » page's reads through the feature's api modules, with supabase-js signed in over HTTP against
// the local server: the administrator and the RSSI page through every message newest first, filtered and counted on the
// server (checked against rows counted in SQL); a manager reads none of them (row-level security).
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { fetchMessagesPage, fetchOutboxSummary } = await import('@/features/notifications/api')

const backend = testBackendForFile()

beforeAll(async () => {
  // 70 messages an hour apart, the newest first by id too: every 7th given up, every 3rd still waiting, the rest sent.
  await backend.db.query(
    `insert into public.notifications (recipient_email, kind, payload, dedupe_key, status, attempts, last_error, sent_at, created_at)
     select 'destinataire' || g || '@envois.example', 'reminder', jsonb_build_object('campaign_name', 'Revue ' || g, 'recipient_name', 'Personne ' || g),
            'page-test:' || g,
            case when g % 7 = 0 then 'failed' when g % 3 = 0 then 'queued' else 'sent' end::public.notification_status,
            case when g % 7 = 0 then 8 else 1 end,
            case when g % 7 = 0 then 'Connexion refusée' end,
            case when g % 7 <> 0 and g % 3 <> 0 then now() - make_interval(hours => 100 - g) end,
            now() - make_interval(hours => 100 - g)
       from generate_series(1, 70) g`,
  )
})

async function signIn(email: string): Promise<void> {
  session.client = await backend.signedIn(email)
}

const count = async (where: string) => Number((await backend.db.query<{ n: string }>(`select count(*)::text as n from public.notifications where ${where}`)).rows[0]!.n)
const request = { page: 0, size: 25, search: '', filter: 'all' } as const

describe("the page's reads as an administrator", () => {
  beforeAll(() => signIn('admin@example.com'))

  it('pages through every message newest first, with the total of all', async () => {
    const first = await fetchMessagesPage(request)
    expect(first.total).toBe(await count('true'))
    expect(first.rows).toHaveLength(25)
    const times = first.rows.map((row) => Date.parse(row.created_at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const newest = first.rows.find((row) => row.recipient_email === 'destinataire70@envois.example')
    expect(newest).toMatchObject({ recipient_name: 'Personne 70', campaign_name: 'Revue 70', kind: 'reminder', status: 'failed', attempts: 8, last_error: 'Connexion refusée' })
    const second = await fetchMessagesPage({ ...request, page: 1 })
    expect(second.rows).toHaveLength(25)
    expect(second.rows.some((row) => first.rows.some((seen) => seen.id === row.id))).toBe(false)
    expect(Date.parse(second.rows[0]!.created_at)).toBeLessThanOrEqual(times.at(-1)!)
  })

  it('filters by status and searches the address on the server, each with its total', async () => {
    const failed = await fetchMessagesPage({ ...request, filter: 'failed' })
    expect(failed.total).toBe(await count(`status = 'failed'`))
    expect(failed.total).toBeGreaterThanOrEqual(10)
    expect(failed.rows.every((row) => row.status === 'failed')).toBe(true)
    const waiting = await fetchMessagesPage({ ...request, filter: 'waiting' })
    expect(waiting.total).toBe(await count(`status in ('queued', 'sending')`))
    const sent = await fetchMessagesPage({ ...request, filter: 'sent' })
    expect(sent.total).toBe(await count(`status = 'sent'`))
    expect(sent.rows.every((row) => row.status === 'sent' && row.sent_at !== null)).toBe(true)
    const one = await fetchMessagesPage({ ...request, search: 'destinataire42@envois' })
    expect(one.rows.map((row) => row.recipient_email)).toEqual(['destinataire42@envois.example'])
    expect(await fetchOutboxSummary()).toEqual({
      queued: await count(`status = 'queued'`),
      sending: await count(`status = 'sending'`),
      sent: await count(`status = 'sent'`),
      failed: await count(`status = 'failed'`),
    })
  })

  it('reads the same as the RSSI', async () => {
    await signIn('rssi@example.com')
    expect((await fetchMessagesPage(request)).total).toBe(await count('true'))
  })
})

describe("the page's reads as a manager", () => {
  it('find no message and count none', async () => {
    await signIn('manager@example.com')
    expect(await fetchMessagesPage(request)).toEqual({ rows: [], total: 0 })
    expect(await fetchMessagesPage({ ...request, filter: 'failed' })).toEqual({ rows: [], total: 0 })
    expect(await fetchOutboxSummary()).toEqual({ queued: 0, sending: 0, sent: 0, failed: 0 })
  })
})
