// Every reviewer's queue as the browser gets it: supabase-js, signed in as each demo account, over HTTP against the
// local server and the seeded database. The expected queue is computed here from ARCHITECTURE §4 over rows the
// service role reads, not from the function under test; scope is checked on rights that wait at the reviewer's
// stage but belong to someone else's perimeter.
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { campaignIds, demo, teamMembers, type DemoRole } from '../db/support/actors'
import { startTestBackend, type TestBackend } from './support/server'

type Stage = 'user' | 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'
const stageOf: Record<DemoRole, Stage | null> = {
  user: 'user',
  manager: 'manager',
  bpo_metier: 'bpo_metier',
  bpo_groupe: 'bpo_groupe',
  ra: 'ra',
  admin: null,
  rssi: null,
}
const waiting: Record<Stage, string[]> = {
  user: ['pending'],
  manager: ['pending', 'validated_user'],
  bpo_metier: ['validated_manager'],
  bpo_groupe: ['validated_bpo_metier'],
  ra: ['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'treatment_required'],
}

interface Right {
  id: string
  user_id: string
  status: string
  campaign_id: string | null
  holder: { manager_id: string | null }
  application: { id: string; ra_id: string; bpo_metier_id: string; bpo_groupe_id: string | null }
  campaign: { status: string } | null
}

let backend: TestBackend
let service: SupabaseClient
const as = {} as Record<DemoRole | 'anon', SupabaseClient>

beforeAll(async () => {
  backend = await startTestBackend()
  service = backend.serviceClient()
  as.anon = backend.client()
  for (const role of Object.keys(demo) as DemoRole[]) as[role] = await backend.signedIn(demo[role].email)
  await addOutOfScopeRights()
})
afterAll(() => backend.close())

/** Rights in the active campaign that wait at each reviewer's stage but are someone else's to decide. */
async function addOutOfScopeRights() {
  const apps = await service.from('applications').insert([
    { name: 'Hors périmètre — Trésorerie', ra_id: demo.ra.id, bpo_metier_id: demo.bpo_metier.id, bpo_groupe_id: demo.bpo_groupe.id },
  ]).select('id')
  if (apps.error) throw apps.error
  // Same offices but someone else holds them: a second RA, BPO Métier and BPO Groupe, who have no account.
  const others = await service.from('users').insert([
    { email: 'ra.autre@example.com', first_name: 'Rémi', last_name: 'Autre', role: 'ra' },
    { email: 'bpo.autre@example.com', first_name: 'Berthe', last_name: 'Autre', role: 'bpo_metier' },
    { email: 'bpog.autre@example.com', first_name: 'Gilles', last_name: 'Autre', role: 'bpo_groupe' },
    { email: 'manager.autre@example.com', first_name: 'Marion', last_name: 'Autre', role: 'manager' },
  ]).select('id, email')
  if (others.error) throw others.error
  const id = (email: string) => others.data.find((row) => row.email === email)!.id
  const foreign = await service.from('applications').insert({
    name: 'Hors périmètre — Paie',
    ra_id: id('ra.autre@example.com'),
    bpo_metier_id: id('bpo.autre@example.com'),
    bpo_groupe_id: id('bpog.autre@example.com'),
  }).select('id').single()
  if (foreign.error) throw foreign.error
  const outsider = await service.from('users').insert({
    email: 'hors.equipe@example.com', first_name: 'Hugo', last_name: 'Horséquipe', role: 'user', manager_id: id('manager.autre@example.com'),
  }).select('id').single()
  if (outsider.error) throw outsider.error
  // Rights are created pending in a draft campaign; service_role may then place them at any stage.
  const rows = ['pending', 'validated_user', 'validated_manager', 'validated_bpo_metier', 'refused_manager', 'treatment_required'].flatMap(
    (status, index) => [
      { user_id: outsider.data.id, application_id: foreign.data.id, role_name: `Rôle ${index}`, status },
      { user_id: teamMembers.thomas, application_id: foreign.data.id, role_name: `Rôle ${index}`, status },
      { user_id: outsider.data.id, application_id: apps.data[0]!.id, role_name: `Rôle ${index}`, status },
    ],
  )
  const inserted = await service
    .from('user_rights')
    .insert(rows.map((row) => ({ ...row, campaign_id: campaignIds.active, account_type: 'standard', granted_at: '2025-01-10T00:00:00Z' })))
  if (inserted.error) throw inserted.error
}

async function everyRight(): Promise<Right[]> {
  const rights: Right[] = []
  for (let from = 0; ; from += 1000) {
    const { data, error } = await service
      .from('user_rights')
      .select('id, user_id, status, campaign_id, holder:user_id(manager_id), application:application_id(id, ra_id, bpo_metier_id, bpo_groupe_id), campaign:campaign_id(status)')
      .order('id')
      .range(from, from + 999)
    if (error) throw error
    rights.push(...(data as unknown as Right[]))
    if (data.length < 1000) return rights
  }
}

function inScope(stage: Stage, me: string, right: Right): boolean {
  if (stage !== 'user' && right.user_id === me) return false
  switch (stage) {
    case 'user':
      return right.user_id === me
    case 'manager':
      return right.holder.manager_id === me
    case 'bpo_metier':
      return right.application.bpo_metier_id === me
    case 'bpo_groupe':
      return right.application.bpo_groupe_id === me
    case 'ra':
      return right.application.ra_id === me
  }
}

/** ARCHITECTURE §4: waiting at my stage, in my perimeter, in an active campaign (the RA treats whatever the campaign). */
function expectedQueue(role: DemoRole, rights: Right[]): string[] {
  const stage = stageOf[role]
  if (!stage) return []
  return rights
    .filter((right) => waiting[stage].includes(right.status))
    .filter((right) => inScope(stage, demo[role].id, right))
    .filter((right) => stage === 'ra' || right.campaign?.status === 'active')
    .map((right) => right.id)
    .sort()
}

async function queueIds(client: SupabaseClient, args: Record<string, unknown> = {}): Promise<string[]> {
  const { data, error } = await client.rpc('review_queue', args)
  if (error) throw new Error(error.message)
  return (data as { right_id: string }[]).map((row) => row.right_id)
}

const roles = Object.keys(demo) as DemoRole[]

describe('review_queue through the API', () => {
  it.each(roles)('gives %s exactly the rights awaiting their decision, with the matching count', async (role) => {
    const rights = await everyRight()
    const expected = expectedQueue(role, rights)
    expect(await queueIds(as[role])).toEqual(expected)
    const { data: count, error } = await as[role].rpc('review_queue_count')
    expect(error).toBeNull()
    expect(count).toBe(expected.length)
    if (stageOf[role] && role !== 'user') expect(expected.length).toBeGreaterThan(0)
  })

  it.each(['manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const)(
    'never shows %s a right that waits at their stage in someone else’s perimeter, and refuses their decision on it',
    async (role) => {
      const stage = stageOf[role]!
      const rights = await everyRight()
      const foreign = rights.filter(
        (right) => waiting[stage].includes(right.status) && right.campaign?.status === 'active' && !inScope(stage, demo[role].id, right),
      )
      expect(foreign.length).toBeGreaterThan(0)
      const queue = new Set(await queueIds(as[role]))
      for (const right of foreign) expect(queue.has(right.id)).toBe(false)

      const target = foreign[0]!
      const decision = stage === 'ra' ? 'treated' : `validated_${stage}`
      const { error } = await as[role].rpc('validate_user_right', { right_id: target.id, new_status: decision })
      expect(error?.code).toBe('42501')
      const after = await service.from('user_rights').select('status').eq('id', target.id).single()
      expect(after.data?.status).toBe(target.status)
    },
  )

  it('filters by campaign, application and status on the server', async () => {
    const all = await as.manager.rpc('review_queue')
    const rows = all.data as { right_id: string; application_id: string; status: string; campaign_id: string }[]
    const application = rows[0]!.application_id
    expect(await queueIds(as.manager, { p_application_id: application })).toEqual(
      rows.filter((row) => row.application_id === application).map((row) => row.right_id),
    )
    expect(await queueIds(as.manager, { p_status: 'validated_user' })).toEqual(
      rows.filter((row) => row.status === 'validated_user').map((row) => row.right_id),
    )
    expect(await queueIds(as.manager, { p_campaign_id: campaignIds.completed })).toEqual([])
    expect(await queueIds(as.manager, { p_campaign_id: campaignIds.active })).toEqual(rows.map((row) => row.right_id))
  })

  it('pages by keyset without skipping or repeating a right', async () => {
    const whole = await queueIds(as.manager)
    const paged: string[] = []
    let after: string | undefined
    for (;;) {
      const page = await queueIds(as.manager, { p_limit: 3, ...(after ? { p_after_id: after } : {}) })
      paged.push(...page)
      if (page.length < 3) break
      after = page[page.length - 1]
    }
    expect(paged).toEqual(whole)
    const tooBig = await as.manager.rpc('review_queue', { p_limit: 1001 })
    expect(tooBig.error).not.toBeNull()
  })

  it('tells each row the buttons it offers and the inactivity recommendation', async () => {
    const { data } = await as.ra.rpc('review_queue')
    const rows = data as { status: string; approve_status: string; refuse_status: string | null; recommendation: string | null; last_used_at: string | null }[]
    for (const row of rows) {
      expect(row.approve_status).toBe('treated')
      expect(row.refuse_status).toBe(row.status === 'treatment_required' ? null : 'treatment_required')
      if (row.last_used_at === null) expect(row.recommendation).toBe('Jamais utilisé')
    }
  })

  it('refuses an anonymous caller', async () => {
    const { data, error } = await as.anon.rpc('review_queue')
    expect(data).toBeNull()
    expect(error?.code).toBe('42501')
    expect((await as.anon.rpc('review_queue_count')).error?.code).toBe('42501')
  })
})

describe('the manager’s team through the API', () => {
  it('lists exactly the people whose manager is the caller, with their counts', async () => {
    const { data: team, error } = await as.manager.rpc('team_progress')
    expect(error).toBeNull()
    const { data: reports } = await service.from('users').select('id').eq('manager_id', demo.manager.id)
    const rows = team as { user_id: string; rights_count: number; pending_count: number }[]
    expect(rows.map((row) => row.user_id).sort()).toEqual(reports!.map((row) => row.id).sort())
    for (const row of rows) {
      const { count } = await service.from('user_rights').select('id', { count: 'exact', head: true }).eq('user_id', row.user_id)
      expect(row.rights_count).toBe(count)
    }
    expect(rows.map((row) => row.user_id)).not.toContain(demo.manager.id)
  })

  it('gives the dashboard counters of the team and the number awaiting the manager', async () => {
    const { data, error } = await as.manager.rpc('manager_dashboard')
    expect(error).toBeNull()
    const [row] = data as { team_size: number; rights_count: number; awaiting_decision_count: number }[]
    const { count: teamSize } = await service.from('users').select('id', { count: 'exact', head: true }).eq('manager_id', demo.manager.id)
    expect(row!.team_size).toBe(teamSize)
    expect(row!.awaiting_decision_count).toBe((await queueIds(as.manager)).length)
  })

  it('shows another reviewer no team, and lets a manager read only their reports’ rights', async () => {
    expect((await as.user.rpc('team_progress')).data).toEqual([])
    expect((await as.bpo_metier.rpc('team_progress')).data).toEqual([])
    const outsider = await service.from('users').select('id').eq('email', 'hors.equipe@example.com').single()
    const mine = await as.manager.from('user_rights').select('id').eq('user_id', teamMembers.thomas)
    expect(mine.data!.length).toBeGreaterThan(0)
    const theirs = await as.manager.from('user_rights').select('id').eq('user_id', outsider.data!.id)
    expect(theirs).toMatchObject({ data: [], error: null })
  })
})

describe('decisions and their history through the API', () => {
  it('records a manager’s decision in their history and in the holder’s, and nowhere else', async () => {
    const [first] = await queueIds(as.manager, { p_status: 'validated_user' })
    expect(first).toBeDefined()
    const { data: right } = await service.from('user_rights').select('user_id').eq('id', first!).single()
    const decided = await as.manager.rpc('validate_user_right', { right_id: first, new_status: 'validated_manager', comment: 'Toujours utile' })
    expect(decided.error).toBeNull()

    const taken = await as.manager.rpc('decision_history', { p_scope: 'taken', p_limit: 1 })
    expect(taken.data).toMatchObject([{ right_id: first, to_status: 'validated_manager', comment: 'Toujours utile', stage: 'manager' }])
    expect(await queueIds(as.manager)).not.toContain(first)
    expect(await queueIds(as.bpo_metier)).toEqual(expectedQueue('bpo_metier', await everyRight()))

    const holderId = (right as { user_id: string }).user_id
    const audit = await as.rssi.from('audit_logs').select('action, user_id').eq('resource_id', first!).order('id', { ascending: false }).limit(1)
    expect(audit.data).toMatchObject([{ user_id: demo.manager.id }])
    // The holder here has no account; another user never sees the decision.
    expect(holderId).not.toBe(demo.user.id)
    const strangers = await as.user.rpc('decision_history', { p_scope: 'all' })
    expect((strangers.data as { right_id: string }[]).map((row) => row.right_id)).not.toContain(first)
  })

  it('gives the holder their own counters and lets them decide only their own pending rights', async () => {
    const { data } = await as.user.rpc('my_rights_summary')
    const [summary] = data as { rights_count: number; pending_count: number }[]
    const { count } = await service.from('user_rights').select('id', { count: 'exact', head: true }).eq('user_id', demo.user.id)
    expect(summary!.rights_count).toBe(count)
    const someoneElses = await service.from('user_rights').select('id').eq('status', 'pending').neq('user_id', demo.user.id).limit(1).single()
    const { error } = await as.user.rpc('validate_user_right', { right_id: someoneElses.data!.id, new_status: 'validated_user' })
    expect(error?.code).toBe('42501')
  })
})
