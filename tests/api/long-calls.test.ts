// Whole-campaign work goes through calls with a time limit of their own, since the roles' 8 s (as hosted) would cut a
// large start or completion: the catalog carries each limit, which the local REST server applies as PostgREST does,
// and the campaigns page's status change goes through set_campaign_status with the caller's own rights.
import { describe, expect, it, vi } from 'vitest'
import { demo } from '../db/support/actors'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { setCampaignStatus } = await import('@/features/campaigns/api/set-campaign-status')

const backend = testBackendForFile()

async function signIn(email: string) {
  session.client = await backend.signedIn(email)
}

async function draftCampaign(): Promise<string> {
  const { rows } = await backend.db.query<{ id: string }>(
    `insert into public.campaigns (name, start_date, end_date, created_by)
     values ('Revue des délais', current_date, current_date + 30, $1) returning id`,
    [demo.admin.id],
  )
  return rows[0]!.id
}

const statusOf = async (id: string) =>
  (await backend.db.query<{ status: string }>('select status from public.campaigns where id = $1', [id])).rows[0]?.status

describe('calls longer than a role’s statement timeout', () => {
  it('carry a limit of their own in the catalog, which the API applies instead of the role’s 8 s', async () => {
    const { rows } = await backend.db.query<{ name: string; timeout: string | null }>(
      `select p.proname as name,
              (select substr(c, length('statement_timeout=') + 1) from unnest(p.proconfig) c where c like 'statement_timeout=%') as timeout
         from pg_proc p where p.pronamespace = 'public'::regnamespace
          and p.proname in ('set_campaign_status', 'run_campaign_schedule', 'campaign_evidence_items', 'verify_audit_chain', 'import_directory')
        order by p.proname`,
    )
    expect(rows).toEqual([
      { name: 'campaign_evidence_items', timeout: '2min' },
      { name: 'import_directory', timeout: '2min' },
      { name: 'run_campaign_schedule', timeout: '5min' },
      { name: 'set_campaign_status', timeout: '5min' },
      { name: 'verify_audit_chain', timeout: '2min' },
    ])
  })

  it('an administrator starts a campaign through the campaigns page’s call, which sets off its start', async () => {
    const id = await draftCampaign()
    await signIn(demo.admin.email)
    await setCampaignStatus(id, 'active')
    expect(await statusOf(id)).toBe('active')
    const { rows } = await backend.db.query<{ n: string | number }>('select count(*) as n from public.campaign_items where campaign_id = $1', [id])
    expect(Number(rows[0]!.n)).toBeGreaterThan(0)
  })

  it('a manager cannot change a campaign’s status through it, and is told so in French', async () => {
    const id = await draftCampaign()
    await signIn(demo.manager.email)
    await expect(setCampaignStatus(id, 'active')).rejects.toThrow("Campagne introuvable, ou vous n'avez pas le droit de la modifier.")
    expect(await statusOf(id)).toBe('draft')
  })

  it('a transition the campaign cannot make is refused with the database’s reason and changes nothing', async () => {
    const id = await draftCampaign()
    await signIn(demo.admin.email)
    await expect(setCampaignStatus(id, 'archived')).rejects.toThrow()
    expect(await statusOf(id)).toBe('draft')
  })
})
