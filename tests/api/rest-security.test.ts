import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demo, teamMembers } from '../db/support/actors'
import { startRestBackend, type RestBackend } from './support/rest'

// Row-level security through the API, for each demo role: the request runs as the caller's role with their claims.

let backend: RestBackend
const outsider = { application: 'GitLab', role: 'Observateur' }
beforeAll(async () => {
  backend = await startRestBackend()
  // A right held outside the manager's team, so that "their team" is not "everyone".
  await backend.db.exec(`insert into public.user_rights (user_id, application_id, role_name)
    select '${demo.bpo_groupe.id}', a.id, '${outsider.role}' from public.applications a where a.name = '${outsider.application}'`)
})
afterAll(() => backend.close())

async function totalRights(): Promise<number> {
  const { rows } = await backend.db.query<{ n: number }>('select count(*)::int as n from public.user_rights')
  return rows[0]!.n
}

describe('reading rights', () => {
  it('a user reads only their own rights', async () => {
    const user = await backend.as('user')
    const { data, error } = await user.from('user_rights').select('user_id, role_name')
    expect(error).toBeNull()
    expect(data).toHaveLength(5)
    expect(data!.every((row) => row.user_id === demo.user.id)).toBe(true)
  })

  it("a manager reads their own and their team's rights, not others'", async () => {
    const manager = await backend.as('manager')
    const { data } = await manager.from('user_rights').select('user_id, role_name')
    const team = new Set<string>([demo.manager.id, demo.user.id, ...Object.values(teamMembers)])
    expect(data!.length).toBe((await totalRights()) - 1)
    expect(data!.every((row) => team.has(row.user_id))).toBe(true)
    expect(data!.some((row) => row.role_name === outsider.role)).toBe(false)
  })

  it("the applications' owners read their applications' rights", async () => {
    const groupe = await backend.as('bpo_groupe')
    const { data } = await groupe.from('user_rights').select('role_name, applications!inner(name)').neq('applications.name', 'GitLab')
    expect(data!.length).toBeGreaterThan(0)
    const gitlab = await groupe.from('user_rights').select('role_name, applications!inner(name)').eq('applications.name', 'GitLab')
    // Not an owner of GitLab: only the right they hold themselves there.
    expect(gitlab.data).toEqual([{ role_name: outsider.role, applications: { name: 'GitLab' } }])
    for (const role of ['ra', 'bpo_metier', 'admin', 'rssi'] as const) {
      const client = await backend.as(role)
      const all = await client.from('user_rights').select('id', { count: 'exact', head: true })
      expect(all.count, role).toBe(await totalRights())
    }
  })

  it('the anonymous role reads nothing: 401', async () => {
    const anon = backend.anon()
    for (const table of ['users', 'user_rights', 'applications', 'campaigns', 'audit_logs', 'control_rules']) {
      const { error, status } = await anon.from(table).select()
      expect(status, table).toBe(401)
      expect(error, table).toMatchObject({ code: '42501' })
    }
  })

  it('only administrators read control rules, and only the RSSI reads the audit trail', async () => {
    const user = await backend.as('user')
    expect((await user.from('control_rules').select()).data).toEqual([])
    const admin = await backend.as('admin')
    expect((await admin.from('control_rules').select()).data).toHaveLength(3)
    expect((await admin.from('audit_logs').select()).data).toEqual([])
    const rssi = await backend.as('rssi')
    const { count } = await rssi.from('audit_logs').select('*', { count: 'exact', head: true })
    expect(count).toBeGreaterThan(0)
  })

  it('the service role bypasses row-level security', async () => {
    const { count } = await backend.service().from('user_rights').select('*', { count: 'exact', head: true })
    expect(count).toBe(await totalRights())
  })
})

describe('changing profiles', () => {
  it("a user cannot update another person's profile: no row is changed", async () => {
    const user = await backend.as('user')
    const { data, error } = await user.from('users').update({ first_name: 'Piraté' }).eq('id', demo.manager.id).select()
    expect(error).toBeNull()
    expect(data).toEqual([])
    const { rows } = await backend.db.query<{ first_name: string }>('select first_name from public.users where id = $1', [demo.manager.id])
    expect(rows[0]!.first_name).toBe('Marc')
  })

  it('a user may stamp their own last login, but not rename themselves (403, French message)', async () => {
    const user = await backend.as('user')
    const stamp = await user.from('users').update({ last_login: '2026-01-02T03:04:05Z' }).eq('id', demo.user.id).select('last_login').single()
    expect(stamp.error).toBeNull()
    expect(stamp.data).toEqual({ last_login: '2026-01-02T03:04:05+00:00' })
    const rename = await user.from('users').update({ first_name: 'Juliette' }).eq('id', demo.user.id)
    expect(rename.status).toBe(403)
    expect(rename.error).toMatchObject({ code: '42501', message: 'Vous ne pouvez modifier que votre date de dernière connexion.' })
  })
})

describe('functions', () => {
  const application = { name: 'Jira', ra_id: demo.ra.id, bpo_metier_id: demo.bpo_metier.id, description: 'Suivi des tickets' }

  it('an administrator creates an application through create_application', async () => {
    const admin = await backend.as('admin')
    const { data, error, status } = await admin.rpc('create_application', application)
    expect(error).toBeNull()
    expect(status).toBe(200)
    expect(data).toMatchObject({ name: 'Jira', ra_id: demo.ra.id, description: 'Suivi des tickets' })
    const again = await admin.rpc('create_application', application)
    expect(again.status).toBe(409)
    expect(again.error).toMatchObject({ code: '23505', message: 'Une application nommée « Jira » existe déjà.' })
  })

  it('anyone else gets the French refusal with 403, and the anonymous role 401', async () => {
    for (const role of ['user', 'manager', 'bpo_metier', 'ra'] as const) {
      const client = await backend.as(role)
      const { error, status } = await client.rpc('create_application', { ...application, name: `Jira ${role}` })
      expect(status, role).toBe(403)
      expect(error, role).toMatchObject({ code: '42501', message: 'Seuls les administrateurs et le RSSI peuvent créer une application.' })
    }
    const anon = await backend.anon().rpc('create_application', { ...application, name: 'Jira anon' })
    expect(anon.status).toBe(401)
    expect(anon.error).toMatchObject({ code: '42501', message: 'permission denied for function create_application' })
  })

  it('a user takes a decision on their own right through validate_user_right', async () => {
    const user = await backend.as('user')
    const { data: right } = await user.from('user_rights').select('id, status').eq('role_name', 'Demandeur').single()
    expect(right!.status).toBe('pending')
    const { data, error } = await user.rpc('validate_user_right', { right_id: right!.id, new_status: 'validated_user', comment: 'Toujours utile' })
    expect(error).toBeNull()
    expect(data).toMatchObject({ success: true })
    const manager = await backend.as('manager')
    const refused = await manager.rpc('validate_user_right', { right_id: right!.id, new_status: 'validated_user' })
    expect(refused.status).toBe(400)
    expect(refused.error).toMatchObject({ code: '22023' })
  })

  it('refuses a decision sent as a GET: the read-only transaction stops the write (405)', async () => {
    const user = await backend.as('user')
    const { data: right } = await user.from('user_rights').select('id').eq('role_name', 'Utilisateur VPN').single()
    const { error, status } = await user.rpc('validate_user_right', { right_id: right!.id, new_status: 'validated_user' }, { get: true })
    expect(status).toBe(405)
    expect(error).toMatchObject({ code: '25006' })
    const { data: after } = await user.from('user_rights').select('status').eq('id', right!.id).single()
    expect(after).toEqual({ status: 'pending' })
  })

  it('records the caller and the address the server saw in the audit trail, whatever forwarding headers the client forges', async () => {
    const token = await backend.token('admin')
    const response = await backend.rest(`/applications?name=eq.Jira`, {
      method: 'PATCH',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'X-Forwarded-For': '203.0.113.66',
        'CF-Connecting-IP': '203.0.113.77',
        'X-Real-IP': '203.0.113.88',
      },
      body: JSON.stringify({ description: 'Tickets et incidents' }),
    })
    expect(response.status).toBe(204)
    const rssi = await backend.as('rssi')
    const { data } = await rssi.from('audit_logs').select('user_email, action, ip_address').eq('resource_type', 'applications').eq('action', 'update').single()
    expect(data).toEqual({ user_email: demo.admin.email, action: 'update', ip_address: '127.0.0.1' })
  })

  it('records the real address of a decision taken through supabase-js with forged headers', async () => {
    const client = await backend.as('user', { 'X-Forwarded-For': '203.0.113.66', 'CF-Connecting-IP': '203.0.113.77' })
    const { data: right } = await client.from('user_rights').select('id').eq('role_name', 'Utilisateur VPN').single()
    const { error } = await client.rpc('validate_user_right', { right_id: right!.id, new_status: 'validated_user', comment: 'Toujours utile' })
    expect(error).toBeNull()
    const { rows } = await backend.db.query<{ ip: string }>(
      `select host(ip_address) as ip from public.audit_logs where resource_id = $1 order by "timestamp" desc, id desc limit 1`,
      [right!.id],
    )
    expect(rows).toEqual([{ ip: '127.0.0.1' }])
  })
})

describe('behind a trusted reverse proxy', () => {
  let proxied: RestBackend
  beforeAll(async () => {
    // The test's own connections come from 127.0.0.1: here that address plays the proxy in front of the server.
    proxied = await startRestBackend(undefined, { trustedProxies: ['127.0.0.1', '10.0.0.0/8'] })
  })
  afterAll(() => proxied.close())

  it('records the right-most forwarded address that is not a trusted proxy, and nothing the client claims', async () => {
    const response = await proxied.rest(`/applications?name=eq.GitLab`, {
      method: 'PATCH',
      headers: {
        Authorization: `Bearer ${await proxied.token('admin')}`,
        'Content-Type': 'application/json',
        'X-Forwarded-For': '203.0.113.66, 198.51.100.4, 10.1.2.3',
        'CF-Connecting-IP': '203.0.113.77',
      },
      body: JSON.stringify({ description: 'Forge logicielle, modifiée derrière le proxy' }),
    })
    expect(response.status).toBe(204)
    const { rows } = await proxied.db.query<{ ip: string }>(
      `select host(ip_address) as ip from public.audit_logs where resource_type = 'applications' and action = 'update'`,
    )
    expect(rows).toEqual([{ ip: '198.51.100.4' }])
  })
})

describe('a completed campaign is closed to changes', () => {
  const completed = 'Revue annuelle 2025'

  async function campaignRights(): Promise<{ campaignId: string; rights: Array<{ id: string; status: string; justification: string | null }> }> {
    const { rows: campaigns } = await backend.db.query<{ id: string; status: string }>('select id, status from public.campaigns where name = $1', [completed])
    expect(campaigns).toEqual([{ id: expect.any(String), status: 'completed' }])
    const campaignId = campaigns[0]!.id
    const { rows } = await backend.db.query<{ id: string; status: string; justification: string | null }>(
      'select id::text as id, status::text as status, justification from public.user_rights where campaign_id = $1 order by id',
      [campaignId],
    )
    return { campaignId, rights: rows }
  }

  for (const role of ['admin', 'rssi'] as const) {
    it(`refuses ${role} a right added, edited or deleted directly through the API, in French`, async () => {
      const before = await campaignRights()
      expect(before.rights.length).toBeGreaterThan(0)
      const token = await backend.token(role)
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Prefer: 'return=representation' }
      const { rows: apps } = await backend.db.query<{ id: string }>(`select id from public.applications where name = 'GitLab'`)
      const target = before.rights[0]!

      const attempts = [
        backend.rest('/user_rights', {
          method: 'POST',
          headers,
          body: JSON.stringify({ user_id: demo.user.id, application_id: apps[0]!.id, role_name: `Ajout tardif ${role}`, campaign_id: before.campaignId }),
        }),
        backend.rest(`/user_rights?id=eq.${target.id}`, { method: 'PATCH', headers, body: JSON.stringify({ justification: `Modifié après clôture par ${role}` }) }),
        backend.rest(`/user_rights?id=eq.${target.id}`, { method: 'DELETE', headers }),
      ]
      for (const [index, response] of (await Promise.all(attempts)).entries()) {
        const label = ['POST', 'PATCH', 'DELETE'][index]
        expect(response.status, label).toBeGreaterThanOrEqual(400)
        const body = (await response.json()) as { message?: string }
        // French, not Postgres' English "permission denied" or "new row violates…".
        expect(body.message, label).toMatch(/campagne/i)
      }
      expect(await campaignRights()).toEqual(before)
    })
  }

  // A decision turns the freeze's statement triggers off for its own rows (recertif.writer_applies_effects), having
  // checked the campaign itself: no API caller may turn that switch on, nor call the function that applies its effects.
  it('gives no API caller the switch a decision uses to skip the freeze checks', async () => {
    const before = await campaignRights()
    const admin = await backend.as('admin')
    const setConfig = await admin.rpc('set_config' as never, { setting_name: 'recertif.writer_applies_effects', new_value: 'on', is_local: true } as never)
    expect(setConfig.status).toBe(404)
    const token = await backend.token('admin')
    const privateCall = await backend.rest('/rpc/apply_decision_effects', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Profile': 'private' },
      body: '{}',
    })
    expect(privateCall.status).toBe(406)
    const target = before.rights[0]!
    const patch = await admin.from('user_rights').update({ justification: 'Après la clôture' }).eq('id', target.id)
    expect(patch.error?.message).toMatch(/campagne/i)
    expect(await campaignRights()).toEqual(before)
  })
})
