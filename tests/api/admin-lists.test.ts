// The applications and control rules pages read through their features' api.ts, signed in as the administrator,
// against the local server and the seeded database: every column sorts (owners' names through the embedded person),
// the search is the server's, and the total is the whole list's.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { demo } from '../db/support/actors'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { APPLICATION_SORTS, fetchApplication, fetchApplicationsPage } = await import('@/features/applications/api')
const { CONTROL_RULE_SORTS, fetchControlRulesPage } = await import('@/features/control-rules/api')

const backend = testBackendForFile()

beforeAll(async () => {
  session.client = await backend.signedIn(demo.admin.email)
})

const rowsOf = async <T>(table: string) => (await backend.db.query<T>(`select * from public.${table}`)).rows
const first = { page: 0, size: 25, direction: 'asc', search: '' } as const

describe('applications, paged on the server', () => {
  it('sorts on every column, owners by their last name, and counts them all', async () => {
    const total = (await rowsOf('applications')).length
    for (const sort of Object.keys(APPLICATION_SORTS) as (keyof typeof APPLICATION_SORTS)[]) {
      const page = await fetchApplicationsPage({ ...first, sort })
      expect(page.total).toBe(total)
    }
    const byRa = await fetchApplicationsPage({ ...first, sort: 'ra', direction: 'desc' })
    const expected = await backend.db.query<{ id: string }>(
      `select a.id from public.applications a join public.users r on r.id = a.ra_id
       order by r.last_name desc, r.first_name desc, a.id limit 25`,
    )
    expect(byRa.rows.map((application) => application.id)).toEqual(expected.rows.map((row) => row.id))
  })

  it('searches the name and the description', async () => {
    const [application] = await rowsOf<{ id: string; name: string }>('applications')
    const found = await fetchApplicationsPage({ ...first, sort: 'name', search: application!.name.toUpperCase() })
    expect(found.rows.map((row) => row.id)).toContain(application!.id)
    expect(found.total).toBe(found.rows.length)
    expect((await fetchApplicationsPage({ ...first, sort: 'name', search: 'aucune application de ce nom' })).total).toBe(0)
    expect((await fetchApplication(application!.id))?.name).toBe(application!.name)
    expect(await fetchApplication('pas-un-id')).toBeNull()
  })
})

describe('control rules, paged on the server', () => {
  it('sorts on every column and counts them all', async () => {
    const total = (await rowsOf('control_rules')).length
    expect(total).toBeGreaterThan(0)
    for (const sort of Object.keys(CONTROL_RULE_SORTS) as (keyof typeof CONTROL_RULE_SORTS)[]) {
      for (const direction of ['asc', 'desc'] as const) {
        const page = await fetchControlRulesPage({ ...first, sort, direction })
        expect(page.total).toBe(total)
        expect(page.rows).toHaveLength(Math.min(total, 25))
      }
    }
    const byName = await fetchControlRulesPage({ ...first, sort: 'name', size: 100 })
    const expected = await backend.db.query<{ id: string }>('select id from public.control_rules order by name, id limit 100')
    expect(byName.rows.map((rule) => rule.id)).toEqual(expected.rows.map((row) => row.id))
  })

  it('searches the name and the description', async () => {
    const [rule] = await rowsOf<{ id: string; name: string }>('control_rules')
    const found = await fetchControlRulesPage({ ...first, sort: 'name', search: rule!.name })
    expect(found.rows.map((row) => row.id)).toContain(rule!.id)
    expect((await fetchControlRulesPage({ ...first, sort: 'name', search: 'aucune règle de ce nom' })).total).toBe(0)
  })
})
