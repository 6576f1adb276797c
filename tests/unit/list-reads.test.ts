import { createPagedSupabase, type TableRead } from './support/paged-supabase'

// Each list of the administration screens, read through its feature's api.ts against a table longer than one
// page of the API: every row must come back, once, and the pages must be ordered on a unique key.
const backend = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => backend.client }))

const { fetchOwnerChoices } = await import('@/features/applications/api')
const { fetchApplicationChoices } = await import('@/features/control-rules/api')
const { fetchCampaigns, fetchApplicationOptions } = await import('@/features/campaigns/api')

const MANY = 1500
const ids = (prefix: string) => Array.from({ length: MANY }, (_, index) => `${prefix}-${String(index).padStart(4, '0')}`)

function serve(tables: Record<string, Record<string, unknown>[]>) {
  const fake = createPagedSupabase(tables)
  backend.client = fake.client
  return fake.reads
}

/** Every read asked for ranges, in turn, and ended its order on a key no two rows share. */
function expectPagedOnUniqueKey(reads: TableRead[], table: string, key = 'id') {
  const ofTable = reads.filter((read) => read.table === table)
  expect(ofTable.map((read) => read.range)).toEqual([
    [0, 999],
    [1000, 1999],
  ])
  for (const read of ofTable) expect(read.orders.at(-1)).toBe(`${key}.asc`)
}

const applications = () => ids('app').map((id) => ({ id, name: `Application ${id}` }))

describe('lists read past the API’s 1000 rows', () => {
  it('applications: owner choices beyond the first 1000 people', async () => {
    const reads = serve({ users: ids('ra').map((id) => ({ id, first_name: 'R', last_name: id, role: 'ra' })) })
    const choices = await fetchOwnerChoices()
    expect(choices.ra).toHaveLength(MANY)
    expect(choices.ra.map((person) => person.id)).toContain('ra-1499')
    expectPagedOnUniqueKey(reads, 'users')
  })

  it('control rules: every application a rule may target', async () => {
    const reads = serve({ applications: applications() })
    expect((await fetchApplicationChoices()).at(-1)).toEqual({ id: 'app-1499', name: 'Application app-1499' })
    expectPagedOnUniqueKey(reads, 'applications')
  })

  it('campaigns: all 1,500 with the progress of the last one, and every application a campaign may target', async () => {
    const campaignIds = ids('campaign')
    let reads = serve({
      campaigns: campaignIds.map((id) => ({ id, name: id, status: 'active', application: null, creator: null })),
      campaign_progress: campaignIds.map((id, index) => ({ campaign_id: id, rights_count: index, progress: 50, pending_count: 1 })),
    })
    const campaigns = await fetchCampaigns()
    expect(campaigns).toHaveLength(MANY)
    expect(campaigns.at(-1)).toMatchObject({ id: 'campaign-1499', rightsCount: 1499, progress: 50 })
    expectPagedOnUniqueKey(reads, 'campaigns')
    expectPagedOnUniqueKey(reads, 'campaign_progress', 'campaign_id')

    reads = serve({ applications: applications() })
    expect(await fetchApplicationOptions()).toHaveLength(MANY)
    expectPagedOnUniqueKey(reads, 'applications')
  })
})
