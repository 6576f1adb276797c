// The users page at the organisation's real size: 10,000 people read through the feature's api.ts, with supabase-js
// signed in as the administrator, over HTTP against the local server. A search, its total, the sort and the pages are
// the server's, so each is checked here against rows counted in SQL, not against the code under test.
import type { SupabaseClient } from '@supabase/supabase-js'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { demo } from '../db/support/actors'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { fetchManagerChoices, fetchUser, fetchUsersPage } = await import('@/features/users/api')

// Inserting 10,000 people, each audited, takes a while in PGlite on a shared machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 })

const PEOPLE = 10_000
const backend = testBackendForFile()

beforeAll(async () => {
  // Every 7th person is in Finance, every 100th a manager; names carry the characters a search must take literally.
  await backend.db.query(
    `insert into public.users (email, first_name, last_name, role, department, position)
     select 'personne' || g || '@grand.example', 'Prénom' || g, 'Nom_' || lpad(g::text, 5, '0'),
            case when g % 100 = 0 then 'manager' else 'user' end::public.user_role,
            case when g % 7 = 0 then 'Finance' else 'Ventes' end,
            case when g = 42 then 'Chef (adjoint), 100%' end
     from generate_series(1, ${PEOPLE}) g`,
  )
  session.client = await backend.signedIn(demo.admin.email)
})

const count = async (where: string) =>
  Number((await backend.db.query<{ n: string }>(`select count(*)::text as n from public.users where ${where}`)).rows[0]!.n)

const request = { page: 0, size: 50, sort: 'name', direction: 'asc', search: '' } as const

describe('the users page at 10,000 people', () => {
  it('gives the first 50 by name with the total of everyone, not a page of the API', async () => {
    const page = await fetchUsersPage(request)
    expect(page.total).toBe(await count('true'))
    expect(page.total).toBeGreaterThan(PEOPLE)
    expect(page.rows).toHaveLength(50)
    const names = page.rows.map((user) => user.last_name)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  it('searches on the server, with the total of what it finds', async () => {
    const finance = await fetchUsersPage({ ...request, search: 'finance' })
    expect(finance.total).toBe(await count(`department = 'Finance'`))
    expect(finance.total).toBeGreaterThan(1000)
    // Two words: each in some column.
    const one = await fetchUsersPage({ ...request, search: 'prénom4200 finance' })
    expect(one.rows.map((user) => user.email)).toEqual(['personne4200@grand.example'])
  })

  it('filters the leavers’ accounts in or out, on the server, with their totals', async () => {
    await backend.db.query(`update public.users set active = false where email in ('personne7@grand.example', 'personne8@grand.example')`)
    const leavers = await fetchUsersPage(request, 'inactive')
    expect(leavers.total).toBe(await count('not active'))
    expect(leavers.rows.map((user) => user.email)).toEqual(expect.arrayContaining(['personne7@grand.example', 'personne8@grand.example']))
    expect(leavers.rows.every((user) => user.active === false)).toBe(true)
    const inUse = await fetchUsersPage(request, 'active')
    expect(inUse.total).toBe(await count('active'))
    expect(inUse.total + leavers.total).toBe((await fetchUsersPage(request)).total)
  })

  it('takes the reserved characters of the API and of LIKE literally', async () => {
    const chef = await fetchUsersPage({ ...request, search: 'Chef (adjoint), 100%' })
    expect(chef.rows.map((user) => user.email)).toEqual(['personne42@grand.example'])
    expect((await fetchUsersPage({ ...request, search: '%' })).rows.map((user) => user.email)).toEqual(['personne42@grand.example'])
    // An underscore matches underscores only: every generated last name has one, no demo person has.
    expect((await fetchUsersPage({ ...request, search: '_' })).total).toBe(await count(`last_name like '%\\_%' or email like '%\\_%'`))
  })

  it('searches the five fields as one text: each word in any of them, never across two, and sends no copy of them', async () => {
    await backend.db.query(
      `insert into public.users (email, first_name, last_name, position, department)
       values ('jean.dupont@grand.example', 'Jean', 'Dupont', 'Gestionnaire de paie', 'Trésorerie')`,
    )
    for (const search of ['jean dupont', 'DUPONT jean', 'jean.dupont@grand', 'gestionnaire', 'trésorerie dupont']) {
      const found = await fetchUsersPage({ ...request, search })
      expect(found.rows.map((user) => user.email), search).toEqual(['jean.dupont@grand.example'])
      expect(found.total).toBe(1)
      expect(Object.keys(found.rows[0]!)).not.toContain('search_text')
    }
    // The end of the first name and the start of the last, typed without a space.
    expect((await fetchUsersPage({ ...request, search: 'andupont' })).total).toBe(0)
  })

  it('refuses to write search_text, which Postgres computes', async () => {
    const { error } = await (session.client as SupabaseClient)
      .from('users')
      .update({ search_text: 'Quelqu’un d’autre' } as never)
      .eq('email', 'personne1@grand.example')
    expect(error).toMatchObject({ code: '428C9' })
    expect(await count(`email = 'personne1@grand.example' and search_text like 'Prénom1%'`)).toBe(1)
  })

  it('pages without overlap or gap, and sorts both ways', async () => {
    const first = await fetchUsersPage({ ...request, search: 'finance', size: 100 })
    const second = await fetchUsersPage({ ...request, search: 'finance', size: 100, page: 1 })
    const ids = [...first.rows, ...second.rows].map((user) => user.id)
    expect(new Set(ids).size).toBe(200)
    const byEmailDesc = await fetchUsersPage({ ...request, sort: 'email', direction: 'desc' })
    const emails = byEmailDesc.rows.map((user) => user.email)
    expect(emails).toEqual([...emails].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)))
  })

  it('offers managers only, at most 20, never the person edited, with how many match', async () => {
    const all = await fetchManagerChoices('', null)
    expect(all.total).toBe(await count(`role = 'manager'`))
    expect(all.rows).toHaveLength(20)
    const found = await fetchManagerChoices('Prénom100 ', null)
    const manager = found.rows.find((person) => person.first_name === 'Prénom100')!
    expect(manager).toBeDefined()
    expect((await fetchManagerChoices('Prénom100', manager.id)).rows.map((person) => person.id)).not.toContain(manager.id)
    expect((await fetchManagerChoices('Prénom101', null)).rows).toEqual([])
  })

  it('reads a linked person on their own, and null for an id that names nobody', async () => {
    expect((await fetchUser(demo.user.id))?.email).toBe(demo.user.email)
    expect(await fetchUser('personne')).toBeNull()
    expect(await fetchUser('00000000-0000-4000-a000-00000000ffff')).toBeNull()
  })
})
