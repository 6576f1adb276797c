import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REST_FIXTURES, startRestBackend, type RestBackend } from './support/rest'

// Inserts, upserts, updates and deletes through supabase-js, with PostgREST's statuses and headers.

let backend: RestBackend
let service: SupabaseClient
beforeAll(async () => {
  backend = await startRestBackend(REST_FIXTURES)
  service = backend.service()
})
afterAll(() => backend.close())

const serviceHeaders = () => ({ apikey: backend.server.config.serviceRoleKey, Authorization: `Bearer ${backend.server.config.serviceRoleKey}` })

describe('insert', () => {
  it('inserts one row and returns it with select(), as 201', async () => {
    const { data, error, status } = await service.from('fx_teams').insert({ id: 10, name: 'Jaune', tags: ['x'], doc: { a: [1, 2] } }).select().single()
    expect(error).toBeNull()
    expect(status).toBe(201)
    expect(data).toEqual({ id: 10, name: 'Jaune', tags: ['x'], period: null, doc: { a: [1, 2] }, note: null })
  })

  it('returns nothing by default (return=minimal), still 201', async () => {
    const { data, error, status } = await service.from('fx_teams').insert({ id: 11, name: 'Noir' })
    expect({ data, error, status }).toEqual({ data: null, error: null, status: 201 })
    const { data: row } = await service.from('fx_teams').select('name').eq('id', 11).single()
    expect(row).toEqual({ name: 'Noir' })
  })

  it('inserts in bulk with ?columns=, a missing key being null, and counts', async () => {
    const { data, error, count } = await service
      .from('fx_teams')
      .insert([{ id: 12, name: 'A', note: 'avec note' }, { id: 13, name: 'B' }], { count: 'exact' })
      .select('id, note')
    expect(error).toBeNull()
    expect(count).toBe(2)
    expect(data).toEqual([
      { id: 12, note: 'avec note' },
      { id: 13, note: null },
    ])
  })

  it('uses column defaults for missing keys with missing=default (defaultToNull: false)', async () => {
    const { data, error } = await service
      .from('fx_counters')
      .insert([{ label: 'un' }, { n: 1 }], { defaultToNull: false })
      .select('label, n')
    expect(error).toBeNull()
    expect(data).toEqual([
      { label: 'un', n: 7 },
      { label: 'sans nom', n: 1 },
    ])
    const nulls = await service.from('fx_counters').insert([{ label: 'deux' }, { n: 2 }]).select('label, n')
    expect(nulls.error).toMatchObject({ code: '23502' })
  })

  it('inserts a row of defaults from an empty object', async () => {
    const { data, error } = await service.from('fx_counters').insert({}).select('label, n').single()
    expect(error).toBeNull()
    expect(data).toEqual({ label: 'sans nom', n: 7 })
  })

  it('embeds related rows in the returned representation', async () => {
    const { data, error } = await service.from('fx_members').insert({ id: 20, name: 'Eve', captain_of: 1 }).select('name, team:captain_of(name)').single()
    expect(error).toBeNull()
    expect(data).toEqual({ name: 'Eve', team: { name: 'Rouge' } })
  })

  it('answers return=headers-only with a Location', async () => {
    const response = await backend.rest('/fx_teams', {
      method: 'POST',
      headers: { ...serviceHeaders(), 'Content-Type': 'application/json', Prefer: 'return=headers-only' },
      body: JSON.stringify({ id: 14, name: 'Gris' }),
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('location')).toBe('/fx_teams?id=eq.14')
    expect(await response.text()).toBe('')
  })

  it('refuses a duplicate with 409 and an unknown column with PGRST204', async () => {
    const duplicate = await service.from('fx_teams').insert({ id: 1, name: 'Encore' })
    expect(duplicate.status).toBe(409)
    expect(duplicate.error).toMatchObject({ code: '23505' })
    const unknown = await service.from('fx_teams').insert({ id: 15, name: 'X', colour: 'red' })
    expect(unknown.status).toBe(400)
    expect(unknown.error).toEqual({ code: 'PGRST204', details: null, hint: null, message: "Could not find the 'colour' column of 'fx_teams' in the schema cache" })
    const foreign = await service.from('fx_members').insert({ id: 21, name: 'Zoé', captain_of: 999 })
    expect(foreign.status).toBe(409)
    expect(foreign.error).toMatchObject({ code: '23503' })
  })
})

describe('views', () => {
  it('writes through a view Postgres can update, and refuses with 405 one it cannot', async () => {
    const through = await service.from('fx_team_names').update({ name: 'Rouge' }).eq('id', 1).select()
    expect(through).toMatchObject({ error: null, data: [{ id: 1, name: 'Rouge' }] })
    const refused = await service.from('fx_team_sizes').insert({ team_id: 1, members: 3 })
    expect(refused.status).toBe(405)
    expect(refused.error).toMatchObject({ code: '55000', message: 'cannot insert into view "fx_team_sizes"' })
    const deleted = await service.from('fx_team_sizes').delete().eq('team_id', 1)
    expect(deleted.status).toBe(405)
  })
})

describe('upsert', () => {
  it('merges duplicates on the primary key: 201 when something was inserted, 200 when all merged', async () => {
    const first = await service.from('fx_teams').upsert([{ id: 1, name: 'Rouge vif' }, { id: 30, name: 'Neuf' }]).select('id, name')
    expect(first.status).toBe(201)
    expect(first.data).toEqual([
      { id: 1, name: 'Rouge vif' },
      { id: 30, name: 'Neuf' },
    ])
    const again = await service.from('fx_teams').upsert({ id: 30, name: 'Neuf bis' }).select('name').single()
    expect(again.status).toBe(200)
    expect(again.data).toEqual({ name: 'Neuf bis' })
  })

  it('ignores duplicates when asked, and takes on_conflict columns', async () => {
    const ignored = await service.from('fx_teams').upsert({ id: 30, name: 'Ignoré' }, { ignoreDuplicates: true }).select('name')
    expect(ignored.data).toEqual([])
    const { data } = await service.from('fx_teams').select('name').eq('id', 30).single()
    expect(data).toEqual({ name: 'Neuf bis' })
    const byBadge = await service.from('fx_badges').upsert({ member_id: 1, label: 'chef' }, { onConflict: 'member_id' }).select()
    expect(byBadge.data).toEqual([{ member_id: 1, label: 'chef' }])
  })

  it('refuses a payload that upserts the same row twice with 400', async () => {
    const { error, status } = await service.from('fx_teams').upsert([{ id: 31, name: 'Un' }, { id: 31, name: 'Deux' }])
    expect(status).toBe(400)
    expect(error).toMatchObject({ code: '21000' })
  })

  it('upserts a product table as an administrator would', async () => {
    const { data, error } = await service
      .from('control_rules')
      .upsert({ id: '00000000-0000-4000-e000-000000000001', name: 'Règle importée', global: true, parameters: { inactivity_threshold: 60 } })
      .select('name, parameters->inactivity_threshold')
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({ name: 'Règle importée', inactivity_threshold: 60 })
  })
})

describe('update and delete', () => {
  it('updates the filtered rows, 204 without representation, 200 with it', async () => {
    const minimal = await service.from('fx_teams').update({ note: 'mise à jour' }).in('id', [2, 3])
    expect(minimal.status).toBe(204)
    const { data, status, count } = await service.from('fx_teams').update({ note: 'encore' }, { count: 'exact' }).gte('id', 2).lte('id', 3).select('id, note').order('id')
    expect(status).toBe(200)
    expect(count).toBe(2)
    expect(data).toEqual([
      { id: 2, note: 'encore' },
      { id: 3, note: 'encore' },
    ])
  })

  it('says how many rows changed in Content-Range', async () => {
    const response = await backend.rest('/fx_teams?id=in.(2,3)', {
      method: 'PATCH',
      headers: { ...serviceHeaders(), 'Content-Type': 'application/json', Prefer: 'count=exact' },
      body: JSON.stringify({ note: 'compté' }),
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('content-range')).toBe('0-1/2')
  })

  it('updates nothing for an empty object or an unmatched filter', async () => {
    const empty = await service.from('fx_teams').update({}).eq('id', 2).select()
    expect(empty).toMatchObject({ data: [], error: null })
    const none = await service.from('fx_teams').update({ note: 'x' }).eq('id', 999).select()
    expect(none).toMatchObject({ data: [], error: null })
  })

  it('rolls back an update that single() finds affecting several rows', async () => {
    const several = await service.from('fx_teams').update({ note: 'jamais' }).in('id', [2, 3]).select().single()
    expect(several.status).toBe(406)
    expect(several.error).toMatchObject({ code: 'PGRST116' })
    const { data } = await service.from('fx_teams').select('note').in('id', [2, 3])
    expect(data!.every((row) => row.note !== 'jamais')).toBe(true)
  })

  it('limits an update with order and limit, and refuses too many rows with max-affected', async () => {
    const limited = await backend.rest('/fx_teams?order=id.desc&limit=1&select=id', {
      method: 'PATCH',
      headers: { ...serviceHeaders(), 'Content-Type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify({ note: 'dernier' }),
    })
    expect(await limited.json()).toEqual([{ id: 30 }])
    const strict = await backend.rest('/fx_teams?id=gt.0', {
      method: 'PATCH',
      headers: { ...serviceHeaders(), 'Content-Type': 'application/json', Prefer: 'handling=strict, max-affected=1' },
      body: JSON.stringify({ note: 'trop' }),
    })
    expect(strict.status).toBe(400)
    expect(await strict.json()).toMatchObject({ code: 'PGRST124', details: expect.stringMatching(/^The query affects \d+ rows$/) })
    const { data: untouched } = await service.from('fx_teams').select('id').eq('note', 'trop')
    expect(untouched).toEqual([])
  })

  it('dry-runs with rollback()', async () => {
    const { data } = await service.from('fx_teams').update({ name: 'Fantôme' }).eq('id', 2).select('name').rollback()
    expect(data).toEqual([{ name: 'Fantôme' }])
    const { data: after } = await service.from('fx_teams').select('name').eq('id', 2).single()
    expect(after).toEqual({ name: 'Bleu' })
  })

  it('deletes the filtered rows and returns them on request', async () => {
    await service.from('fx_teams').insert([{ id: 40, name: 'D1' }, { id: 41, name: 'D2' }])
    const { data, status } = await service.from('fx_teams').delete().gte('id', 40).select('name').order('name')
    expect(status).toBe(200)
    expect(data!.map((row) => row.name).sort()).toEqual(['D1', 'D2'])
    const minimal = await service.from('fx_teams').delete().eq('id', 999)
    expect(minimal.status).toBe(204)
    const counted = await service.from('fx_teams').delete({ count: 'exact' }).eq('id', 14)
    expect(counted.count).toBe(1)
  })

  it('refuses an array body for an update', async () => {
    const response = await backend.rest('/fx_teams?id=eq.1', {
      method: 'PATCH',
      headers: { ...serviceHeaders(), 'Content-Type': 'application/json' },
      body: '[{"name":"x"}]',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'PGRST102' })
  })
})
