// Live updates on private Broadcast topics: who may join which topic (the policy on realtime.messages, checked the
// way Realtime checks a join: a probe message of the topic, read as the joining person), and what the database sends
// whom when data changes: one message per statement and audience, naming the kinds that changed and never a row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, type Actor } from './support/actors'
import { callers, createApplication, createDraftCampaign, createRight, createUser, decide, expectRefused } from './support/fixtures'

type Person = { id: string; email: string }

let db: Database
let outsider: Person
let leaver: Person

beforeAll(async () => {
  db = await freshDatabase()
  outsider = await createUser(db, { role: 'user' })
  leaver = await createUser(db, { role: 'manager' })
  await db.query(`update public.users set active = false where id = $1`, [leaver.id])
})
afterAll(() => db.close())

class Rollback extends Error {}

/** Whether `actor` may join `topic`: Realtime inserts a probe message of the topic and reads it as the person. */
async function mayJoin(actor: Actor, topic: string): Promise<boolean> {
  const person = typeof actor === 'string' ? (actor in demo ? demo[actor as keyof typeof demo] : null) : actor
  let seen = false
  try {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into realtime.messages (topic, extension, event, private) values ($1, 'broadcast', 'probe', true) returning id::text`,
        [topic],
      )
      const role = person ? 'authenticated' : 'anon'
      const claims = person ? { sub: person.id, email: person.email, role, aud: 'authenticated' } : { role }
      await tx.query(
        `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('realtime.topic', $3, true)`,
        [role, JSON.stringify(claims), topic],
      )
      const visible = await tx.query(`select 1 from realtime.messages where id = $1`, [rows[0]!.id])
      seen = visible.rows.length === 1
      throw new Rollback()
    })
  } catch (error) {
    if (!(error instanceof Rollback)) throw error
  }
  return seen
}

/** The messages the database sent while `act` ran, as "topic kinds". */
async function sentDuring(act: () => Promise<unknown>): Promise<{ topic: string; kinds: string[]; keys: string[]; event: string; private: boolean }[]> {
  await db.query(`delete from realtime.messages`)
  await act()
  const { rows } = await db.query<{ topic: string; payload: { kinds: string[] }; event: string; private: boolean }>(
    `select topic, payload, event, private from realtime.messages order by inserted_at, topic`,
  )
  return rows.map((r) => ({
    topic: r.topic,
    kinds: r.payload.kinds,
    keys: Object.keys(r.payload).sort(),
    event: r.event,
    private: r.private,
  }))
}

describe('who may join a live topic', () => {
  const own = (caller: string) => (caller === 'anon' ? 'user:' + demo.user.id : `user:${demo[caller as keyof typeof demo].id}`)

  it.each(callers)('%s joins their own topic and no one else’s', async (caller) => {
    expect(await mayJoin(caller, own(caller))).toBe(caller !== 'anon')
    expect(await mayJoin(caller, `user:${outsider.id}`)).toBe(false)
  })

  it.each(callers)('%s joins the admin and rssi topics only with that role', async (caller) => {
    expect(await mayJoin(caller, 'admin')).toBe(caller === 'admin')
    expect(await mayJoin(caller, 'rssi')).toBe(caller === 'rssi')
  })

  it('a campaign’s topic is for admin, rssi and the people holding or reviewing one of its items', async () => {
    const topic = `campaign:${campaignIds.active}`
    expect(await mayJoin('admin', topic)).toBe(true)
    expect(await mayJoin('rssi', topic)).toBe(true)
    expect(await mayJoin('manager', topic)).toBe(true)
    expect(await mayJoin('anon', topic)).toBe(false)
    expect(await mayJoin(outsider, topic)).toBe(false)
    expect(await mayJoin('admin', 'campaign:not-a-uuid')).toBe(false)
    expect(await mayJoin('admin', 'everything')).toBe(false)
  })

  it('a deactivated person joins nothing, not even their own topic, whatever token they hold', async () => {
    expect(await mayJoin(leaver, `user:${leaver.id}`)).toBe(false)
  })

  it.each(callers)('%s cannot send on any topic from a client', async (caller) => {
    const topic = caller === 'anon' ? 'admin' : own(caller)
    const outcome = await attempt(db, caller, (tx) =>
      tx.query(`insert into realtime.messages (topic, extension, event, payload, private) values ($1, 'broadcast', 'changed', '{}', true)`, [topic]),
    )
    expectRefused(outcome, '42501')
  })
})

describe('what a change announces, and to whom', () => {
  it('a decision tells the holder, every reviewer of the right, its campaign, admin and rssi, once each', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const app = await createApplication(db)
    const right = await createRight(db, { holder: holder.id, applicationId: app })
    const sent = await sentDuring(async () => expect(await decide(db, 'manager', right, 'validated_manager')).toMatchObject({ ok: true }))
    const rights = sent.filter((m) => m.kinds.includes('user_rights')).map((m) => m.topic).sort()
    expect(rights).toEqual(
      [
        `user:${holder.id}`,
        `user:${demo.manager.id}`,
        `user:${demo.bpo_metier.id}`,
        `user:${demo.bpo_groupe.id}`,
        `user:${demo.ra.id}`,
        `campaign:${campaignIds.active}`,
        'admin',
        'rssi',
      ].sort(),
    )
    // The audit trail's entry: for its readers only.
    expect(sent.filter((m) => m.kinds.includes('audit_logs')).map((m) => m.topic).sort()).toEqual(['admin', 'rssi'])
    for (const message of sent) {
      expect(message.event).toBe('changed')
      expect(message.private).toBe(true)
      // Which kinds changed, and the message's own id: never a row.
      expect(message.keys.filter((key) => key !== 'id')).toEqual(['kinds'])
    }
    expect(sent.some((m) => m.topic === `user:${outsider.id}`)).toBe(false)
  })

  it('a delegate hears of the items they may decide for someone else', async () => {
    const delegate = await createUser(db, { role: 'user' })
    const until = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    await actAs(db, 'manager', (tx) =>
      tx.query(`select public.delegate_review_items($1, $2, 'Congés', $3::date, null)`, [campaignIds.active, delegate.id, until]),
    )
    const holder = await createUser(db, { managerId: demo.manager.id })
    const right = await createRight(db, { holder: holder.id, applicationId: await createApplication(db) })
    const sent = await sentDuring(async () => expect(await decide(db, delegate, right, 'validated_manager')).toMatchObject({ ok: true }))
    expect(sent.map((m) => m.topic)).toContain(`user:${delegate.id}`)
  })

  it('a campaign’s start sends one message per affected person, not one per right', async () => {
    const app = await createApplication(db)
    const holders = [await createUser(db, { managerId: demo.manager.id }), await createUser(db, { managerId: demo.manager.id })]
    for (const holder of holders) for (let i = 0; i < 5; i++) await createRight(db, { holder: holder.id, applicationId: app, campaignId: null })
    const campaign = await createDraftCampaign(db, { applicationId: app })
    const sent = await sentDuring(() =>
      actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign])),
    )
    const rights = sent.filter((m) => m.kinds.includes('user_rights'))
    const perTopic = new Map<string, number>()
    for (const m of rights) perTopic.set(m.topic, (perTopic.get(m.topic) ?? 0) + 1)
    expect(perTopic.get(`user:${holders[0]!.id}`)).toBe(1)
    expect(perTopic.get(`user:${holders[1]!.id}`)).toBe(1)
    expect(perTopic.get(`user:${demo.manager.id}`)).toBe(1)
    expect(perTopic.get(`campaign:${campaign}`)).toBe(1)
    expect(sent.filter((m) => m.kinds.includes('campaigns')).map((m) => m.topic).sort()).toEqual(['admin', `campaign:${campaign}`, 'rssi'])
  })

  it('a rolled-back change announces nothing', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const right = await createRight(db, { holder: holder.id, applicationId: await createApplication(db) })
    const sent = await sentDuring(async () => {
      await actAs(db, 'manager', async (tx) => {
        await tx.query(`select public.validate_user_right($1, 'validated_manager')`, [right])
        throw new Rollback()
      }).catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error
      })
    })
    expect(sent).toEqual([])
  })
})
