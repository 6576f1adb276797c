// Live updates on private Broadcast topics: who may join which topic (the policy on realtime.messages, checked the
// way Realtime checks a join: a probe message of the topic, read as the joining person), and what the database sends
// whom when data changes: one message per transaction and audience, naming the kinds that changed and never a row,
// and on the audiences many watch at once (admin, rssi, a campaign) at most one a second, the rest held for the next.
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
      const claims = person ? { sub: person.id, email: person.email, role, aud: 'authenticated', aal: 'aal2' } : { role }
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

/** As if every throttled topic had been quiet for more than a second. */
const quietSecond = () => db.query(`update private.live_throttled_topics set sent_at = sent_at - interval '1 second'`)

/** The messages the database sent while `act` ran, as "topic kinds", after a quiet second unless told otherwise. */
async function sentDuring(
  act: () => Promise<unknown>,
  options: { quiet?: boolean } = {},
): Promise<{ topic: string; kinds: string[]; keys: string[]; event: string; private: boolean }[]> {
  await db.query(`delete from realtime.messages`)
  if (options.quiet !== false) await quietSecond()
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
  it('a decision tells the holder, every reviewer of the right, its campaign, admin and rssi, in one message each', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const app = await createApplication(db)
    const right = await createRight(db, { holder: holder.id, applicationId: app })
    const sent = await sentDuring(async () => expect(await decide(db, 'manager', right, 'validated_manager')).toMatchObject({ ok: true }))
    expect(sent.map((m) => m.topic).sort()).toEqual(
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
    // The audit trail's entry: for its readers only, in the same message as the right.
    expect(sent.filter((m) => m.kinds.includes('audit_logs')).map((m) => m.topic).sort()).toEqual(['admin', 'rssi'])
    // With whatever the setup changed within the second before, held for this message.
    expect(sent.find((m) => m.topic === 'admin')?.kinds).toEqual(expect.arrayContaining(['audit_logs', 'user_rights']))
    expect(sent.find((m) => m.topic === `user:${holder.id}`)?.kinds).toEqual(['user_rights'])
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
    const perTopic = new Map<string, number>()
    for (const m of sent) perTopic.set(m.topic, (perTopic.get(m.topic) ?? 0) + 1)
    expect([...perTopic.values()].every((count) => count === 1)).toBe(true)
    expect(sent.find((m) => m.topic === `user:${holders[0]!.id}`)?.kinds).toEqual(['user_rights'])
    expect(perTopic.get(`user:${holders[1]!.id}`)).toBe(1)
    expect(perTopic.get(`user:${demo.manager.id}`)).toBe(1)
    for (const topic of ['admin', 'rssi', `campaign:${campaign}`]) {
      expect(sent.find((m) => m.topic === topic)?.kinds).toEqual(expect.arrayContaining(['campaigns', 'user_rights']))
    }
  })

  it('a transaction of many statements sends one message per audience, naming every kind it changed', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const app = await createApplication(db)
    const rights = [] as string[]
    for (let i = 0; i < 4; i++) rights.push(await createRight(db, { holder: holder.id, applicationId: app }))
    const sent = await sentDuring(() =>
      actAs(db, 'manager', async (tx) => {
        for (const right of rights) await tx.query(`select public.validate_user_right($1, 'validated_manager')`, [right])
      }),
    )
    const perTopic = new Map<string, number>()
    for (const m of sent) perTopic.set(m.topic, (perTopic.get(m.topic) ?? 0) + 1)
    expect(perTopic.get(`user:${holder.id}`)).toBe(1)
    expect(perTopic.get('admin')).toBe(1)
    expect(perTopic.get('rssi')).toBe(1)
    expect([...perTopic.values()].every((count) => count === 1)).toBe(true)
    // With whatever the setup changed within the second before, held for this message.
    expect(sent.find((m) => m.topic === 'admin')?.kinds).toEqual(expect.arrayContaining(['audit_logs', 'user_rights']))
  })

  it('a burst holds the admin, rssi and campaign topics to one message a second, and the next one carries the rest', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const rights = [] as string[]
    for (let i = 0; i < 3; i++) rights.push(await createRight(db, { holder: holder.id, applicationId: await createApplication(db) }))
    const decideOne = (right: string) => async () => expect(await decide(db, 'manager', right, 'validated_manager')).toMatchObject({ ok: true })
    const throttled = ['admin', 'rssi', `campaign:${campaignIds.active}`]
    const topicsOf = (sent: { topic: string }[]) => sent.map((m) => m.topic).filter((topic) => throttled.includes(topic)).sort()

    // The first decision after a quiet second is told at once; the holder hears of each decision.
    expect(topicsOf(await sentDuring(decideOne(rights[0]!)))).toEqual([...throttled].sort())
    // Within the second: held, the holder told all the same.
    const held = await sentDuring(decideOne(rights[1]!), { quiet: false })
    expect(topicsOf(held)).toEqual([])
    expect(held.map((m) => m.topic)).toContain(`user:${holder.id}`)
    // A change of another kind within the second is held too, and joins what the next message names.
    const renamed = await sentDuring(
      () => db.query(`update public.users set first_name = first_name where id = $1`, [holder.id]),
      { quiet: false },
    )
    expect(topicsOf(renamed)).toEqual([])
    // Once the second has passed, the next change on the topic carries what was held.
    const next = await sentDuring(decideOne(rights[2]!))
    expect(next.find((m) => m.topic === 'admin')?.kinds).toEqual(['audit_logs', 'user_rights', 'users'])
    expect(next.find((m) => m.topic === 'rssi')?.kinds).toEqual(['audit_logs', 'user_rights', 'users'])
    expect(next.find((m) => m.topic === `campaign:${campaignIds.active}`)?.kinds).toEqual(['user_rights'])
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

  it('sends each statement’s audiences when the commit-time trigger is made immediate, losing none', async () => {
    const holders = [await createUser(db, { managerId: demo.manager.id }), await createUser(db, { managerId: demo.manager.id })]
    const app = await createApplication(db)
    const rights = [await createRight(db, { holder: holders[0]!.id, applicationId: app }), await createRight(db, { holder: holders[1]!.id, applicationId: app })]
    const sent = await sentDuring(() =>
      actAs(db, 'manager', async (tx) => {
        await tx.query('set constraints all immediate')
        for (const right of rights) await tx.query(`select public.validate_user_right($1, 'validated_manager')`, [right])
      }),
    )
    const topics = sent.map((m) => m.topic)
    expect(topics).toContain(`user:${holders[0]!.id}`)
    expect(topics).toContain(`user:${holders[1]!.id}`)
  })

  it('a statement undone by a rollback to a savepoint is not announced; the rest of the transaction is', async () => {
    const [undone, kept] = [await createUser(db, { managerId: demo.manager.id }), await createUser(db, { managerId: demo.manager.id })]
    const app = await createApplication(db)
    const [undoneRight, keptRight] = [await createRight(db, { holder: undone.id, applicationId: app }), await createRight(db, { holder: kept.id, applicationId: app })]
    const sent = await sentDuring(() =>
      actAs(db, 'manager', async (tx) => {
        await tx.query('savepoint before_first')
        await tx.query(`select public.validate_user_right($1, 'validated_manager')`, [undoneRight])
        await tx.query('rollback to savepoint before_first')
        await tx.query(`select public.validate_user_right($1, 'validated_manager')`, [keptRight])
      }),
    )
    const topics = sent.map((m) => m.topic)
    expect(topics).toContain(`user:${kept.id}`)
    expect(topics).not.toContain(`user:${undone.id}`)
    expect(topics.filter((topic) => topic === 'admin')).toHaveLength(1)
  })
})
