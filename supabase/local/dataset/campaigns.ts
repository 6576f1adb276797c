import type { Application } from './people'

export type CampaignStatus = 'draft' | 'active' | 'completed' | 'archived'
export type AccountType = 'standard' | 'privileged' | 'technical' | 'shared' | 'emergency' | 'external'

/**
 * Which rights a campaign holds now: the three active campaigns hold what was granted before they started (the
 * application's campaign started first and took that application's rights, then the privileged and the standard ones
 * took the rest of theirs); the four latest completed campaigns hold the other account types; the older ones hold
 * none any more (their rights moved on to later campaigns), and drafts hold none.
 */
export type CampaignHolds = 'application' | AccountType | null

export interface Campaign {
  n: number
  name: string
  description: string
  status: CampaignStatus
  account_type: AccountType | null
  application_n: number | null
  start_date: string
  end_date: string
  holds: CampaignHolds
}

/** Rights granted within this many days of the as-of day are in no campaign yet (every active one started before). */
export const recentGrantDays = 8

const quarter = (day: Date) => `T${Math.floor(day.getUTCMonth() / 3) + 1} ${day.getUTCFullYear()}`
const year = (day: Date) => day.getUTCFullYear()

/** Twenty campaigns around the as-of day: 3 active, 2 drafts, 6 completed, 9 archived. */
export function buildCampaigns(asOf: string, applications: Application[]): Campaign[] {
  const today = new Date(`${asOf}T00:00:00Z`)
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000)
  const iso = (offset: number) => day(offset).toISOString().slice(0, 10)
  const app = (n: number) => applications[n % applications.length] as Application
  const scoped = app(5)
  const campaigns: Omit<Campaign, 'n'>[] = [
    // Active.
    { name: `Revue ${scoped.name} — ${quarter(day(-35))}`, description: `Revue de tous les comptes de ${scoped.name}`, status: 'active', account_type: null, application_n: scoped.n, start_date: iso(-35), end_date: iso(10), holds: 'application' },
    { name: `Revue des comptes à privilèges — ${quarter(day(-30))}`, description: 'Comptes à privilèges de toutes les applications', status: 'active', account_type: 'privileged', application_n: null, start_date: iso(-30), end_date: iso(15), holds: 'privileged' },
    { name: `Revue annuelle ${year(day(-21))} — comptes standard`, description: 'Recertification annuelle des comptes standard', status: 'active', account_type: 'standard', application_n: null, start_date: iso(-21), end_date: iso(24), holds: 'standard' },
    // Completed, holding the account types that no active campaign covers.
    { name: `Revue des comptes techniques ${year(day(-120))}`, description: 'Comptes de service et comptes techniques', status: 'completed', account_type: 'technical', application_n: null, start_date: iso(-120), end_date: iso(-75), holds: 'technical' },
    { name: `Revue des comptes partagés — ${quarter(day(-100))}`, description: 'Comptes partagés et génériques', status: 'completed', account_type: 'shared', application_n: null, start_date: iso(-100), end_date: iso(-60), holds: 'shared' },
    { name: `Revue des prestataires externes — ${quarter(day(-80))}`, description: 'Comptes des prestataires et consultants', status: 'completed', account_type: 'external', application_n: null, start_date: iso(-80), end_date: iso(-45), holds: 'external' },
    { name: `Revue des comptes d'urgence — ${quarter(day(-70))}`, description: 'Comptes d\'urgence (break glass)', status: 'completed', account_type: 'emergency', application_n: null, start_date: iso(-70), end_date: iso(-40), holds: 'emergency' },
    { name: `Revue semestrielle — ${quarter(day(-200))}`, description: 'Revue semestrielle des comptes standard', status: 'completed', account_type: 'standard', application_n: null, start_date: iso(-200), end_date: iso(-150), holds: null },
    { name: `Revue des comptes à privilèges — ${quarter(day(-190))}`, description: 'Comptes à privilèges de toutes les applications', status: 'completed', account_type: 'privileged', application_n: null, start_date: iso(-190), end_date: iso(-160), holds: null },
  ]
  // Archived: one review a quarter before that, alternating the whole directory, one application and privileged accounts.
  for (let i = 0; i < 9; i++) {
    const start = -260 - i * 90
    const kind = i % 3
    campaigns.push({
      name: kind === 0 ? `Revue trimestrielle — ${quarter(day(start))}` : kind === 1 ? `Revue ${app(6 + i).name} — ${quarter(day(start))}` : `Revue des comptes à privilèges — ${quarter(day(start))}`,
      description: kind === 0 ? 'Revue trimestrielle de tous les comptes' : kind === 1 ? `Revue de tous les comptes de ${app(6 + i).name}` : 'Comptes à privilèges de toutes les applications',
      status: 'archived',
      account_type: kind === 2 ? 'privileged' : null,
      application_n: kind === 1 ? app(6 + i).n : null,
      start_date: iso(start),
      end_date: iso(start + 45),
      holds: null,
    })
  }
  // Drafts.
  campaigns.push(
    { name: `Revue annuelle ${year(day(40))} — tous les comptes`, description: 'Recertification annuelle de tous les droits', status: 'draft', account_type: null, application_n: null, start_date: iso(40), end_date: iso(85), holds: null },
    { name: `Revue ${app(7).name} — ${quarter(day(60))}`, description: `Revue de tous les comptes de ${app(7).name}`, status: 'draft', account_type: null, application_n: app(7).n, start_date: iso(60), end_date: iso(90), holds: null },
  )
  return campaigns.map((campaign, n) => ({ n, ...campaign }))
}
