import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demo } from '../db/support/actors'
import { REST_FIXTURES, startRestBackend, type RestBackend } from './support/rest'

// The read grammar of PostgREST, through the unmodified supabase-js client.

let backend: RestBackend
let service: SupabaseClient
beforeAll(async () => {
  backend = await startRestBackend(REST_FIXTURES)
  service = backend.service()
})
afterAll(() => backend.close())

describe('select', () => {
  it('renames and casts columns', async () => {
    const { data, error } = await service.from('users').select('id, prenom:first_name, role::text, pos:position::varchar').eq('id', demo.user.id).single()
    expect(error).toBeNull()
    expect(data).toEqual({ id: demo.user.id, prenom: 'Julie', role: 'user', pos: 'Comptable' })
  })

  it('reads JSON paths, naming each after its last key, with casts', async () => {
    const { data, error } = await service
      .from('fx_teams')
      .select('id, doc->level, owner:doc->owner->>name, level_text:doc->>level, level_int:doc->>level::int')
      .order('id')
    expect(error).toBeNull()
    expect(data).toEqual([
      { id: 1, level: 3, owner: 'Ana', level_text: '3', level_int: 3 },
      { id: 2, level: 1, owner: null, level_text: '1', level_int: 1 },
      { id: 3, level: null, owner: null, level_text: null, level_int: null },
    ])
    const indexed = await service.from('control_rules').select('first:parameters->incompatible_roles->0, last:parameters->incompatible_roles->>-1').eq('enabled', false).single()
    expect(indexed.data).toEqual({ first: 'Comptable', last: 'Approbateur factures' })
  })

  it('serialises types as Postgres does in JSON', async () => {
    const { data } = await service.from('fx_teams').select('tags, period, doc').eq('id', 1).single()
    expect(data).toEqual({ tags: ['a', 'b'], period: '[1,10)', doc: { level: 3, owner: { name: 'Ana' } } })
    const { data: user } = await service.from('users').select('created_at').eq('id', demo.admin.id).single()
    expect(user!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/)
  })

  it('embeds a to-one relationship as an object, or null', async () => {
    const { data, error } = await service
      .from('users')
      .select('email, manager:manager_id(first_name, last_name)')
      .in('email', ['user@example.com', 'isabelle.laurent@example.com'])
      .order('email')
    expect(error).toBeNull()
    expect(data).toEqual([
      { email: 'isabelle.laurent@example.com', manager: null },
      { email: 'user@example.com', manager: { first_name: 'Marc', last_name: 'Dubois' } },
    ])
  })

  it('embeds a to-many relationship as an array, empty when there is nothing', async () => {
    const { data, error } = await service
      .from('users')
      .select('email, user_rights!user_id(role_name)')
      .in('email', ['user@example.com', 'isabelle.laurent@example.com'])
      .order('email')
      .order('role_name', { referencedTable: 'user_rights' })
    expect(error).toBeNull()
    expect(data).toEqual([
      { email: 'isabelle.laurent@example.com', user_rights: [] },
      {
        email: 'user@example.com',
        user_rights: ['Comptable', 'Demandeur', 'Developer', 'Lecteur', 'Utilisateur VPN'].map((role_name) => ({ role_name })),
      },
    ])
  })

  it('embeds through a self-reference both ways: the parent by column, the children by table', async () => {
    const { data, error } = await service
      .from('users')
      .select('email, boss:manager_id(email), reports:users!manager_id(email)')
      .eq('email', 'manager@example.com')
      .order('email', { referencedTable: 'reports' })
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({
      email: 'manager@example.com',
      boss: { email: 'isabelle.laurent@example.com' },
      reports: ['emma.girard', 'lucas.bonnet', 'paul.mercier', 'thomas.roux', 'user'].map((name) => ({ email: `${name}@example.com` })),
    })
  })

  it('disambiguates with hints: a column, a constraint, or the foreign key name as target', async () => {
    const { data, error } = await service
      .from('applications')
      .select('name, ra:users!ra_id(email), bpo:users!applications_bpo_metier_id_fkey(email), groupe:bpo_groupe_id(email), rssi:applications_rssi_id_fkey(email)')
      .eq('name', 'GitLab')
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({ name: 'GitLab', ra: { email: 'ra@example.com' }, bpo: { email: 'bpo@example.com' }, groupe: null, rssi: { email: 'rssi@example.com' } })
    const { data: owned } = await service.from('users').select('email, applications!ra_id(name)').eq('id', demo.ra.id).single()
    expect((owned!.applications as unknown[]).length).toBe(5)
  })

  it('refuses an ambiguous embed with 300 PGRST201, listing the candidates', async () => {
    const { error, status } = await service.from('applications').select('name, users(email)')
    expect(status).toBe(300)
    expect(error).toMatchObject({ code: 'PGRST201', message: "Could not embed because more than one relationship was found for 'applications' and 'users'" })
    expect(error!.details).toHaveLength(4)
    expect(error!.hint).toContain("'users!applications_ra_id_fkey'")
  })

  it('embeds many-to-many through a junction table, and one-to-one both ways', async () => {
    const ambiguous = await service.from('fx_teams').select('name, fx_members(name)')
    expect(ambiguous.status).toBe(300)
    const { data, error } = await service
      .from('fx_teams')
      .select('name, members:fx_members!fx_team_members(name), captains:fx_members!captain_of(name)')
      .order('id')
      .order('name', { referencedTable: 'members' })
    expect(error).toBeNull()
    expect(data).toEqual([
      { name: 'Rouge', members: [{ name: 'Ana' }, { name: 'Ben' }], captains: [{ name: 'Ana' }] },
      { name: 'Bleu', members: [{ name: 'Ben' }, { name: 'Chloé' }], captains: [{ name: 'Chloé' }] },
      { name: 'Vert', members: [], captains: [] },
    ])
    const badges = await service.from('fx_members').select('name, fx_badges(label)').order('id').limit(2)
    expect(badges.data).toEqual([
      { name: 'Ana', fx_badges: { label: 'capitaine' } },
      { name: 'Ben', fx_badges: null },
    ])
    const owner = await service.from('fx_badges').select('label, fx_members(name)').eq('member_id', 3).single()
    expect(owner.data).toEqual({ label: 'vice', fx_members: { name: 'Chloé' } })
  })

  it('keeps only parents with a match under !inner, and filters embedded rows otherwise', async () => {
    const inner = await service.from('users').select('email, user_rights!user_id!inner(role_name)').eq('user_rights.role_name', 'Comptable')
    expect(inner.data).toEqual([{ email: 'user@example.com', user_rights: [{ role_name: 'Comptable' }] }])
    const left = await service.from('users').select('email, user_rights!user_id(role_name)').eq('user_rights.role_name', 'Comptable').eq('role', 'manager')
    expect(left.data).toEqual(
      expect.arrayContaining([
        { email: 'manager@example.com', user_rights: [] },
        { email: 'isabelle.laurent@example.com', user_rights: [] },
      ]),
    )
    const toOne = await service.from('user_rights').select('role_name, applications!inner(name)').eq('applications.name', 'GitLab').order('role_name')
    expect(toOne.data).toEqual([
      { role_name: 'Developer', applications: { name: 'GitLab' } },
      { role_name: 'Maintainer', applications: { name: 'GitLab' } },
    ])
  })

  it('filters parents on whether an embed is null, and uses an empty embed only to filter', async () => {
    const withoutManager = await service.from('users').select('email, boss:manager_id(email)').is('boss', null).order('email')
    expect(withoutManager.data!.map((u) => u.email)).toContain('admin@example.com')
    expect(withoutManager.data!.every((u) => u.boss === null)).toBe(true)
    const noRights = await service.from('users').select('email, user_rights!user_id()').is('user_rights', null).order('email')
    expect(noRights.data).toContainEqual({ email: 'admin@example.com' })
    expect(noRights.data).not.toContainEqual({ email: 'user@example.com' })
    const holders = await service.from('users').select('email, user_rights!user_id!inner()').eq('user_rights.role_name', 'Lecteur').order('email')
    expect(holders.data).toEqual([{ email: 'lucas.bonnet@example.com' }, { email: 'user@example.com' }])
  })

  it('spreads a to-one embed into its parent, and a to-many one into arrays', async () => {
    const { data, error } = await service
      .from('user_rights')
      .select('role_name, ...applications(app:name, ...users!ra_id(ra_email:email))')
      .eq('role_name', 'Developer')
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({ role_name: 'Developer', app: 'GitLab', ra_email: 'ra@example.com' })
    const many = await service.from('fx_teams').select('name, ...fx_members!captain_of(captain:name)').order('id')
    expect(many.data).toEqual([
      { name: 'Rouge', captain: ['Ana'] },
      { name: 'Bleu', captain: ['Chloé'] },
      { name: 'Vert', captain: [] },
    ])
  })

  it('nests embeds several levels deep, with their own order and limit', async () => {
    const { data, error } = await service
      .from('applications')
      .select('name, user_rights(role_name, users!user_id(email, manager:manager_id(email)))')
      .eq('name', 'SAP Finance')
      .order('role_name', { referencedTable: 'user_rights', ascending: false })
      .limit(2, { referencedTable: 'user_rights' })
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({
      name: 'SAP Finance',
      user_rights: [
        { role_name: 'Validateur', users: { email: 'manager@example.com', manager: { email: 'isabelle.laurent@example.com' } } },
        { role_name: 'Lecteur', users: { email: 'lucas.bonnet@example.com', manager: { email: 'manager@example.com' } } },
      ],
    })
  })
})

describe('filters', () => {
  const names = async (query: PromiseLike<{ data: Array<{ name: string }> | null; error: unknown }>) => {
    const { data, error } = await query
    expect(error).toBeNull()
    return data!.map((row) => row.name)
  }
  const teams = () => service.from('fx_teams').select('name').order('id')

  it('compares: eq, neq, gt, gte, lt, lte', async () => {
    expect(await names(teams().eq('id', 2))).toEqual(['Bleu'])
    expect(await names(teams().neq('id', 2))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().gt('id', 2))).toEqual(['Vert'])
    expect(await names(teams().gte('id', 2))).toEqual(['Bleu', 'Vert'])
    expect(await names(teams().lt('id', 2))).toEqual(['Rouge'])
    expect(await names(teams().lte('id', 2))).toEqual(['Rouge', 'Bleu'])
  })

  it('matches patterns: like, ilike with *, their any/all forms, and regular expressions', async () => {
    expect(await names(teams().like('name', '*ou*'))).toEqual(['Rouge'])
    expect(await names(teams().ilike('name', 'b*'))).toEqual(['Bleu'])
    expect(await names(teams().likeAnyOf('name', ['R*', 'V*']))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().likeAllOf('name', ['*e*', '*u*']))).toEqual(['Rouge', 'Bleu'])
    expect(await names(teams().ilikeAnyOf('name', ['r*', 'v*']))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().ilikeAllOf('name', ['*E*', 'b*']))).toEqual(['Bleu'])
    expect(await names(teams().filter('name', 'match', '^[RV]'))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().filter('name', 'imatch', '^b'))).toEqual(['Bleu'])
  })

  it('tests nulls and booleans: is, not.is, isdistinct', async () => {
    expect(await names(teams().is('note', null))).toEqual(['Bleu'])
    expect(await names(teams().not('note', 'is', null))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().isDistinct('note', 'un chat, une souris'))).toEqual(['Rouge', 'Bleu'])
    const { data } = await service.from('control_rules').select('name').is('enabled', false)
    expect(data).toEqual([{ name: 'Séparation des tâches' }])
  })

  it('lists: in, with quoted values holding commas and parentheses, and not.in', async () => {
    expect(await names(teams().in('note', ['un chat, une souris', 'x)y']))).toEqual(['Vert'])
    expect(await names(teams().in('id', [1, 3]))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().not('id', 'in', '(1,3)'))).toEqual(['Bleu'])
    expect(await names(teams().in('id', []))).toEqual([])
  })

  it('arrays, JSON and ranges: cs, cd, ov, sl, sr, nxr, nxl, adj', async () => {
    expect(await names(teams().contains('tags', ['b']))).toEqual(['Rouge', 'Bleu'])
    expect(await names(teams().containedBy('tags', ['a', 'b']))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().overlaps('tags', ['a', 'c']))).toEqual(['Rouge', 'Bleu'])
    expect(await names(teams().contains('doc', { owner: { name: 'Ana' } }))).toEqual(['Rouge'])
    expect(await names(teams().rangeLt('period', '[20,30)'))).toEqual(['Rouge', 'Bleu'])
    expect(await names(teams().rangeGt('period', '[-5,0)'))).toEqual(['Rouge', 'Bleu'])
    expect(await names(teams().rangeLte('period', '[0,10)'))).toEqual(['Rouge'])
    expect(await names(teams().rangeGte('period', '[3,4)'))).toEqual(['Bleu'])
    expect(await names(teams().rangeAdjacent('period', '[10,12)'))).toEqual(['Rouge'])
    expect(await names(teams().overlaps('period', '[15,16)'))).toEqual(['Bleu'])
  })

  it('full-text search: fts, plfts, phfts, wfts, with a configuration', async () => {
    expect(await names(teams().textSearch('note', 'renard & rapide'))).toEqual(['Rouge'])
    expect(await names(teams().textSearch('note', 'chat souris', { type: 'plain' }))).toEqual(['Vert'])
    expect(await names(teams().textSearch('note', 'renard brun', { type: 'phrase', config: 'french' }))).toEqual(['Rouge'])
    expect(await names(teams().textSearch('note', 'chat -renard', { type: 'websearch', config: 'simple' }))).toEqual(['Vert'])
  })

  it('filters on JSON paths', async () => {
    expect(await names(teams().eq('doc->>level', '3'))).toEqual(['Rouge'])
    expect(await names(teams().gt('doc->level', 0))).toEqual(['Rouge', 'Bleu'])
    expect(await names(teams().eq('doc->owner->>name', 'Ana'))).toEqual(['Rouge'])
    const { data } = await service.from('control_rules').select('name').eq('parameters->>inactivity_threshold', '30')
    expect(data).toEqual([{ name: 'Inactivité SAP de 30 jours' }])
  })

  it('combines with or, and, not, nested', async () => {
    expect(await names(teams().or('id.eq.1,name.eq.Vert'))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().or('id.eq.3,and(tags.cs.{b},note.not.is.null)'))).toEqual(['Rouge', 'Vert'])
    expect(await names(teams().not('id', 'eq', 1).or('note.is.null,note.like.*chat*'))).toEqual(['Bleu', 'Vert'])
    expect(await names(teams().or('not.or(id.eq.1,id.eq.2)'))).toEqual(['Vert'])
    const raw = await backend.rest('/fx_teams?select=name&not.and=(id.gt.1,note.is.null)&order=id')
    expect(await raw.json()).toEqual([{ name: 'Rouge' }, { name: 'Vert' }])
    expect(await names(teams().or('note.in.("un chat, une souris",nothing),doc->>level.eq.1'))).toEqual(['Bleu', 'Vert'])
    expect(await names(teams().match({ id: 2, name: 'Bleu' }))).toEqual(['Bleu'])
  })

  it('filters embedded rows with or on the referenced table', async () => {
    const { data } = await service
      .from('fx_teams')
      .select('name, members:fx_members!fx_team_members(name)')
      .or('name.eq.Ana,name.eq.Chloé', { referencedTable: 'members' })
      .order('id')
    expect(data).toEqual([
      { name: 'Rouge', members: [{ name: 'Ana' }] },
      { name: 'Bleu', members: [{ name: 'Chloé' }] },
      { name: 'Vert', members: [] },
    ])
  })
})

describe('order and ranges', () => {
  it('orders descending with nulls first or last, on several columns', async () => {
    const first = await service.from('fx_teams').select('name').order('note', { ascending: false, nullsFirst: true })
    expect(first.data!.map((r) => r.name)).toEqual(['Bleu', 'Vert', 'Rouge'])
    const last = await service.from('fx_teams').select('name').order('note', { ascending: true, nullsFirst: false })
    expect(last.data!.map((r) => r.name)).toEqual(['Rouge', 'Vert', 'Bleu'])
    const multi = await service.from('users').select('role, email').in('role', ['user', 'manager']).order('role', { ascending: false }).order('email')
    expect(multi.data![0]).toEqual({ role: 'manager', email: 'isabelle.laurent@example.com' })
  })

  it('orders parents by a column of a to-one embed', async () => {
    const { data, error } = await service
      .from('user_rights')
      .select('role_name, applications(name)')
      .order('applications(name)', { ascending: false })
      .order('role_name')
      .limit(2)
    expect(error).toBeNull()
    expect(data).toEqual([
      { role_name: 'Agent', applications: { name: 'ServiceNow' } },
      { role_name: 'Compte générique support', applications: { name: 'ServiceNow' } },
    ])
  })

  it('pages with limit and range, counting exactly in Content-Range', async () => {
    const page = await service.from('users').select('email', { count: 'exact' }).order('email').range(2, 4)
    expect(page.status).toBe(206)
    expect(page.count).toBe(12)
    expect(page.data).toHaveLength(3)
    const all = await service.from('users').select('email', { count: 'exact' })
    expect(all.status).toBe(200)
    expect(all.count).toBe(12)
    const raw = await backend.rest('/users?select=email&order=email&offset=10&limit=5', {
      headers: { apikey: backend.server.config.serviceRoleKey, Authorization: `Bearer ${backend.server.config.serviceRoleKey}`, Prefer: 'count=exact' },
    })
    expect(raw.status).toBe(206)
    expect(raw.headers.get('content-range')).toBe('10-11/12')
    const noCount = await backend.rest('/users?select=email&limit=3', { headers: { apikey: backend.server.config.serviceRoleKey, Authorization: `Bearer ${backend.server.config.serviceRoleKey}` } })
    expect(noCount.status).toBe(200)
    expect(noCount.headers.get('content-range')).toBe('0-2/*')
  })

  it('answers an empty page with */N, and an offset past the end with 416', async () => {
    const empty = await service.from('users').select('email', { count: 'exact' }).eq('email', 'nobody@example.com')
    expect(empty.data).toEqual([])
    expect(empty.count).toBe(0)
    const past = await service.from('users').select('email', { count: 'exact' }).range(50, 60)
    expect(past.status).toBe(416)
    expect(past.error).toMatchObject({ code: 'PGRST103', details: 'An offset of 50 was requested, but there are only 12 rows.' })
  })

  it('counts without rows with head, and estimates with planned and estimated counts', async () => {
    const head = await service.from('user_rights').select('*', { count: 'exact', head: true }).eq('status', 'pending')
    expect(head.data).toBeNull()
    expect(head.count).toBeGreaterThan(0)
    for (const count of ['planned', 'estimated'] as const) {
      const { count: estimate, error } = await service.from('users').select('id', { count, head: true })
      expect(error).toBeNull()
      expect(estimate).toBeGreaterThan(0)
    }
  })
})

describe('single objects and other formats', () => {
  it('returns one object with single(), and 406 PGRST116 for none or several', async () => {
    const one = await service.from('users').select('email').eq('role', 'admin').single()
    expect(one.data).toEqual({ email: 'admin@example.com' })
    const several = await service.from('users').select('email').eq('role', 'user').single()
    expect(several.status).toBe(406)
    expect(several.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 5 rows' })
    const none = await service.from('users').select('email').eq('role', 'nobody' as never).single()
    expect(none.error).not.toBeNull()
  })

  it('returns null or the object with maybeSingle()', async () => {
    const none = await service.from('users').select('email').eq('email', 'nobody@example.com').maybeSingle()
    expect(none).toMatchObject({ data: null, error: null })
    const one = await service.from('users').select('email').eq('email', 'admin@example.com').maybeSingle()
    expect(one.data).toEqual({ email: 'admin@example.com' })
  })

  it('answers CSV and strips nulls when asked', async () => {
    const csv = await service.from('fx_teams').select('id,name,note').order('id').csv()
    expect(csv.data).toBe('id,name,note\n1,Rouge,"le renard brun rapide"\n2,Bleu,\n3,Vert,"un chat, une souris"')
    const stripped = await service.from('fx_teams').select('id,note').order('id').stripNulls()
    expect(stripped.data).toEqual([{ id: 1, note: 'le renard brun rapide' }, { id: 2 }, { id: 3, note: 'un chat, une souris' }])
  })

  it('reads views like tables', async () => {
    const { data } = await service.from('fx_team_names').select('name').order('id').limit(1)
    expect(data).toEqual([{ name: 'Rouge' }])
  })

  it('caps every read at max_rows, even when more is asked', async () => {
    await backend.db.exec(`insert into public.fx_counters (label) select 'ligne ' || i from generate_series(1, 1200) i`)
    const capped = await service.from('fx_counters').select('id', { count: 'exact' })
    expect(capped.data).toHaveLength(1000)
    expect(capped.count).toBe(1200)
    expect(capped.status).toBe(206)
    const asked = await service.from('fx_counters').select('id').limit(5000)
    expect(asked.data).toHaveLength(1000)
    const ranged = await service.from('fx_counters').select('id').order('id').range(100, 2999)
    expect(ranged.data).toHaveLength(1000)
    const tail = await service.from('fx_counters').select('id').order('id').range(1100, 1500)
    expect(tail.data).toHaveLength(100)
    const header = await backend.rest('/fx_counters?select=id', { headers: { Prefer: 'count=exact' } })
    expect(header.headers.get('content-range')).toBe('0-999/1200')
    await backend.db.exec(`delete from public.fx_counters`)
  })
})
