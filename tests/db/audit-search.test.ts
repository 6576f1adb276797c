// The audit page's search finds an event by every name its sentence shows (src/features/audit/sentence.ts): the actor,
// the person acted on (the holder of a right decided), the application, the role and the campaign, as they were when
// the event was written. The seed's trail has the decisions of « Revue annuelle 2025 » and of this quarter's review.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, campaignIds, demo, teamMembers } from './support/actors'
import { applicationId, count, one } from './support/fixtures'

let db: Database
let sap: string

beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
})
afterAll(() => db.close())

interface Search {
  search: string
  action?: string
}

/** One page of rssi_audit_events, as the RSSI reads it: by offset, or from the last event received (the export). */
async function page({ search, action }: Search, limit: number, offset: number, beforeId: number | null = null): Promise<number[]> {
  return actAs(db, 'rssi', async (tx) => {
    const { rows } = await tx.query<{ id: number | string }>(
      `select id from public.rssi_audit_events(p_search => $1, p_action => $2, p_limit => $3, p_offset => $4, p_before_id => $5)`,
      [search, action ?? null, limit, offset, beforeId],
    )
    return rows.map((row) => Number(row.id))
  })
}

/** Every id rssi_audit_events returns for a search, newest first, 1000 at a time, and the total of rssi_audit_count. */
async function searched(search: Search): Promise<{ ids: number[]; total: number }> {
  const found: number[] = []
  for (;;) {
    const next = await page(search, 1000, 0, found.at(-1) ?? null)
    found.push(...next)
    if (next.length < 1000) break
  }
  const total = await actAs(db, 'rssi', (tx) =>
    count(tx, `select public.rssi_audit_count(p_search => $1, p_action => $2)`, [search.search, search.action ?? null]),
  )
  return { ids: found, total }
}

/** The events matching a condition on the trail itself, newest first, as the page orders them. */
async function eventsWhere(condition: string, params: unknown[] = []): Promise<number[]> {
  const { rows } = await db.query<{ id: number | string }>(
    `select l.id from public.audit_logs l where ${condition} order by l."timestamp" desc, l.id desc`,
    params,
  )
  return rows.map((row) => Number(row.id))
}

async function expectFound(search: Search, expected: number[]) {
  expect(expected.length, 'the trail has events to find').toBeGreaterThan(0)
  const found = await searched(search)
  expect(found.ids, JSON.stringify(search)).toEqual(expected)
  expect(found.total, JSON.stringify(search)).toBe(expected.length)
}

describe('the audit search finds a decision by the names its sentence shows', () => {
  it('the holder: « Lucas Bonnet » with the action Décision finds his decisions', async () => {
    await expectFound({ search: 'Lucas Bonnet', action: 'decide' }, await eventsWhere(`l.action = 'decide' and l.details ->> 'holder_id' = $1`, [teamMembers.lucas]))
  })

  it('the application: « SAP Finance » finds the decisions on its rights', async () => {
    const decisions = await eventsWhere(`l.action = 'decide' and l.details ->> 'application_id' = $1`, [sap])
    await expectFound({ search: 'SAP Finance', action: 'decide' }, decisions)
    expect((await searched({ search: 'sap finance' })).ids).toEqual(expect.arrayContaining(decisions))
  })

  it('the role: « Approbateur factures » finds the decisions on that right', async () => {
    const { id } = await one<{ id: string }>(db, `select id from public.user_rights where application_id = $1 and role_name = 'Approbateur factures'`, [sap])
    await expectFound({ search: 'Approbateur factures', action: 'decide' }, await eventsWhere(`l.action = 'decide' and l.resource_id = $1`, [id]))
  })

  it('the campaign: « Revue annuelle 2025 » finds the decisions taken in it, its start and its completion', async () => {
    await expectFound(
      { search: 'Revue annuelle 2025', action: 'decide' },
      await eventsWhere(`l.action = 'decide' and l.details ->> 'campaign_id' = $1`, [campaignIds.completed]),
    )
    for (const action of ['start_campaign', 'complete_campaign']) {
      await expectFound({ search: 'revue annuelle 2025', action }, await eventsWhere(`l.action = $1 and l.resource_id = $2`, [action, campaignIds.completed]))
    }
  })

  it('the actor, as before: the manager’s name finds the decisions he took', async () => {
    const { name } = await one<{ name: string }>(db, `select first_name || ' ' || last_name as name from public.users where id = $1`, [demo.manager.id])
    const taken = await eventsWhere(`l.action = 'decide' and l.user_id = $1`, [demo.manager.id])
    expect(taken.length).toBeGreaterThan(0)
    expect((await searched({ search: name, action: 'decide' })).ids).toEqual(expect.arrayContaining(taken))
  })
})

describe('the audit search finds other events by the names their sentences show', () => {
  it('a change to a person, by their name, under the name they had then, and their deletion', async () => {
    const first = `Inès${randomUUID().slice(0, 8)}`
    const { id } = await one<{ id: string }>(
      db,
      `insert into public.users (email, first_name, last_name, role) values ($1, $2, 'Durand', 'user') returning id`,
      [`${first}@example.org`, first],
    )
    await actAs(db, 'admin', (tx) => tx.query(`update public.users set position = 'Intérim' where id = $1`, [id]))
    const positionChange = await eventsWhere(`l.action = 'update' and l.resource_id = $1 and l.details -> 'changes' ? 'position'`, [id])
    await expectFound({ search: `${first} Durand`, action: 'update' }, positionChange)
    await actAs(db, 'admin', (tx) => tx.query(`update public.users set last_name = 'Martin' where id = $1`, [id]))
    const renaming = await eventsWhere(`l.action = 'update' and l.resource_id = $1 and l.details -> 'changes' ? 'last_name'`, [id])
    await expectFound({ search: `${first} Durand`, action: 'update' }, positionChange)
    await expectFound({ search: `${first} Martin`, action: 'update' }, renaming)
    // Deleted, the person is still found by the name the deletion recorded.
    await actAs(db, 'admin', (tx) => tx.query(`delete from public.users where id = $1`, [id]))
    await expectFound({ search: `${first} Martin`, action: 'delete' }, await eventsWhere(`l.action = 'delete' and l.resource_id = $1`, [id]))
  })

  it('more than a thousand events by a name only the search text holds: walked page by page, and counted', async () => {
    const last = `Marche${randomUUID().slice(0, 8)}`
    await db.query(
      `insert into public.users (email, first_name, last_name, role)
       select 'zoe.' || n || '.' || $1 || '@example.org', 'Zoé', $1, 'user' from generate_series(1, 1001) n`,
      [last],
    )
    await db.query(`update public.users set position = 'Stagiaire' where last_name = $1`, [last])
    const expected = await eventsWhere(`l.action = 'update' and l.resource_id in (select id::text from public.users where last_name = $1)`, [last])
    expect(expected).toHaveLength(1001)
    await expectFound({ search: `Zoé ${last}`, action: 'update' }, expected)
    expect(await page({ search: `Zoé ${last}`, action: 'update' }, 100, 900)).toEqual(expected.slice(900, 1000))
  })
})
