import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demo } from '../db/support/actors'
import { REST_FIXTURES, startRestBackend, type RestBackend } from './support/rest'

// Functions over /rest/v1/rpc: argument matching, result shapes, and the transaction they run in.

let backend: RestBackend
let service: SupabaseClient
let anon: SupabaseClient
beforeAll(async () => {
  backend = await startRestBackend(REST_FIXTURES)
  service = backend.service()
  anon = backend.anon()
})
afterAll(() => backend.close())

describe('calling', () => {
  it('passes named arguments by POST, with defaults for those left out', async () => {
    expect((await anon.rpc('fx_add', { a: 1, b: 2 })).data).toBe(3)
    expect((await anon.rpc('fx_add', { a: 1 })).data).toBe(11)
  })

  it('passes arguments as query parameters with get: true, and HEAD with head: true', async () => {
    const { data, error, status } = await anon.rpc('fx_add', { a: 5 }, { get: true })
    expect({ data, error, status }).toEqual({ data: 15, error: null, status: 200 })
    const head = await anon.rpc('fx_series', { n: 4 }, { head: true, count: 'exact' })
    expect(head).toMatchObject({ data: null, error: null, count: 4 })
  })

  it('chooses among overloads by argument names', async () => {
    expect((await anon.rpc('fx_echo', { msg: 'bonjour' })).data).toBe('bonjour')
    expect((await anon.rpc('fx_echo', { n: 21 })).data).toBe(42)
    const ambiguous = await anon.rpc('fx_same', { x: '1' })
    expect(ambiguous.status).toBe(300)
    expect(ambiguous.error).toMatchObject({ code: 'PGRST203' })
  })

  it('answers an unknown function or arguments with 404 PGRST202 and a hint', async () => {
    const unknown = await anon.rpc('fx_ad', { a: 1 })
    expect(unknown.status).toBe(404)
    expect(unknown.error).toEqual({
      code: 'PGRST202',
      details: 'Searched for the function public.fx_ad with parameter a or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.fx_add',
      message: 'Could not find the function public.fx_ad(a) in the schema cache',
    })
    const wrongArgs = await anon.rpc('fx_add', { c: 1 })
    expect(wrongArgs.status).toBe(404)
    expect(wrongArgs.error!.message).toBe('Could not find the function public.fx_add(c) in the schema cache')
  })

  it('gives the whole body to a function with one unnamed jsonb parameter', async () => {
    const { data } = await anon.rpc('fx_body', { anything: [1, 2], nested: { ok: true } })
    expect(data).toEqual({ received: { anything: [1, 2], nested: { ok: true } } })
  })

  it('collects variadic arguments from a JSON array or repeated query parameters', async () => {
    expect((await anon.rpc('fx_sum', { nums: [1, 2, 3] })).data).toBe(6)
    const response = await backend.rest('/rpc/fx_sum?nums=4&nums=5')
    expect(await response.json()).toBe(9)
  })
})

describe('results', () => {
  it('returns a scalar as JSON, and 204 for void', async () => {
    const scalar = await anon.rpc('fx_echo', { msg: 'é "x"' })
    expect(scalar.data).toBe('é "x"')
    const empty = await anon.rpc('fx_noop')
    expect(empty).toMatchObject({ data: null, error: null, status: 204 })
  })

  it('returns a set of scalars as an array, with filters, order and limits', async () => {
    const { data } = await anon.rpc('fx_series', { n: 10 }).gt('fx_series', 3).order('fx_series', { ascending: false }).limit(3)
    expect(data).toEqual([10, 9, 8])
  })

  it('returns a set of rows as an array, to select, filter, embed and count', async () => {
    const { data, error, count } = await anon
      .rpc('fx_teams_above', { min_id: 1 }, { count: 'exact' })
      .select('name, captains:fx_members!captain_of(name)')
      .neq('name', 'Vert')
    expect(error).toBeNull()
    expect(count).toBe(1)
    expect(data).toEqual([{ name: 'Bleu', captains: [{ name: 'Chloé' }] }])
    const single = await anon.rpc('fx_teams_above', { min_id: 2 }).select('name').single()
    expect(single.data).toEqual({ name: 'Vert' })
  })

  it('returns a single composite as an object, and a table as rows', async () => {
    const { data } = await anon.rpc('fx_first_team').select('id, name')
    expect(data).toEqual({ id: 1, name: 'Rouge' })
    const pairs = await anon.rpc('fx_pairs').select('k').order('v', { ascending: false })
    expect(pairs.data).toEqual([{ k: 'y' }, { k: 'x' }])
  })

  it('runs a GET call read only: a function that writes fails with 405', async () => {
    const written = await service.rpc('fx_write')
    expect(written).toMatchObject({ data: 7, error: null })
    const refused = await service.rpc('fx_write', {}, { get: true })
    expect(refused.status).toBe(405)
    expect(refused.error).toMatchObject({ code: '25006' })
  })
})

describe('errors raised by functions', () => {
  it('passes message, detail and hint of RAISE through, P0001 being 400', async () => {
    const { error, status } = await anon.rpc('fx_raise')
    expect(status).toBe(400)
    expect(error).toEqual({ code: 'P0001', message: 'Refusé par la règle', details: 'détail', hint: 'indice' })
  })

  it('honours RAISE SQLSTATE PGRST with its own status and headers', async () => {
    const response = await backend.rest('/rpc/fx_custom_status', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(response.status).toBe(402)
    expect(response.headers.get('x-reason')).toBe('quota')
    expect(await response.json()).toEqual({ code: 'X402', details: null, hint: 'Payez', message: 'Paiement requis' })
  })

  it('refuses methods other than GET, HEAD and POST on functions', async () => {
    const response = await backend.rest('/rpc/fx_add?a=1', { method: 'PATCH' })
    expect(response.status).toBe(405)
    expect(await response.json()).toMatchObject({ code: 'PGRST101', message: 'Cannot use the PATCH method on RPC' })
  })
})

describe('the request as functions see it', () => {
  it('sets role, claims, method, path and lower-cased headers, read only on GET', async () => {
    const user = await backend.as('user')
    const posted = await user.rpc('fx_request')
    expect(posted.error).toBeNull()
    expect(posted.data).toMatchObject({
      role: 'authenticated',
      claims: { role: 'authenticated', sub: demo.user.id, email: demo.user.email },
      method: 'POST',
      path: '/rpc/fx_request',
      read_only: 'off',
    })
    expect(posted.data.headers['x-client-info']).toMatch(/^supabase-js/)
    expect(posted.data.headers['x-forwarded-for']).toBe('127.0.0.1')
    const read = await anon.rpc('fx_request', {}, { get: true })
    expect(read.data).toMatchObject({ role: 'anon', method: 'GET', read_only: 'on', claims: { role: 'anon' } })
  })

  it('passes the address the server saw as the only X-Forwarded-For entry, and drops forged client-address headers', async () => {
    const forged = { 'X-Forwarded-For': '203.0.113.9, 10.0.0.1', 'CF-Connecting-IP': '203.0.113.10', 'X-Real-IP': '203.0.113.11' }
    const response = await backend.rest('/rpc/fx_request', { headers: forged })
    const { headers } = (await response.json()) as { headers: Record<string, string> }
    expect(headers['x-forwarded-for']).toBe('127.0.0.1')
    expect(headers).not.toHaveProperty('cf-connecting-ip')
    expect(headers).not.toHaveProperty('x-real-ip')
  })
})

describe('a write sent with its settings in one message', () => {
  // A POST call returning one value is sent as constants in one round trip (rest/session.ts, writeAsCaller).
  it('passes an argument with quotes, backslashes and placeholders through unchanged', async () => {
    const msg = "l'été \\ \\x41 \\' $1 E'' ; select 1; -- 😀"
    const { data, error } = await anon.rpc('fx_echo', { msg })
    expect(error).toBeNull()
    expect(data).toBe(msg)
  })

  it('passes a header with quotes and backslashes to the function unchanged', async () => {
    const note = "l'ete \\ fin E'x'"
    const response = await backend.rest('/rpc/fx_request', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Note': note }, body: '{}' })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { headers: Record<string, string> }).headers['x-note']).toBe(note)
  })

  it('undoes what a call wrote before it failed, and what tx=rollback asked to undo', async () => {
    const count = async (label: string) => (await service.from('fx_counters').select('id', { count: 'exact', head: true }).eq('label', label)).count
    const failed = await service.rpc('fx_write_then_raise', { label: 'annulé' })
    expect(failed.status).toBe(400)
    expect(failed.error).toMatchObject({ code: 'P0001', message: 'Écrit puis refusé' })
    expect(await count('annulé')).toBe(0)
    const before = await count('via rpc')
    const response = await backend.rest('/rpc/fx_write', { method: 'POST', headers: { 'Content-Type': 'application/json', Prefer: 'tx=rollback' }, body: '{}' })
    expect(await response.json()).toBe(7)
    expect(await count('via rpc')).toBe(before)
    expect((await service.rpc('fx_write')).data).toBe(7)
    expect(await count('via rpc')).toBe((before ?? 0) + 1)
  })
})
