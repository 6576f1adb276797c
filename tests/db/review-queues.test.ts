// Reviews seen from each person: the queue of rights awaiting the caller's decision, its count, the manager's
// team progress and counters, a person's decision history and the user's deadline. Each queue is checked three ways:
// against ARCHITECTURE §4 read independently here over the data the test made, against validate_user_right itself
// (every right in a queue is accepted, every other right is refused), and page by page past the API's 1000 rows.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, isabelle, type Actor, type DemoRole } from './support/actors'
import {
  allStatuses,
  applicationId,
  count,
  createApplication,
  createDraftCampaign,
  createRight,
  createUser,
  decide,
  expectRefused,
  one,
  unique,
} from './support/fixtures'

let db: Database
let sap: string

beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
})
afterAll(() => db.close())

// ─── ARCHITECTURE §4, read independently of the database ────────────────────────────────────────────────────────────

type Stage = 'user' | 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'
const refusedStates = ['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe']
// Each stage: the statuses that wait for its reviewer, and the statuses their approval and refusal set.
const stages: Record<Stage, { waiting: string[]; approve: string; refuse: string }> = {
  user: { waiting: ['pending'], approve: 'validated_user', refuse: 'refused_user' },
  manager: { waiting: ['pending', 'validated_user'], approve: 'validated_manager', refuse: 'refused_manager' },
  bpo_metier: { waiting: ['validated_manager'], approve: 'validated_bpo_metier', refuse: 'refused_bpo_metier' },
  bpo_groupe: { waiting: ['validated_bpo_metier'], approve: 'validated_bpo_groupe', refuse: 'refused_bpo_groupe' },
  ra: { waiting: [...refusedStates, 'treatment_required'], approve: 'treated', refuse: 'treatment_required' },
}

interface Person {
  id: string
  email: string
  role: string
}

interface WorldRight {
  id: string
  holder: string
  holder_manager: string | null
  ra: string
  bpo_metier: string
  bpo_groupe: string | null
  application_id: string
  campaign_id: string | null
  status: string
  campaign_status: string | null
}

async function worldRights(where = 'true', params: unknown[] = []): Promise<WorldRight[]> {
  const { rows } = await db.query<WorldRight>(
    `select ur.id::text, ur.user_id::text as holder, h.manager_id::text as holder_manager, a.ra_id::text as ra,
            a.bpo_metier_id::text as bpo_metier, a.bpo_groupe_id::text as bpo_groupe, ur.application_id::text,
            ur.campaign_id::text, ur.status::text, c.status::text as campaign_status
       from public.user_rights ur
       join public.users h on h.id = ur.user_id
       join public.applications a on a.id = ur.application_id
       left join public.campaigns c on c.id = ur.campaign_id
      where ${where}`,
    params,
  )
  return rows
}

/** The rights a person may decide on now, by ARCHITECTURE §4: stage from role, scope, state, running campaign. */
function decidable(rights: WorldRight[], person: Person): Set<string> {
  if (!(person.role in stages)) return new Set()
  const stage = person.role as Stage
  const me = person.id
  return new Set(
    rights
      .filter((r) => {
        if (stage !== 'user' && r.holder === me) return false
        const inScope = {
          user: r.holder === me,
          manager: r.holder_manager === me,
          bpo_metier: r.bpo_metier === me,
          bpo_groupe: r.bpo_groupe === me,
          ra: r.ra === me,
        }[stage]
        if (!inScope || !stages[stage].waiting.includes(r.status)) return false
        return stage === 'ra' || r.campaign_status === 'active'
      })
      .map((r) => r.id),
  )
}

// ─── Calling the queue as the API would ─────────────────────────────────────────────────────────────────────────────

interface QueueRow {
  right_id: string
  holder_id: string
  holder_name: string
  holder_email: string
  holder_position: string | null
  application_id: string
  application_name: string
  role_name: string
  account_type: string
  status: string
  granted_at: string
  last_used_at: string | null
  campaign_id: string | null
  campaign_name: string | null
  campaign_status: string | null
  campaign_end_date: string | null
  stage: string
  approve_status: string | null
  refuse_status: string | null
  days_unused: number | null
  suggests_refusal: boolean
  recommendation: string | null
  now_ms: number
}

interface QueueFilters {
  campaignId?: string | null
  applicationId?: string | null
  status?: string | null
}

const queueColumns = `right_id::text, holder_id::text, holder_name, holder_email, holder_position, application_id::text,
  application_name, role_name, account_type::text, status::text, granted_at::text, last_used_at::text, campaign_id::text,
  campaign_name, campaign_status::text, campaign_end_date::text, stage::text, approve_status::text, refuse_status::text,
  days_unused, suggests_refusal, recommendation, (extract(epoch from now()) * 1000)::float8 as now_ms`

function queuePage(tx: Sql, filters: QueueFilters, afterId: string | null, limit = 1000) {
  return tx.query<QueueRow>(`select ${queueColumns} from public.review_queue($1, $2, $3::public.right_status, $4, $5)`, [
    filters.campaignId ?? null,
    filters.applicationId ?? null,
    filters.status ?? null,
    afterId,
    limit,
  ])
}

/** Every page of the caller's queue, each asked after the last right of the one before, as the screen pages it. */
async function fullQueue(actor: Actor, filters: QueueFilters = {}, limit = 1000): Promise<{ rows: QueueRow[]; pages: number[] }> {
  const rows: QueueRow[] = []
  const pages: number[] = []
  let after: string | null = null
  for (;;) {
    const page = await actAs(db, actor, (tx) => queuePage(tx, filters, after, limit))
    pages.push(page.rows.length)
    rows.push(...page.rows)
    if (page.rows.length < limit) return { rows, pages }
    after = page.rows[page.rows.length - 1]!.right_id
  }
}

function queueCount(actor: Actor, filters: QueueFilters = {}): Promise<number> {
  return actAs(db, actor, (tx) =>
    count(tx, `select public.review_queue_count($1, $2, $3::public.right_status)`, [
      filters.campaignId ?? null,
      filters.applicationId ?? null,
      filters.status ?? null,
    ]),
  )
}

/** The rights among `ids` on which validate_user_right accepts `status` from the caller; nothing is kept. */
async function accepted(actor: Actor, ids: string[], status: string): Promise<Set<string>> {
  const yes = new Set<string>()
  await actAs(db, actor, async (tx) => {
    for (const id of ids) {
      await tx.query('savepoint probe')
      try {
        await tx.query(`select public.validate_user_right($1, $2::public.right_status)`, [id, status])
        yes.add(id)
      } catch {
        // Refused: the reason is validate_user_right's own business here.
      }
      await tx.query('rollback to savepoint probe')
    }
  })
  return yes
}

/** Carries a right through real decisions, each by the given person. */
async function carry(rightId: string, steps: [Actor, string][]): Promise<void> {
  for (const [actor, status] of steps) {
    const outcome = await decide(db, actor, rightId, status)
    if (!outcome.ok) throw new Error(`${JSON.stringify(actor)} → ${status}: ${outcome.message}`)
  }
}

function sorted(ids: Iterable<string>): string[] {
  return [...ids].sort()
}

// ─── The world ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** Who decides at each stage on a right, and how a right gets to each status through them. */
interface Deciders {
  user: Actor
  manager: Actor
  bpo_metier: Actor
  bpo_groupe: Actor
  ra: Actor
}
function pathTo(status: string, d: Deciders): [Actor, string][] {
  const toManager: [Actor, string][] = [[d.manager, 'validated_manager']]
  const toBpoMetier: [Actor, string][] = [...toManager, [d.bpo_metier, 'validated_bpo_metier']]
  const paths: Record<string, [Actor, string][]> = {
    pending: [],
    validated_user: [[d.user, 'validated_user']],
    refused_user: [[d.user, 'refused_user']],
    validated_manager: toManager,
    refused_manager: [[d.manager, 'refused_manager']],
    validated_bpo_metier: toBpoMetier,
    refused_bpo_metier: [...toManager, [d.bpo_metier, 'refused_bpo_metier']],
    validated_bpo_groupe: [...toBpoMetier, [d.bpo_groupe, 'validated_bpo_groupe']],
    refused_bpo_groupe: [...toBpoMetier, [d.bpo_groupe, 'refused_bpo_groupe']],
    treatment_required: [[d.user, 'refused_user'], [d.ra, 'treatment_required']],
    treated: [[d.user, 'refused_user'], [d.ra, 'treated']],
  }
  const path = paths[status]
  if (!path) throw new Error(`no path to ${status}`)
  return path
}

describe('the reviewer queue of each role', () => {
  // Demo reviewers, and a second set with an application and a team of their own, so that every scope is a strict
  // part of the data; two reviewers who hold rights in their own scope; rights in a draft, in no campaign and in a
  // completed campaign.
  const people: Record<string, Person> = {}
  let outsiderApp: string
  let bpoOwnApp: string
  let raOwnApp: string
  let completedCampaign: string
  let rights: WorldRight[]
  const named: Record<string, string> = {}

  beforeAll(async () => {
    for (const role of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi'] as const) {
      people[role] = { ...demo[role], role }
    }
    const otherManager = await createUser(db, { role: 'manager', managerId: isabelle })
    const outsider = await createUser(db, { role: 'user', managerId: otherManager.id })
    const otherBpo = await createUser(db, { role: 'bpo_metier' })
    const otherBpoGroupe = await createUser(db, { role: 'bpo_groupe' })
    const otherRa = await createUser(db, { role: 'ra' })
    const bpoHolder = await createUser(db, { role: 'bpo_metier', managerId: demo.manager.id })
    const raHolder = await createUser(db, { role: 'ra', managerId: demo.manager.id })
    Object.assign(people, {
      otherManager: { ...otherManager, role: 'manager' },
      outsider: { ...outsider, role: 'user' },
      otherBpo: { ...otherBpo, role: 'bpo_metier' },
      otherBpoGroupe: { ...otherBpoGroupe, role: 'bpo_groupe' },
      otherRa: { ...otherRa, role: 'ra' },
      bpoHolder: { ...bpoHolder, role: 'bpo_metier' },
      raHolder: { ...raHolder, role: 'ra' },
    })
    outsiderApp = await createApplication(db, { ra: otherRa.id, bpoMetier: otherBpo.id, bpoGroupe: otherBpoGroupe.id, rssi: null })
    bpoOwnApp = await createApplication(db, { bpoMetier: bpoHolder.id })
    raOwnApp = await createApplication(db, { ra: raHolder.id })

    const demoDeciders: Deciders = { user: 'user', manager: 'manager', bpo_metier: 'bpo_metier', bpo_groupe: 'bpo_groupe', ra: 'ra' }
    const outsiderDeciders: Deciders = { ...demoDeciders, user: outsider, manager: otherManager }
    for (const status of allStatuses) {
      // The demo user's rights on a demo application and on the other application, in the running campaign.
      const onSap = await createRight(db, { applicationId: sap })
      await carry(onSap, pathTo(status, demoDeciders))
      named[`user/sap/${status}`] = onSap
      const onOther = await createRight(db, { applicationId: outsiderApp })
      await carry(onOther, pathTo(status, { ...demoDeciders, bpo_metier: otherBpo, bpo_groupe: otherBpoGroupe, ra: otherRa }))
      named[`user/other/${status}`] = onOther
      // Someone else's team, on a demo application.
      const outsiders = await createRight(db, { holder: outsider.id, applicationId: sap })
      await carry(outsiders, pathTo(status, outsiderDeciders))
      named[`outsider/sap/${status}`] = outsiders
    }

    // Reviewers holding rights in their own scope.
    const bpoOwn = await createRight(db, { holder: bpoHolder.id, applicationId: bpoOwnApp })
    await carry(bpoOwn, [['manager', 'validated_manager']])
    const bpoSap = await createRight(db, { holder: bpoHolder.id, applicationId: sap })
    await carry(bpoSap, [['manager', 'validated_manager']])
    const raOwn = await createRight(db, { holder: raHolder.id, applicationId: raOwnApp })
    await carry(raOwn, [['manager', 'refused_manager']])
    const raPending = await createRight(db, { holder: raHolder.id, applicationId: raOwnApp })
    // ...and rights of others in that same scope, which they do decide.
    const bpoOthers = await createRight(db, { applicationId: bpoOwnApp })
    await carry(bpoOthers, [['manager', 'validated_manager']])
    const raOthers = await createRight(db, { applicationId: raOwnApp })
    await carry(raOthers, [['user', 'refused_user']])
    Object.assign(named, {
      'bpoHolder/own': bpoOwn, 'bpoHolder/sap': bpoSap, 'bpoHolder/others': bpoOthers,
      'raHolder/own': raOwn, 'raHolder/pending': raPending, 'raHolder/others': raOthers,
    })

    // Outside any running campaign: a draft's, no campaign's.
    named['draft'] = await createRight(db, { applicationId: sap, campaignId: await createDraftCampaign(db) })
    named['none'] = await createRight(db, { applicationId: sap, campaignId: null })

    // A completed campaign on an application of its own: what was refused or left undecided stays with the RA.
    const completedApp = await createApplication(db)
    completedCampaign = await createDraftCampaign(db, { applicationId: completedApp })
    const left: string[] = []
    for (let i = 0; i < 4; i++) left.push(await createRight(db, { applicationId: completedApp, campaignId: null }))
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [completedCampaign]))
    await carry(left[0]!, [['user', 'refused_user']])
    await carry(left[1]!, [['manager', 'validated_manager']])
    await carry(left[3]!, pathTo('validated_bpo_groupe', demoDeciders))
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [completedCampaign]))
    Object.assign(named, { 'completed/refused': left[0], 'completed/sent': left[1], 'completed/pending': left[2], 'completed/final': left[3] })

    rights = await worldRights()
  })

  const everyone = ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi', 'otherManager', 'outsider', 'otherBpo', 'otherBpoGroupe', 'otherRa', 'bpoHolder', 'raHolder']

  it.each(everyone)('%s: the queue is exactly the rights ARCHITECTURE §4 lets them decide now', async (who) => {
    const person = people[who]!
    const expected = decidable(rights, person)
    const { rows } = await fullQueue(person)
    expect(sorted(rows.map((r) => r.right_id))).toEqual(sorted(expected))
    expect(new Set(rows.map((r) => r.right_id)).size).toBe(rows.length)
    expect(await queueCount(person)).toBe(expected.size)
    if (person.role in stages) {
      expect(expected.size, 'every reviewer has something to do').toBeGreaterThan(0)
      expect(rows.every((r) => r.stage === person.role)).toBe(true)
    } else {
      expect(rows).toEqual([])
    }
  })

  it.each(everyone.filter((w) => !['admin', 'rssi'].includes(w)))(
    '%s: validate_user_right accepts every right of the queue and refuses every other right',
    async (who) => {
      const person = people[who]!
      const stage = person.role as Stage
      const queued = new Set((await fullQueue(person)).rows.map((r) => r.right_id))
      const ids = rights.map((r) => r.id)
      expect(sorted(await accepted(person, ids, stages[stage].approve))).toEqual(sorted(queued))
      // Refusing is accepted on the same rights, except those the RA may only close.
      const refusable = new Set([...queued].filter((id) => !(stage === 'ra' && rights.find((r) => r.id === id)!.status === 'treatment_required')))
      expect(sorted(await accepted(person, [...queued], stages[stage].refuse))).toEqual(sorted(refusable))
    },
  )

  it('tells for each right what each button gives: the RA may only close what already awaits treatment', async () => {
    const { rows } = await fullQueue(people.ra!)
    for (const row of rows) {
      expect(row.approve_status).toBe('treated')
      expect(row.refuse_status).toBe(row.status === 'treatment_required' ? null : 'treatment_required')
    }
    expect(rows.some((r) => r.status === 'treatment_required')).toBe(true)
    const manager = await fullQueue(people.manager!)
    expect(manager.rows.every((r) => r.approve_status === 'validated_manager' && r.refuse_status === 'refused_manager')).toBe(true)
  })

  it('keeps each reviewer to their scope: another team, another application, their own rights', async () => {
    const ids = async (who: string) => new Set((await fullQueue(people[who]!)).rows.map((r) => r.right_id))
    const manager = await ids('manager')
    expect(manager.has(named['user/sap/pending']!)).toBe(true)
    expect(manager.has(named['outsider/sap/pending']!)).toBe(false)
    expect(manager.has(named['raHolder/pending']!)).toBe(true)
    const otherManager = await ids('otherManager')
    expect(otherManager.has(named['outsider/sap/pending']!)).toBe(true)
    expect(otherManager.has(named['user/sap/pending']!)).toBe(false)

    const bpo = await ids('bpo_metier')
    expect(bpo.has(named['user/sap/validated_manager']!)).toBe(true)
    expect(bpo.has(named['outsider/sap/validated_manager']!)).toBe(true)
    expect(bpo.has(named['user/other/validated_manager']!)).toBe(false)
    expect(bpo.has(named['bpoHolder/sap']!)).toBe(true)
    const otherBpo = await ids('otherBpo')
    expect(otherBpo.has(named['user/other/validated_manager']!)).toBe(true)
    expect(otherBpo.has(named['user/sap/validated_manager']!)).toBe(false)

    // Nobody decides at the BPO or RA stage on a right they hold.
    expect(sorted(await ids('bpoHolder'))).toEqual([named['bpoHolder/others']])
    expect(sorted(await ids('raHolder'))).toEqual([named['raHolder/others']])
    const bpoHolderSees = await actAs(db, people.bpoHolder!, (tx) => count(tx, `select count(*) from public.user_rights where id = $1`, [named['bpoHolder/own']]))
    expect(bpoHolderSees, 'they can read it, but not decide on it').toBe(1)
  })

  it('leaves out rights outside a running campaign, except for the RA, who treats after completion', async () => {
    for (const who of ['user', 'manager']) {
      const ids = new Set((await fullQueue(people[who]!)).rows.map((r) => r.right_id))
      for (const key of ['draft', 'none', 'completed/pending']) expect(ids.has(named[key]!), `${who} ${key}`).toBe(false)
    }
    const ra = (await fullQueue(people.ra!)).rows
    const byId = new Map(ra.map((r) => [r.right_id, r]))
    expect(byId.get(named['completed/refused']!)).toMatchObject({ status: 'refused_user', campaign_status: 'completed' })
    expect(byId.get(named['completed/sent']!)).toMatchObject({ status: 'treatment_required', refuse_status: null })
    expect(byId.get(named['completed/pending']!)).toMatchObject({ status: 'treatment_required', refuse_status: null })
    expect(byId.has(named['completed/final']!)).toBe(false)
  })

  it.each(['bpo_metier', 'bpo_groupe', 'ra', 'manager', 'admin'])(
    '%s: the queue summed per campaign and stage gives what the queue holds, and adds up to the bell',
    async (who) => {
      const person = people[who]!
      const { rows } = await fullQueue(person)
      const expected = new Map<string, number>()
      for (const row of rows) {
        const key = `${row.campaign_id}|${row.stage}`
        expected.set(key, (expected.get(key) ?? 0) + 1)
      }
      const summary = await actAs(db, person, async (tx) =>
        (await tx.query<{ campaign_id: string | null; campaign_status: string | null; end_date: string | null; stage: string; rights_count: number }>(
          `select campaign_id::text, campaign_status::text, end_date::text, stage::text, rights_count from public.review_queue_summary()`,
        )).rows,
      )
      expect(new Map(summary.map((row) => [`${row.campaign_id}|${row.stage}`, row.rights_count]))).toEqual(expected)
      expect(summary.reduce((total, row) => total + row.rights_count, 0)).toBe(await queueCount(person))
      // The nearest deadline first, as the dashboard shows it.
      const ends = summary.map((row) => row.end_date ?? '9999-12-31')
      expect(ends).toEqual([...ends].sort())
      // The RA's queue spans the running campaign and completed ones, each on its own row.
      if (who === 'ra') {
        expect(summary.map((row) => row.campaign_id)).toEqual(expect.arrayContaining([campaignIds.active, completedCampaign]))
        expect(summary.find((row) => row.campaign_id === completedCampaign)?.campaign_status).toBe('completed')
      }
    },
  )

  it('filters by campaign, application and status, each and together', async () => {
    const cases: [string, QueueFilters, (r: WorldRight) => boolean][] = [
      ['ra', { campaignId: completedCampaign }, (r) => r.campaign_id === completedCampaign],
      ['ra', { campaignId: campaignIds.active }, (r) => r.campaign_id === campaignIds.active],
      ['ra', { status: 'treatment_required' }, (r) => r.status === 'treatment_required'],
      ['ra', { applicationId: sap, status: 'refused_user' }, (r) => r.application_id === sap && r.status === 'refused_user'],
      ['manager', { status: 'validated_user' }, (r) => r.status === 'validated_user'],
      ['manager', { applicationId: raOwnApp }, (r) => r.application_id === raOwnApp],
      ['bpo_metier', { applicationId: outsiderApp }, () => false],
      ['manager', { status: 'validated_manager' }, () => false],
    ]
    for (const [who, filters, keep] of cases) {
      const expected = [...decidable(rights, people[who]!)].filter((id) => keep(rights.find((r) => r.id === id)!))
      const { rows } = await fullQueue(people[who]!, filters)
      expect(sorted(rows.map((r) => r.right_id)), `${who} ${JSON.stringify(filters)}`).toEqual(sorted(expected))
      expect(await queueCount(people[who]!, filters)).toBe(expected.length)
    }
  })
})

describe('what the queue says about each right', () => {
  it('names the holder, the application, the role and the campaign, with the inactivity recommendation', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    await db.query(`update public.users set position = 'Analyste' where id = $1`, [holder.id])
    const app = await createApplication(db)
    const cases = [
      { key: 'never', lastUsed: null, days: null, suggests: true, reason: 'Jamais utilisé' },
      { key: 'old', lastUsed: `now() - interval '140 days 3 hours'`, days: 140, suggests: true, reason: 'Inutilisé depuis 140 jours' },
      { key: 'edge', lastUsed: `now() - interval '90 days 1 hour'`, days: 90, suggests: true, reason: 'Inutilisé depuis 90 jours' },
      { key: 'recent', lastUsed: `now() - interval '89 days 23 hours'`, days: 89, suggests: false, reason: null },
      { key: 'fresh', lastUsed: `now() - interval '3 days'`, days: 3, suggests: false, reason: null },
    ]
    const ids: Record<string, string> = {}
    for (const c of cases) {
      ids[c.key] = await createRight(db, { holder: holder.id, applicationId: app, accountType: 'privileged', roleName: `Rôle ${c.key}` })
      await db.query(`update public.user_rights set granted_at = '2024-03-15T10:00:00Z', last_used_at = ${c.lastUsed ?? 'null'} where id = $1`, [ids[c.key]])
    }
    const { rows } = await fullQueue('manager', { applicationId: app })
    expect(rows).toHaveLength(cases.length)
    const { name, email } = await one<{ name: string; email: string }>(db, `select first_name || ' ' || last_name as name, email from public.users where id = $1`, [holder.id])
    const appName = (await one<{ name: string }>(db, `select name from public.applications where id = $1`, [app])).name
    const campaign = await one<{ name: string; end_date: string }>(db, `select name, end_date::text from public.campaigns where id = $1`, [campaignIds.active])
    for (const c of cases) {
      const row = rows.find((r) => r.right_id === ids[c.key])
      expect(row, c.key).toMatchObject({
        holder_id: holder.id,
        holder_name: name,
        holder_email: email,
        holder_position: 'Analyste',
        application_id: app,
        application_name: appName,
        role_name: `Rôle ${c.key}`,
        account_type: 'privileged',
        status: 'pending',
        campaign_id: campaignIds.active,
        campaign_name: campaign.name,
        campaign_status: 'active',
        campaign_end_date: campaign.end_date,
        stage: 'manager',
        approve_status: 'validated_manager',
        refuse_status: 'refused_manager',
        days_unused: c.days,
        suggests_refusal: c.suggests,
        recommendation: c.reason,
      })
      expect(new Date(row!.granted_at).toISOString()).toBe('2024-03-15T10:00:00.000Z')
      expect(row!.last_used_at === null).toBe(c.lastUsed === null)
    }
  })
})

// ─── Paging past the API's 1000 rows ─────────────────────────────────────────────────────────────────────────────────

describe('a queue of more than 1000 rights', () => {
  let lead: Person
  let member: Person
  let app: string
  let expected: string[]

  beforeAll(async () => {
    lead = { ...(await createUser(db, { role: 'manager', managerId: isabelle })), role: 'manager' }
    member = { ...(await createUser(db, { role: 'user', managerId: lead.id })), role: 'user' }
    const owner = await createUser(db, { role: 'bpo_metier' })
    const ra = await createUser(db, { role: 'ra' })
    app = await createApplication(db, { bpoMetier: owner.id, ra: ra.id, bpoGroupe: null, rssi: null })
    // 1,234 pending and 300 validated by the holder, in the running campaign; 40 the manager already decided; 25 in no
    // campaign. Last uses spread over never, long ago and lately.
    await db.query(
      `insert into public.user_rights (user_id, application_id, role_name, status, campaign_id, last_used_at)
       select $1, $2, 'Rôle en masse ' || g,
              (case when g <= 1234 then 'pending' when g <= 1534 then 'validated_user' when g <= 1574 then 'validated_manager' else 'pending' end)::public.right_status,
              case when g <= 1574 then $3::uuid end,
              case g % 3 when 0 then null when 1 then now() - (g % 200) * interval '1 day' else now() - interval '2 hours' end
         from generate_series(1, 1599) g`,
      [member.id, app, campaignIds.active],
    )
    expected = (await worldRights(`ur.application_id = $1 and ur.campaign_id is not null and ur.status in ('pending', 'validated_user')`, [app])).map((r) => r.id)
    expect(expected).toHaveLength(1534)
  })

  it('pages the manager’s queue 1000 rights at a time, in right id order, without gaps or repeats', async () => {
    const { rows, pages } = await fullQueue(lead)
    expect(pages).toEqual([1000, 534])
    const ids = rows.map((r) => r.right_id)
    expect(ids).toEqual([...ids].sort())
    expect(new Set(ids).size).toBe(ids.length)
    expect(sorted(ids)).toEqual(sorted(expected))
    expect(await queueCount(lead)).toBe(1534)
    expect(await queueCount(lead, { status: 'validated_user' })).toBe(300)
    expect(await queueCount(lead, { status: 'pending', applicationId: app, campaignId: campaignIds.active })).toBe(1234)
  })

  it('pages by any size from 1 to 1000, and refuses other sizes in French', async () => {
    const { rows, pages } = await fullQueue(lead, { status: 'validated_user' }, 120)
    expect(pages).toEqual([120, 120, 60])
    expect(rows).toHaveLength(300)
    for (const size of [0, 1001, null]) {
      const outcome = await attempt(db, lead, (tx) => tx.query(`select * from public.review_queue(p_limit => $1)`, [size]))
      expectRefused(outcome, '22023', /^La taille de page doit être comprise entre 1 et 1000\.$/)
    }
  })

  it('gives the holder their own 1,234 pending rights, with the recommendation computed at the same instant', async () => {
    const { rows, pages } = await fullQueue(member)
    expect(pages).toEqual([1000, 234])
    const mine = await worldRights(`ur.user_id = $1 and ur.campaign_id is not null and ur.status = 'pending'`, [member.id])
    expect(sorted(rows.map((r) => r.right_id))).toEqual(sorted(mine.map((r) => r.id)))
    const lastUse = new Map(
      (
        await db.query<{ id: string; ms: number | null }>(
          `select id::text, (extract(epoch from last_used_at) * 1000)::float8 as ms from public.user_rights where user_id = $1`,
          [member.id],
        )
      ).rows.map((r) => [r.id, r.ms]),
    )
    const day = 86_400_000
    for (const row of rows) {
      const last = lastUse.get(row.right_id) ?? null
      const elapsed = last === null ? null : row.now_ms - last
      const days = elapsed === null ? null : Math.floor(elapsed / day)
      const suggests = elapsed === null || elapsed > 90 * day
      expect(row.days_unused).toBe(days)
      expect(row.suggests_refusal).toBe(suggests)
      expect(row.recommendation).toBe(days === null ? 'Jamais utilisé' : suggests ? `Inutilisé depuis ${days} jours` : null)
    }
    expect(rows.filter((r) => r.recommendation === 'Jamais utilisé').length).toBeGreaterThan(300)
    expect(rows.filter((r) => r.recommendation?.startsWith('Inutilisé depuis')).length).toBeGreaterThan(100)
  })
})

// ─── Paging when candidates are turned down ─────────────────────────────────────────────────────────────────────────

describe('a queue whose candidates are turned down in long runs', () => {
  // review_queue judges the candidates (rights of the team in a waiting state) a slice at a time in right id order. Here
  // the ids are chosen so that long runs of candidates the verdict turns down (in no campaign, in a draft) sit between
  // the rights of the queue, longer than any slice, and pages of every size must still give the verdict's rights: each
  // once, in order, nothing after a run left out.
  let lead: Person
  let expected: string[]

  beforeAll(async () => {
    lead = { ...(await createUser(db, { role: 'manager', managerId: isabelle })), role: 'manager' }
    const member = await createUser(db, { role: 'user', managerId: lead.id })
    const app = await createApplication(db)
    const draft = await createDraftCampaign(db)
    // Right g's id ends in g (hexadecimal), so id order is g's order: 1–30 and 261–300 wait in the running campaign
    // (validated by the holder from 281 on), 31–260 are pending outside it (no campaign, then a draft), 301–340
    // alternate between the two.
    await db.query(
      `insert into public.user_rights (id, user_id, application_id, role_name, status, campaign_id)
       select ('7e570000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, $1, $2, 'Rôle en file ' || g,
              (case when g between 281 and 300 then 'validated_user' else 'pending' end)::public.right_status,
              case
                when g <= 30 or g between 261 and 300 or (g > 300 and g % 2 = 0) then $3::uuid
                when g <= 150 then null
                else $4::uuid
              end
         from generate_series(1, 340) g`,
      [member.id, app, campaignIds.active, draft],
    )
    expected = await actAs(db, lead, async (tx) =>
      (await tx.query<{ right_id: string }>(`select right_id::text from private.review_verdicts where refusal is null order by right_id`)).rows.map(
        (row) => row.right_id,
      ),
    )
    expect(expected).toHaveLength(30 + 40 + 20)
  })

  it.each([1, 7, 29, 100, 1000])('pages of %i give the verdict’s rights in order, each once, every page full but the last', async (size) => {
    const { rows, pages } = await fullQueue(lead, {}, size)
    expect(rows.map((row) => row.right_id)).toEqual(expected)
    expect(pages.slice(0, -1).every((length) => length === size)).toBe(true)
    expect(pages.at(-1)).toBe(expected.length % size)
  })

  it('gives small pages the same rows, column for column, as one page that judges every candidate at once', async () => {
    const whole = (await fullQueue(lead, {}, 1000)).rows
    const paged = (await fullQueue(lead, {}, 7)).rows
    const withoutClock = (row: QueueRow) => ({ ...row, now_ms: 0 })
    expect(paged.map(withoutClock)).toEqual(whole.map(withoutClock))
  })

  it('pages a filtered queue past the runs too: the rights validated by the holder only', async () => {
    const { rows } = await fullQueue(lead, { status: 'validated_user' }, 3)
    const serial = (id: string) => parseInt(id.slice(-12), 16)
    expect(rows.map((row) => row.right_id)).toEqual(expected.filter((id) => serial(id) >= 281 && serial(id) <= 300))
    expect(await queueCount(lead, { status: 'validated_user' })).toBe(20)
    expect(await queueCount(lead)).toBe(expected.length)
  })
})

// ─── The manager's team ─────────────────────────────────────────────────────────────────────────────────────────────

interface TeamRow {
  user_id: string
  full_name: string
  position: string | null
  rights_count: number
  pending_count: number
  validated_count: number
  refused_count: number
  treatment_required_count: number
  treated_count: number
  progress: number | null
}

/** The parts a screen shows beside a total of rights: they must add up to it. */
const PARTS = ['pending_count', 'validated_count', 'refused_count', 'treatment_required_count', 'treated_count'] as const
const sumOfParts = (row: Pick<TeamRow, (typeof PARTS)[number]>) => PARTS.reduce((total, part) => total + row[part], 0)

describe('the manager’s team', () => {
  let lead: Person
  const members: Record<string, Person> = {}
  // What each member holds, by status, and in which campaign.
  const holdings: Record<string, { campaign: 'active' | 'none'; counts: Record<string, number> }> = {
    alice: { campaign: 'active', counts: { pending: 5, validated_user: 3, validated_manager: 2, refused_manager: 4, treated: 1 } },
    bruno: { campaign: 'none', counts: { validated_bpo_groupe: 7, refused_user: 2, treatment_required: 3 } },
    chloe: { campaign: 'active', counts: { pending: 1100, validated_user: 50, refused_bpo_metier: 6, validated_bpo_metier: 9 } },
    denis: { campaign: 'active', counts: {} },
  }

  function expectedFor(counts: Record<string, number>) {
    const total = Object.values(counts).reduce((a, b) => a + b, 0)
    const sum = (test: (s: string) => boolean) => Object.entries(counts).filter(([s]) => test(s)).reduce((a, [, n]) => a + n, 0)
    const pending = sum((s) => s === 'pending')
    return {
      rights_count: total,
      pending_count: pending,
      validated_count: sum((s) => s.includes('validated')),
      refused_count: sum((s) => s.includes('refused')),
      treatment_required_count: sum((s) => s === 'treatment_required'),
      treated_count: sum((s) => s === 'treated'),
      progress: total === 0 ? null : Math.round((100 * (total - pending)) / total),
    }
  }

  beforeAll(async () => {
    lead = { ...(await createUser(db, { role: 'manager', managerId: isabelle })), role: 'manager' }
    const app = await createApplication(db)
    for (const [name, holding] of Object.entries(holdings)) {
      const person = await createUser(db, { role: 'user', managerId: lead.id })
      await db.query(`update public.users set position = $2 where id = $1`, [person.id, `Poste ${name}`])
      members[name] = { ...person, role: 'user' }
      for (const [status, n] of Object.entries(holding.counts)) {
        await db.query(
          `insert into public.user_rights (user_id, application_id, role_name, status, campaign_id)
           select $1, $2, $3 || ' ' || g, $4::public.right_status, $5 from generate_series(1, $6::int) g`,
          [person.id, app, `Rôle ${status}`, status, holding.campaign === 'active' ? campaignIds.active : null, n],
        )
      }
    }
    // Not in the team: someone else's report, and the manager's own right.
    const stranger = await createUser(db, { role: 'user', managerId: isabelle })
    await createRight(db, { holder: stranger.id, applicationId: app })
    await createRight(db, { holder: lead.id, applicationId: app })
  })

  it('shows each person whose manager is the caller, with their rights counted past 1000', async () => {
    const rows = await actAs(db, lead, async (tx) => (await tx.query<TeamRow>(`select user_id::text, full_name, position, rights_count, pending_count, validated_count, refused_count, treatment_required_count, treated_count, progress from public.team_progress()`)).rows)
    expect(rows.map((r) => r.user_id).sort()).toEqual(Object.values(members).map((m) => m.id).sort())
    for (const [name, holding] of Object.entries(holdings)) {
      const row = rows.find((r) => r.user_id === members[name]!.id)
      expect(row, name).toMatchObject({ position: `Poste ${name}`, ...expectedFor(holding.counts) })
    }
    // Last then first name, as the table lists them.
    const names = (await db.query<{ id: string }>(`select id::text from public.users where manager_id = $1 order by last_name, first_name, id`, [lead.id])).rows.map((r) => r.id)
    expect(rows.map((r) => r.user_id)).toEqual(names)
  })

  it('counts one campaign’s rights when asked', async () => {
    const rows = await actAs(db, lead, async (tx) => (await tx.query<TeamRow>(`select user_id::text, rights_count, pending_count, validated_count, refused_count, treatment_required_count, treated_count, progress from public.team_progress($1)`, [campaignIds.active])).rows)
    for (const [name, holding] of Object.entries(holdings)) {
      const row = rows.find((r) => r.user_id === members[name]!.id)
      expect(row, name).toMatchObject(expectedFor(holding.campaign === 'active' ? holding.counts : {}))
    }
  })

  it('gives the dashboard’s counters: Équipe, En attente, Validés, Refusés, and what awaits the manager', async () => {
    const all: Record<string, number> = {}
    for (const holding of Object.values(holdings)) for (const [s, n] of Object.entries(holding.counts)) all[s] = (all[s] ?? 0) + n
    const totals = expectedFor(all)
    const awaiting = Object.values(holdings)
      .filter((h) => h.campaign === 'active')
      .reduce((a, h) => a + (h.counts.pending ?? 0) + (h.counts.validated_user ?? 0), 0)
    const row = await actAs(db, lead, (tx) => one(tx, `select * from public.manager_dashboard()`))
    expect(row).toEqual({ team_size: 4, ...totals, awaiting_decision_count: awaiting })
    expect(awaiting).toBe(1158)
    expect(await queueCount(lead)).toBe(awaiting)
  })

  it('gives counts that add up to the rights, for every member, the dashboard and the holder, statuses of every kind', async () => {
    const rows = await actAs(db, lead, async (tx) => (await tx.query<TeamRow>(`select * from public.team_progress()`)).rows)
    expect(rows.length).toBe(4)
    for (const row of rows) expect(sumOfParts(row), row.full_name).toBe(row.rights_count)
    // Bruno holds treatment_required and alice treated rights: without their columns the sums would fall short.
    expect(rows.reduce((total, row) => total + row.treatment_required_count + row.treated_count, 0)).toBe(4)
    const dashboard = await actAs(db, lead, (tx) => one<TeamRow>(tx, `select * from public.manager_dashboard()`))
    expect(sumOfParts(dashboard)).toBe(dashboard.rights_count)
    // The demo team, brought where it stands by the real workflow, adds up too.
    const demoTeam = await actAs(db, 'manager', async (tx) => (await tx.query<TeamRow>(`select * from public.team_progress()`)).rows)
    expect(demoTeam.length).toBeGreaterThan(0)
    for (const row of demoTeam) expect(sumOfParts(row), row.full_name).toBe(row.rights_count)
    for (const name of ['alice', 'bruno']) {
      const summary = await actAs(db, members[name]!, (tx) => one<TeamRow>(tx, `select * from public.my_rights_summary()`))
      // The holder's summary has no progress; everything else is the same count as the team's row.
      const expected = expectedFor(holdings[name]!.counts)
      expect({ ...summary, progress: expected.progress }).toEqual(expected)
      expect(sumOfParts(summary)).toBe(summary.rights_count)
    }
  })

  it('gives a person without reports an empty team and zero counters, beside their own queue', async () => {
    for (const role of ['bpo_metier', 'admin'] as const) {
      const rows = await actAs(db, role, async (tx) => (await tx.query(`select * from public.team_progress()`)).rows)
      expect(rows).toEqual([])
      const row = await actAs(db, role, (tx) => one(tx, `select * from public.manager_dashboard()`))
      const awaiting = await queueCount(role)
      expect(row).toEqual({
        team_size: 0,
        rights_count: 0,
        pending_count: 0,
        validated_count: 0,
        refused_count: 0,
        treatment_required_count: 0,
        treated_count: 0,
        progress: null,
        awaiting_decision_count: awaiting,
      })
    }
  })
})

// ─── The holder ─────────────────────────────────────────────────────────────────────────────────────────────────────

describe('the holder’s dashboard', () => {
  it('gives the deadline of each running campaign holding the caller’s pending rights, the nearest first', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const app = await createApplication(db)
    const soon = await one<{ id: string }>(
      db,
      `insert into public.campaigns (name, application_id, start_date, end_date) values ($1, $2, current_date, current_date + 5) returning id::text`,
      [unique('Campagne courte'), app],
    )
    await createRight(db, { holder: holder.id, applicationId: app, campaignId: null })
    await createRight(db, { holder: holder.id, applicationId: app, campaignId: null })
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [soon.id]))
    const decided = await createRight(db, { holder: holder.id, applicationId: sap })
    await createRight(db, { holder: holder.id, applicationId: sap })
    await createRight(db, { holder: holder.id, applicationId: sap, campaignId: await createDraftCampaign(db) })
    await createRight(db, { holder: holder.id, applicationId: sap, campaignId: null })
    await carry(decided, [[holder, 'validated_user']])

    const rows = await actAs(db, holder, async (tx) => (await tx.query(`select campaign_id::text, campaign_name, end_date::text, pending_count from public.my_review_deadline()`)).rows)
    const expected = await db.query(
      `select c.id::text as campaign_id, c.name as campaign_name, c.end_date::text, 1 + (c.id = $1)::int as pending_count
         from public.campaigns c where c.id in ($1, $2) order by c.end_date`,
      [soon.id, campaignIds.active],
    )
    expect(rows).toEqual(expected.rows)
    expect(rows[0]).toMatchObject({ campaign_id: soon.id, pending_count: 2 })

    const summary = await actAs(db, holder, (tx) => one(tx, `select * from public.my_rights_summary()`))
    expect(summary).toEqual({ rights_count: 6, pending_count: 5, validated_count: 1, refused_count: 0, treatment_required_count: 0, treated_count: 0 })
  })

  it('gives no deadline to someone with nothing pending', async () => {
    const rows = await actAs(db, 'admin', async (tx) => (await tx.query(`select * from public.my_review_deadline()`)).rows)
    expect(rows).toEqual([])
  })
})

// ─── Decision history ────────────────────────────────────────────────────────────────────────────────────────────────

interface HistoryRow {
  decision_id: string
  right_id: string | null
  stage: string
  decision: string
  from_status: string
  to_status: string
  comment: string | null
  decided_at: string
  decided_by_name: string
  holder_name: string
  application_name: string
  role_name: string
  campaign_name: string | null
}

describe('a person’s decision history', () => {
  let lead: Person
  let member: Person
  const comments = ['c1 utilisateur valide', 'c2 utilisateur refuse', 'c3 manager valide', 'c4 manager valide', 'c5 BPO valide']
  let rights: string[]

  function history(actor: Actor, scope: string, beforeAt: string | null = null, beforeId: string | null = null, limit = 100) {
    return actAs(db, actor, async (tx) =>
      (
        await tx.query<HistoryRow>(
          `select decision_id::text, right_id::text, stage::text, decision::text, from_status::text, to_status::text, comment,
                  to_char(decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as decided_at, decided_by_name,
                  holder_name, application_name, role_name, campaign_name
             from public.decision_history($1, $2::timestamptz, $3, $4)`,
          [scope, beforeAt, beforeId, limit],
        )
      ).rows,
    )
  }

  beforeAll(async () => {
    lead = { ...(await createUser(db, { role: 'manager', managerId: isabelle })), role: 'manager' }
    member = { ...(await createUser(db, { role: 'user', managerId: lead.id })), role: 'user' }
    rights = [
      await createRight(db, { holder: member.id, applicationId: sap, roleName: unique('Historique') }),
      await createRight(db, { holder: member.id, applicationId: sap, roleName: unique('Historique') }),
      await createRight(db, { holder: member.id, applicationId: sap, roleName: unique('Historique') }),
    ]
    const steps: [Actor, string, string, string][] = [
      [member, rights[0]!, 'validated_user', comments[0]!],
      [member, rights[1]!, 'refused_user', comments[1]!],
      [lead, rights[0]!, 'validated_manager', comments[2]!],
      [lead, rights[2]!, 'validated_manager', comments[3]!],
      ['bpo_metier', rights[0]!, 'validated_bpo_metier', comments[4]!],
    ]
    for (const [actor, right, status, comment] of steps) {
      const outcome = await decide(db, actor, right, status, comment)
      expect(outcome, outcome.message).toMatchObject({ ok: true })
    }
  })

  it('lists the decisions the caller took, newest first, with what they were about', async () => {
    const rows = await history(lead, 'taken')
    expect(rows.map((r) => r.comment)).toEqual([comments[3], comments[2]])
    const campaign = await one<{ name: string }>(db, `select name from public.campaigns where id = $1`, [campaignIds.active])
    const leadName = await one<{ n: string }>(db, `select first_name || ' ' || last_name as n from public.users where id = $1`, [lead.id])
    expect(rows[1]).toMatchObject({
      right_id: rights[0],
      stage: 'manager',
      decision: 'approved',
      from_status: 'validated_user',
      to_status: 'validated_manager',
      decided_by_name: leadName.n,
      application_name: 'SAP Finance',
      campaign_name: campaign.name,
    })
    expect((await history(member, 'taken')).map((r) => r.comment)).toEqual([comments[1], comments[0]])
    expect(await history('bpo_metier', 'taken', null, null, 1)).toMatchObject([{ comment: comments[4], stage: 'bpo_metier' }])
  })

  it('lists the decisions taken on the caller’s rights, theirs included, once each', async () => {
    expect((await history(member, 'received')).map((r) => r.comment)).toEqual([...comments].reverse())
    expect((await history(member, 'all')).map((r) => r.comment)).toEqual([...comments].reverse())
    expect((await history(lead, 'received')).map((r) => r.comment)).toEqual([])
    expect((await history(lead, 'all')).map((r) => r.comment)).toEqual([comments[3], comments[2]])
  })

  it('pages newest first from the last decision received, without gaps or repeats', async () => {
    const seen: string[] = []
    const pages: number[] = []
    let cursor: [string | null, string | null] = [null, null]
    for (;;) {
      const page = await history(member, 'received', cursor[0] ? `${cursor[0]}Z` : null, cursor[1], 2)
      pages.push(page.length)
      seen.push(...page.map((r) => r.comment ?? ''))
      if (page.length < 2) break
      const last = page[page.length - 1]!
      cursor = [last.decided_at, last.decision_id]
    }
    expect(pages).toEqual([2, 2, 1])
    expect(seen).toEqual([...comments].reverse())
  })

  it('keeps a reviewer’s decision in their history once the right is gone', async () => {
    const right = await createRight(db, { holder: member.id, applicationId: sap, roleName: unique('Supprimé') })
    await carry(right, [[lead, 'refused_manager']])
    await actAs(db, 'admin', (tx) => tx.query(`delete from public.user_rights where id = $1`, [right]))
    const [latest] = await history(lead, 'taken', null, null, 1)
    expect(latest).toMatchObject({ right_id: null, stage: 'manager', decision: 'refused', to_status: 'refused_manager' })
  })

  it('refuses an unknown history or page size in French', async () => {
    for (const [sql, params, message] of [
      [`select * from public.decision_history('tout')`, [], /^Historique inconnu : « tout »/],
      [`select * from public.decision_history(p_limit => 0)`, [], /^La taille de page doit être comprise entre 1 et 1000\.$/],
      [`select * from public.decision_history(p_before_id => $1)`, [randomUUID()], /^Le curseur de page demande la date/],
    ] as const) {
      expectRefused(await attempt(db, 'user', (tx) => tx.query(sql, [...params])), '22023', message)
    }
  })
})

// ─── The bell: everything awaiting the caller, their own and what they decide for someone else ────────────────────

describe('what awaits a delegate and a fallback reviewer', () => {
  const active = campaignIds.active
  let reviewer: { id: string; email: string }
  let absent: { id: string; email: string }
  let elsewhere: { id: string; email: string }
  let own: string[]
  let delegated: string[]
  let delegatedElsewhere: string
  let orphanRight: string

  beforeAll(async () => {
    const app = await createApplication(db)
    reviewer = await createUser(db, { role: 'manager' })
    absent = await createUser(db, { role: 'manager' })
    elsewhere = await createUser(db, { role: 'user' })
    const member = await createUser(db, { role: 'user', managerId: reviewer.id })
    const absentsMember = await createUser(db, { role: 'user', managerId: absent.id })
    const orphan = await createUser(db, { role: 'user' })
    own = [await createRight(db, { holder: member.id, applicationId: app }), await createRight(db, { holder: member.id, applicationId: app })]
    delegated = [
      await createRight(db, { holder: absentsMember.id, applicationId: app }),
      await createRight(db, { holder: absentsMember.id, applicationId: app }),
    ]
    delegatedElsewhere = await createRight(db, { holder: absentsMember.id, applicationId: app })
    // Left with the absent manager: delegated to nobody.
    await createRight(db, { holder: absentsMember.id, applicationId: app })
    orphanRight = await createRight(db, { holder: orphan.id, applicationId: app })

    const delegate = (to: string, rights: string[]) =>
      actAs(db, absent, (tx) => tx.query(`select public.delegate_review_items($1, $2, 'Congés', current_date + 7, $3::uuid[])`, [active, to, rights]))
    await delegate(reviewer.id, delegated)
    await delegate(elsewhere.id, [delegatedElsewhere])
    await actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, $2::uuid[])`, [active, [reviewer.id]]))
  })
  afterAll(() => actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, '{}'::uuid[])`, [active])))

  /** What Mes revues shows the actor: their queue and the rights confided to them, as right ids. */
  async function shown(actor: Actor) {
    return actAs(db, actor, async (tx) => ({
      queue: (await tx.query<{ right_id: string }>(`select right_id from public.review_queue()`)).rows.map((row) => row.right_id),
      confided: (await tx.query<{ right_id: string; acting_as: string }>(`select right_id, acting_as from public.delegated_review_queue()`)).rows,
      bell: await count(tx, `select public.review_queue_count()`),
      summary: (await tx.query<{ stage: string; acting_as: string | null; on_behalf_of: string | null; rights_count: number }>(`select * from public.review_queue_summary()`)).rows,
      dashboard: await count(tx, `select awaiting_decision_count from public.manager_dashboard()`),
    }))
  }

  it('counts in the bell every right Mes revues shows waiting: own, delegated and fallback, each once', async () => {
    const seen = await shown(reviewer)
    expect([...seen.queue].sort()).toEqual([...own].sort())
    const confided = seen.confided.map((row) => row.right_id)
    expect(confided).toEqual(expect.arrayContaining([...delegated, orphanRight]))
    expect(seen.confided.find((row) => row.right_id === orphanRight)?.acting_as).toBe('fallback')
    expect(seen.bell).toBe(new Set([...seen.queue, ...confided]).size)
    expect(seen.bell).toBeGreaterThanOrEqual(own.length + delegated.length + 1)
  })

  it('gives the dashboards the same total: the summary adds up to the bell, the manager card counts the team apart', async () => {
    const seen = await shown(reviewer)
    expect(seen.summary.reduce((sum, row) => sum + row.rights_count, 0)).toBe(seen.bell)
    expect(seen.summary.filter((row) => row.acting_as === null).reduce((sum, row) => sum + row.rights_count, 0)).toBe(own.length)
    expect(seen.summary.filter((row) => row.acting_as === 'delegate')).toEqual([
      expect.objectContaining({ stage: 'manager', on_behalf_of: absent.id, rights_count: delegated.length }),
    ])
    expect(seen.summary.some((row) => row.acting_as === 'fallback' && row.on_behalf_of === null)).toBe(true)
    expect(seen.dashboard).toBe(own.length)
  })

  it('leaves out a delegation to someone else, and what is decided', async () => {
    const before = await shown(reviewer)
    expect(before.confided.map((row) => row.right_id)).not.toContain(delegatedElsewhere)
    expect(await shown(elsewhere)).toMatchObject({ queue: [], bell: 1, confided: [{ right_id: delegatedElsewhere, acting_as: 'delegate' }] })

    const outcome = await decide(db, reviewer, delegated[0]!, 'validated_manager')
    expect(outcome.ok, outcome.message).toBe(true)
    expect((await shown(reviewer)).bell).toBe(before.bell - 1)
    // Decided for the absent manager, the right leaves their queue too.
    expect((await shown(absent)).queue).not.toContain(delegated[0])
  })

  it('filters the delegated rights like the own queue: another campaign counts none of them', async () => {
    const bell = (campaignId: string) => actAs(db, elsewhere, (tx) => count(tx, `select public.review_queue_count($1)`, [campaignId]))
    expect(await bell(active)).toBe(1)
    expect(await bell(campaignIds.completed)).toBe(0)
  })
})

// ─── Access ──────────────────────────────────────────────────────────────────────────────────────────────────────────

describe('access', () => {
  const calls: [string, string][] = [
    ['review_queue', `select * from public.review_queue()`],
    ['review_queue_count', `select public.review_queue_count()`],
    ['review_queue_summary', `select * from public.review_queue_summary()`],
    ['team_progress', `select * from public.team_progress()`],
    ['manager_dashboard', `select * from public.manager_dashboard()`],
    ['my_rights_summary', `select * from public.my_rights_summary()`],
    ['my_review_deadline', `select * from public.my_review_deadline()`],
    ['decision_history', `select * from public.decision_history()`],
  ]

  it.each(calls)('anon cannot execute %s', async (_name, sql) => {
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(sql)), '42501', /permission denied for function/)
  })

  it.each(calls)('every signed-in role may call %s, which answers for the caller only', async (_name, sql) => {
    for (const role of Object.keys(demo) as DemoRole[]) {
      const outcome = await attempt(db, role, (tx) => tx.query(sql))
      expect(outcome, `${role}: ${outcome.message}`).toMatchObject({ ok: true })
    }
  })

  it('keeps the shared verdict and the helpers out of the API: private schema, no anon', async () => {
    const { rows } = await db.query<{ name: string; anon: boolean }>(
      `select p.proname as name, has_function_privilege('anon', p.oid, 'execute') as anon
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proname = any($1)`,
      [calls.map(([name]) => name)],
    )
    expect(rows.map((r) => r.name).sort()).toEqual(calls.map(([name]) => name).sort())
    expect(rows.filter((r) => r.anon)).toEqual([])
    const verdicts = await attempt(db, 'anon', (tx) => tx.query(`select * from private.review_verdicts`))
    expectRefused(verdicts, '42501')
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(`select * from private.acting_queue_rows()`)), '42501')
  })
})
