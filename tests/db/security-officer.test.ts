// The security officer's figures (SPEC §2 and §9), computed in Postgres by the reporting migrations (…0900 to …0970):
// the RSSI dashboard and its CSV export, the compliance page, the audit page. Each figure is checked against a dataset
// crafted here with known answers, and against an independent reading of SPEC §9 in TypeScript over every row
// (tests/db/support/security-officer.ts), on more than 1000 rights and 1000 audit events so that nothing can hide
// behind the API's 1000-row page. Only rssi reaches any of it.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, type Actor } from './support/actors'
import { count, expectRefused, one } from './support/fixtures'
import {
  addDays,
  auditText,
  dateIn,
  DAY,
  duplicateIds,
  inScope,
  isAtRisk,
  isCompliant,
  isExpired,
  isFiltered,
  isValidated,
  level,
  loadAudit,
  loadCampaigns,
  loadDecisions,
  loadRights,
  loadRules,
  overlaps,
  rate,
  roleConflicts,
  type AuditEvent,
  type RightFilter,
  type RightRow,
} from './support/security-officer'

// ─── Result shapes (as the UI reads them) ─────────────────────────────────────────────────────────────────────────

interface Dashboard {
  as_of: string
  filters: Record<string, unknown>
  counters: {
    total_rights: number
    validated_rights: number
    validation_rate: number | null
    validation_level: string | null
    at_risk_rights: number
    reviews_in_progress: number
    reviews_completed: number
  }
  compliance_by_application: {
    application_id: string
    application_name: string
    total_rights: number
    validated_rights: number
    rate: number | null
    level: string | null
  }[]
  risks: { key: string; label: string; count: number; ignored_filters: string[] }[]
  active_campaigns: {
    id: string
    name: string
    application_id: string | null
    start_date: string
    end_date: string
    total_rights: number
    reviewed_rights: number
    progress: number | null
    scope_rights: number
    scope_reviewed_rights: number
    scope_progress: number | null
  }[]
  activity: { decisions: number; approved: number; refused: number }
}

interface Compliance {
  cards: {
    total_rights: number
    compliant_rights: number
    non_compliant_rights: number
    validation_rate: number | null
    validation_level: string | null
    active_rules: number
    validated_rights: number
  }
  rules: {
    id: string
    name: string
    global: boolean
    application_id: string | null
    enabled: boolean
    state: string
    violations: number | null
    violations_by_parameter: Record<string, number>
    ignored_parameters: string[]
  }[]
  applications: {
    application_id: string
    application_name: string
    total_rights: number
    compliant_rights: number
    non_compliant_rights: number
    rate: number | null
    level: string | null
  }[]
}

interface ExportRow {
  id: string
  application_id: string
  application_name: string
  user_id: string
  user_name: string
  user_email: string
  role_name: string
  account_type: string
  status: string
  status_label: string
  granted_at: string
  last_used_at: string | null
  validated_at: string | null
  campaign_id: string | null
  campaign_name: string | null
}

// ─── The dataset ─────────────────────────────────────────────────────────────────────────────────────────────────

let db: Database
const tag = randomUUID().slice(0, 8)
let today: string
const apps: Record<string, string> = {}
const people: Record<string, string> = {}
const rights: Record<string, string> = {}
const campaigns: Record<string, string> = {}
const rules: Record<string, string> = {}
const bulkRights = 1500

async function addApplication(key: string, name: string): Promise<void> {
  apps[key] = (
    await one<{ id: string }>(db, `insert into public.applications (name, ra_id, bpo_metier_id) values ($1, $2, $3) returning id`, [
      name,
      demo.ra.id,
      demo.bpo_metier.id,
    ])
  ).id
}

async function addPerson(key: string, first: string, last: string): Promise<void> {
  people[key] = (
    await one<{ id: string }>(db, `insert into public.users (email, first_name, last_name) values ($1, $2, $3) returning id`, [
      `${first.toLowerCase()}.${tag}@kappa.test`,
      first,
      last,
    ])
  ).id
}

/**
 * Writes as the owner with the freeze of closed campaigns off (tests/db/closed-campaigns.test.ts) for the length of one
 * transaction: these figures are checked on rights and decisions in any state, in any campaign. Every other trigger
 * (the audit trail's among them) still runs.
 */
function planted<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(`alter table public.user_rights disable trigger user_rights_guard_closed_campaign`)
    await tx.query(`alter table public.user_rights disable trigger user_rights_guard_closed_campaign_update`)
    await tx.query(`alter table public.right_decisions disable trigger right_decisions_guard_closed_campaign`)
    const result = await fn(tx)
    await tx.query(`alter table public.user_rights enable trigger user_rights_guard_closed_campaign`)
    await tx.query(`alter table public.user_rights enable trigger user_rights_guard_closed_campaign_update`)
    await tx.query(`alter table public.right_decisions enable trigger right_decisions_guard_closed_campaign`)
    return result
  })
}

/** A right written as the owner, in any state: lastUsed is a SQL expression (null = never used). */
async function addRight(
  key: string,
  o: { app: string; holder: string; role: string; status?: string; lastUsed?: string; accountType?: string; campaign?: string },
): Promise<void> {
  rights[key] = (
    await planted((tx) => one<{ id: string }>(
      tx,
      `insert into public.user_rights (user_id, application_id, role_name, status, account_type, last_used_at, campaign_id, granted_at)
       values ($1, $2, $3, $4::public.right_status, $5::public.account_type, ${o.lastUsed ?? 'null'}, $6, '2024-02-03 10:00:00+00')
       returning id`,
      [people[o.holder], apps[o.app], o.role, o.status ?? 'pending', o.accountType ?? 'standard', o.campaign ? campaigns[o.campaign] : null],
    ))
  ).id
}

/** A campaign with dates relative to today, carried through the lifecycle to the given status. */
async function addCampaign(key: string, o: { app: string; start: number; end: number; status: 'draft' | 'active' | 'completed' | 'archived' }) {
  const { id } = await one<{ id: string }>(
    db,
    `insert into public.campaigns (name, application_id, start_date, end_date)
     values ($1, $2, current_date + $3::int, current_date + $4::int) returning id`,
    [`Campagne ${key} ${tag}`, apps[o.app], o.start, o.end],
  )
  campaigns[key] = id
  const path = { draft: [], active: ['active'], completed: ['active', 'completed'], archived: ['active', 'completed', 'archived'] }[o.status]
  for (const status of path) {
    await db.query(`update public.campaigns set status = $2::public.campaign_status where id = $1`, [id, status])
  }
}

/** A decision recorded on a right within a campaign, at a given instant (SQL expression). */
async function addDecision(o: { right: string; campaign: string; decision: 'approved' | 'refused'; at: string }): Promise<void> {
  await planted((tx) => tx.query(
    `insert into public.right_decisions (
       right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name, account_type, campaign_id,
       stage, decision, from_status, to_status, decided_by_email, decided_by_name, decided_at)
     select ur.id, u.id, u.email, u.first_name || ' ' || u.last_name, a.id, a.name, ur.role_name, ur.account_type, $2,
            'manager', $3::public.review_decision, 'pending',
            (case when $3 = 'approved' then 'validated_manager' else 'refused_manager' end)::public.right_status,
            'manager@example.com', 'Marc Dubois', ${o.at}
       from public.user_rights ur
       join public.users u on u.id = ur.user_id
       join public.applications a on a.id = ur.application_id
      where ur.id = $1`,
    [rights[o.right], campaigns[o.campaign], o.decision],
  ))
}

async function addRule(key: string, o: { app?: string; parameters: unknown; enabled?: boolean }): Promise<void> {
  rules[key] = (
    await one<{ id: string }>(
      db,
      `insert into public.control_rules (name, global, application_id, parameters, enabled) values ($1, $2, $3, $4::jsonb, $5) returning id`,
      [`Règle ${key} ${tag}`, !o.app, o.app ? apps[o.app] : null, JSON.stringify(o.parameters), o.enabled ?? true],
    )
  ).id
}

const T = tag
const saisie = `Saisie-${T}`
const approbation = `Approbation-${T}`
const controle = `Controle-${T}`

beforeAll(async () => {
  db = await freshDatabase()
  today = (await one<{ d: string }>(db, `select current_date::text as d`)).d

  for (const [key, name] of Object.entries({
    small: `Kappa Small ${T}`,
    bulk: `Kappa Bulk ${T}`,
    round: `Kappa Round ${T}`,
    green: `Kappa Green ${T}`,
    orange: `Kappa Orange ${T}`,
    camp: `Kappa Camp ${T}`,
    other: `Kappa Other ${T}`,
    sod: `Kappa Sod ${T}`,
    empty: `Kappa Empty ${T}`,
  })) {
    await addApplication(key, name)
  }
  await addPerson('a', 'Alice', `Alpha-${T}`)
  await addPerson('b', 'Bruno', `Bravo-${T}`)
  await addPerson('c', 'Chloe', `Charlie-${T}`)
  await addPerson('d', 'David', `Delta-${T}`)

  // Campaigns first: starting one attaches the rights its application already has.
  await addCampaign('c1', { app: 'camp', start: -10, end: 20, status: 'active' })
  await addCampaign('c2', { app: 'camp', start: -200, end: -150, status: 'active' })
  await addCampaign('c3', { app: 'camp', start: -60, end: -40, status: 'completed' })
  await addCampaign('c4', { app: 'camp', start: -400, end: -380, status: 'archived' })
  await addCampaign('c5', { app: 'other', start: -20, end: -5, status: 'completed' })
  await addCampaign('c6', { app: 'camp', start: -5, end: 5, status: 'draft' })
  await addCampaign('c7', { app: 'empty', start: -1, end: 1, status: 'active' })

  // Kappa Small: eight rights with hand-known answers (at the 90-day boundary, on both sides, by an hour).
  const small: [string, string, string | undefined, string?][] = [
    ['s1', 'validated_user', `now() - interval '10 days'`],
    ['s2', 'validated_bpo_groupe', undefined],
    ['s3', 'refused_manager', `now() - interval '5 days'`],
    ['s4', 'treatment_required', `now() - interval '100 days'`],
    ['s5', 'pending', `now() - interval '90 days' + interval '1 hour'`],
    ['s6', 'pending', `now() - interval '90 days' - interval '1 hour'`],
    ['s7', 'treated', `now() - interval '1 day'`],
    ['s8', 'validated_manager', `now() - interval '20 days'`, 'privileged'],
  ]
  for (const [key, status, lastUsed, accountType] of small) {
    await addRight(key, { app: 'small', holder: 'a', role: `Small-${key}-${T}`, status, lastUsed, accountType })
  }

  // Colour thresholds and rounding: 9/10 = 90 % (green), 3/4 = 75 % (orange), 179/200 = 89.5 % → 90 (green).
  await db.query(
    `insert into public.user_rights (user_id, application_id, role_name, status, last_used_at)
     select $1::uuid, $2::uuid, 'Green-' || g || '-' || $4, (case when g <= 9 then 'validated_user' else 'refused_user' end)::public.right_status,
            now() - interval '1 day'
       from generate_series(1, 10) g
     union all
     select $1::uuid, $3::uuid, 'Orange-' || g || '-' || $4, (case when g <= 3 then 'validated_manager' else 'pending' end)::public.right_status,
            now() - interval '1 day'
       from generate_series(1, 4) g`,
    [people.b, apps.green, apps.orange, T],
  )
  await db.query(
    `insert into public.user_rights (user_id, application_id, role_name, status, last_used_at)
     select $1::uuid, $2::uuid, 'Round-' || g || '-' || $3, (case when g <= 179 then 'validated_bpo_metier' else 'pending' end)::public.right_status,
            case when g <= 150 then now() - interval '1 day' end
       from generate_series(1, 200) g`,
    [people.b, apps.round, T],
  )

  // Kappa Bulk: 1500 rights over 50 holders, every status, account type and age of use, a fifth of them in the seed's
  // active campaign.
  await db.query(
    `insert into public.users (email, first_name, last_name)
     select 'bulk' || g || '.' || $1 || '@kappa.test', 'Bulk', 'Holder-' || g || '-' || $1 from generate_series(1, 50) g`,
    [T],
  )
  await db.query(
    `insert into public.user_rights (user_id, application_id, role_name, account_type, status, granted_at, last_used_at, campaign_id)
     select u.id, $2, 'Bulkrole-' || $1 || '-' || g,
            (enum_range(null::public.account_type))[1 + g % 6],
            (enum_range(null::public.right_status))[1 + g % 11],
            now() - (g % 900) * interval '1 day',
            case when g % 7 = 0 then null else now() - (g % 200) * interval '1 day' - interval '12 hours' end,
            case when g % 5 = 0 then $3::uuid end
       from generate_series(1, ${bulkRights}) g
       join public.users u on u.email = 'bulk' || (1 + g % 50) || '.' || $1 || '@kappa.test'`,
    [T, apps.bulk, campaignIds.active],
  )

  // Separation of duties on Kappa Sod (and one cross-application holding).
  const recent = `now() - interval '1 day'`
  await addRight('sodA1', { app: 'sod', holder: 'a', role: saisie, lastUsed: recent })
  await addRight('sodA2', { app: 'sod', holder: 'a', role: approbation, lastUsed: recent })
  await addRight('sodB1', { app: 'sod', holder: 'b', role: saisie, lastUsed: recent })
  await addRight('sodB2', { app: 'sod', holder: 'b', role: approbation.toLowerCase(), lastUsed: recent })
  await addRight('sodC1', { app: 'sod', holder: 'c', role: saisie, lastUsed: `now() - interval '45 days'` })
  await addRight('sodC2', { app: 'other', holder: 'c', role: approbation, lastUsed: recent })
  await addRight('sodD1', { app: 'sod', holder: 'd', role: saisie, lastUsed: recent })
  await addRight('sodD2', { app: 'sod', holder: 'd', role: approbation, lastUsed: recent })
  await addRight('sodD3', { app: 'sod', holder: 'd', role: controle })

  await addRule('sodApp', { app: 'sod', parameters: { incompatible_roles: [saisie, ` ${approbation} `] } })
  await addRule('sodGlobal', { parameters: { incompatible_roles: [saisie, approbation, controle] } })
  await addRule('inactive30', { app: 'sod', parameters: { inactivity_threshold: 30 } })
  await addRule('both', { app: 'sod', parameters: { inactivity_threshold: 30, incompatible_roles: [saisie, approbation], foo: 1 } })
  await addRule('disabled', { app: 'sod', parameters: { inactivity_threshold: 1 }, enabled: false })
  await addRule('unknown', { app: 'sod', parameters: { max_accounts: 3 } })

  // Campaign rights and decisions on Kappa Camp (and Kappa Other).
  await addRight('camp1', { app: 'camp', holder: 'a', role: `Camp-1-${T}`, status: 'pending', lastUsed: recent, campaign: 'c1' })
  await addRight('camp2', { app: 'camp', holder: 'a', role: `Camp-2-${T}`, status: 'validated_user', lastUsed: recent, campaign: 'c1' })
  await addRight('camp3', { app: 'camp', holder: 'a', role: `Camp-3-${T}`, status: 'refused_user', lastUsed: recent, campaign: 'c1' })
  await addRight('camp4', { app: 'camp', holder: 'a', role: `Camp-4-${T}`, status: 'treated', lastUsed: recent, campaign: 'c1' })
  await addRight('campOther1', { app: 'other', holder: 'b', role: `CampOther-1-${T}`, campaign: 'c1' })
  await addRight('campOther2', { app: 'other', holder: 'b', role: `CampOther-2-${T}`, campaign: 'c1' })
  await addRight('camp5', { app: 'camp', holder: 'a', role: `Camp-5-${T}`, campaign: 'c2' })
  await addRight('camp6', { app: 'camp', holder: 'a', role: `Camp-6-${T}`, status: 'validated_bpo_metier', campaign: 'c3' })
  await addRight('camp7', { app: 'camp', holder: 'a', role: `Camp-7-${T}`, status: 'treatment_required', campaign: 'c3' })
  await addRight('camp8', { app: 'camp', holder: 'a', role: `Camp-8-${T}`, status: 'validated_manager' })
  await addRight('other5', { app: 'other', holder: 'b', role: `Other-5-${T}`, status: 'refused_user', campaign: 'c5' })
  await addDecision({ right: 'camp2', campaign: 'c1', decision: 'approved', at: `now() - interval '3 days'` })
  await addDecision({ right: 'camp3', campaign: 'c1', decision: 'refused', at: `now() - interval '4 days'` })
  await addDecision({ right: 'camp6', campaign: 'c3', decision: 'approved', at: `now() - interval '50 days'` })
  await addDecision({ right: 'camp8', campaign: 'c4', decision: 'approved', at: `now() - interval '390 days'` })
  await addDecision({ right: 'other5', campaign: 'c5', decision: 'refused', at: `now() - interval '6 days'` })
  // 23:30 UTC on 10 March 2026 is already 11 March in Paris.
  await addDecision({ right: 'camp7', campaign: 'c3', decision: 'refused', at: `'2026-03-10 23:30:00+00'` })

  // A search must take % and _ literally.
  await addRight('pct', { app: 'other', holder: 'b', role: `Pct-100%_x-${T}` })
  await addRight('pctDecoy', { app: 'other', holder: 'b', role: `Pct-100ab-${T}` })

  // Audit events at known instants (written as the owner; the API can write none).
  await db.query(
    `insert into public.audit_logs (action, resource_type, resource_id, details, "timestamp") values
       ($1, 'probe', 'e1', '{"note": "dernier soir UTC"}', '2026-03-10 23:30:00+00'),
       ($1, 'probe', 'e2', '{"note": "soir à Paris"}', '2026-03-11 22:30:00+00'),
       ($1, 'probe', 'e3', '{"note": "lendemain à Paris"}', '2026-03-11 23:30:00+00')`,
    [`probe-${T}`],
  )
  // And some by a signed-in person.
  await actAs(db, 'admin', (tx) => tx.query(`update public.control_rules set description = 'Revue ' || $2 where id = $1`, [rules.unknown, T]))
}, 120_000)
afterAll(() => db.close())

// ─── Callers ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** When set, the most rights a search may match and still be read from a short list (see private.rights_matching_if_few). */
let searchListMax: number | undefined

function asRssi<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
  return actAs(db, 'rssi', async (tx) => {
    if (searchListMax !== undefined) await tx.query(`select set_config('recertif.search_list_max', $1, true)`, [String(searchListMax)])
    return fn(tx)
  })
}

async function withSearchListMax<T>(max: number, fn: () => Promise<T>): Promise<T> {
  searchListMax = max
  try {
    return await fn()
  } finally {
    searchListMax = undefined
  }
}

interface DashboardArgs {
  search?: string
  applicationId?: string
  accountType?: string
  from?: string
  to?: string
  timeZone?: string
}

async function dashboard(a: DashboardArgs = {}): Promise<Dashboard> {
  return asRssi(
    async (tx) =>
      (
        await one<{ d: Dashboard }>(
          tx,
          `select public.rssi_dashboard(p_search => $1, p_application_id => $2, p_account_type => $3::public.account_type,
                                        p_from => $4::date, p_to => $5::date, p_time_zone => coalesce($6, 'Europe/Paris')) as d`,
          [a.search ?? null, a.applicationId ?? null, a.accountType ?? null, a.from ?? null, a.to ?? null, a.timeZone ?? null],
        )
      ).d,
  )
}

async function compliance(applicationId: string | null = null): Promise<Compliance> {
  return asRssi(async (tx) => (await one<{ c: Compliance }>(tx, `select public.rssi_compliance($1) as c`, [applicationId])).c)
}

async function exportPage(f: RightFilter, afterId: string | null, limit: number): Promise<ExportRow[]> {
  return asRssi(async (tx) => {
    const { rows } = await tx.query<ExportRow>(
      `select id::text, application_id::text, application_name, user_id::text, user_name, user_email, role_name,
              account_type::text, status::text, status_label, granted_at::text, last_used_at::text, validated_at::text,
              campaign_id::text, campaign_name
         from public.rssi_rights_export($1, $2, $3::public.account_type, $4, $5)`,
      [f.search ?? null, f.applicationId ?? null, f.accountType ?? null, afterId, limit],
    )
    return rows
  })
}

/** Every row of the export, page by page as the browser fetches them. */
async function exportAll(f: RightFilter, limit = 1000): Promise<{ rows: ExportRow[]; pages: number[] }> {
  const all: ExportRow[] = []
  const pages: number[] = []
  let after: string | null = null
  for (;;) {
    const page = await exportPage(f, after, limit)
    pages.push(page.length)
    all.push(...page)
    if (page.length < limit) return { rows: all, pages }
    after = page[page.length - 1]!.id
  }
}

async function rightsCount(f: RightFilter): Promise<number> {
  return asRssi((tx) => count(tx, `select public.rssi_rights_count($1, $2, $3::public.account_type)`, [f.search ?? null, f.applicationId ?? null, f.accountType ?? null]))
}

interface AuditFilter {
  search?: string
  userId?: string
  action?: string
  from?: string
  to?: string
  timeZone?: string
}

interface AuditPageRow {
  id: number
  ts: string
  user_id: string | null
  action: string
}

async function auditPage(f: AuditFilter, page: { limit?: number; offset?: number; beforeId?: number } = {}): Promise<AuditPageRow[]> {
  return asRssi(async (tx) => {
    const { rows } = await tx.query<{ id: number | string; ts: string; user_id: string | null; action: string }>(
      `select id, "timestamp"::text as ts, user_id::text, action
         from public.rssi_audit_events(p_search => $1, p_user_id => $2, p_action => $3, p_from => $4::date, p_to => $5::date,
                                       p_time_zone => coalesce($6, 'Europe/Paris'), p_limit => $7, p_offset => $8,
                                       p_before_id => $9)`,
      [
        f.search ?? null,
        f.userId ?? null,
        f.action ?? null,
        f.from ?? null,
        f.to ?? null,
        f.timeZone ?? null,
        page.limit ?? 100,
        page.offset ?? 0,
        page.beforeId ?? null,
      ],
    )
    return rows.map((r) => ({ ...r, id: Number(r.id) }))
  })
}

/** Every event of a search, 1000 at a time from the last one received, as the CSV export fetches them. */
async function auditAll(f: AuditFilter): Promise<{ ids: number[]; pages: number[] }> {
  const ids: number[] = []
  const pages: number[] = []
  let beforeId: number | undefined
  for (;;) {
    const page = await auditPage(f, { limit: 1000, ...(beforeId !== undefined ? { beforeId } : {}) })
    pages.push(page.length)
    ids.push(...page.map((r) => r.id))
    if (page.length < 1000) return { ids, pages }
    beforeId = page[page.length - 1]!.id
  }
}

async function auditCount(f: AuditFilter): Promise<number> {
  return asRssi((tx) =>
    count(
      tx,
      `select public.rssi_audit_count(p_search => $1, p_user_id => $2, p_action => $3, p_from => $4::date, p_to => $5::date,
                                      p_time_zone => coalesce($6, 'Europe/Paris'))`,
      [f.search ?? null, f.userId ?? null, f.action ?? null, f.from ?? null, f.to ?? null, f.timeZone ?? null],
    ),
  )
}

// ─── Expected figures, from the rows ─────────────────────────────────────────────────────────────────────────────

/** The filters set that « Rôles incompatibles » leaves aside, as Conformité knows neither. */
const ignoredBySeparation = (f: RightFilter) => [...(f.search?.trim() ? ['search'] : []), ...(f.accountType ? ['account_type'] : [])]

async function expectedState(f: RightFilter) {
  const now = Date.now()
  const all = await loadRights(db)
  const scope = all.filter((r) => inScope(r, f))
  const duplicates = duplicateIds(all)
  const byApp = new Map<string, RightRow[]>()
  for (const r of scope) byApp.set(r.applicationId, [...(byApp.get(r.applicationId) ?? []), r])
  const validated = scope.filter((r) => isValidated(r.status)).length
  const atRisk = scope.filter((r) => isAtRisk(r, now)).length
  const validationRate = rate(validated, scope.length)
  return {
    scope,
    counters: {
      total_rights: scope.length,
      validated_rights: validated,
      validation_rate: validationRate,
      validation_level: level(validationRate),
      at_risk_rights: atRisk,
    },
    byApplication: new Map(
      [...byApp].map(([id, rows]) => {
        const v = rows.filter((r) => isValidated(r.status)).length
        return [id, { total_rights: rows.length, validated_rights: v, rate: rate(v, rows.length), level: level(rate(v, rows.length)) }]
      }),
    ),
    risks: [
      { key: 'expired', label: 'Comptes expirés', count: scope.filter(isExpired).length, ignored_filters: [] },
      { key: 'inactive', label: 'Comptes inactifs', count: atRisk, ignored_filters: [] },
      {
        key: 'incompatible_roles',
        label: 'Rôles incompatibles',
        count: roleConflicts(all, await loadRules(db), f.applicationId).length,
        ignored_filters: ignoredBySeparation(f),
      },
      { key: 'duplicates', label: 'Doublons', count: scope.filter((r) => duplicates.has(r.id)).length, ignored_filters: [] },
    ],
  }
}

async function expectedActivity(f: RightFilter, from: string | null, to: string | null, timeZone = 'Europe/Paris') {
  const rightsById = new Map((await loadRights(db)).map((r) => [r.id, r]))
  const scoped = (rightId: string | null) => {
    const r = rightId === null ? undefined : rightsById.get(rightId)
    return r !== undefined && inScope(r, f)
  }
  const decisions = await loadDecisions(db)
  const campaignRows = await loadCampaigns(db)
  const reviewed = (c: { id: string }) =>
    !isFiltered(f) ||
    [...rightsById.values()].some((r) => r.campaignId === c.id && inScope(r, f)) ||
    decisions.some((d) => d.campaignId === c.id && scoped(d.rightId))
  // Running campaigns are a state; closed ones count when their period overlaps the window.
  const inWindow = campaignRows.filter((c) => (c.status === 'active' || overlaps(c.startDate, c.endDate, from, to)) && reviewed(c))
  const windowDecisions = decisions.filter((d) => {
    const date = dateIn(d.decidedMs, timeZone)
    return (from === null || date >= from) && (to === null || date <= to) && (!isFiltered(f) || scoped(d.rightId))
  })
  const active = inWindow.filter((c) => c.status === 'active')
  return {
    reviews_in_progress: active.length,
    reviews_completed: inWindow.filter((c) => c.status === 'completed' || c.status === 'archived').length,
    activeIds: active.map((c) => c.id).sort(),
    activity: {
      decisions: windowDecisions.length,
      approved: windowDecisions.filter((d) => d.decision === 'approved').length,
      refused: windowDecisions.filter((d) => d.decision === 'refused').length,
    },
  }
}

async function expectDashboardMatches(f: RightFilter, window: { from?: string; to?: string } = {}) {
  const actual = await dashboard({ ...f, ...window })
  const state = await expectedState(f)
  const activity = await expectedActivity(f, window.from ?? null, window.to ?? null)
  expect(actual.counters).toEqual({
    ...state.counters,
    reviews_in_progress: activity.reviews_in_progress,
    reviews_completed: activity.reviews_completed,
  })
  expect(actual.risks).toEqual(state.risks)
  expect(new Map(actual.compliance_by_application.map(({ application_id, application_name: _n, ...rest }) => [application_id, rest]))).toEqual(
    state.byApplication,
  )
  expect(actual.active_campaigns.map((c) => c.id).sort()).toEqual(activity.activeIds)
  expect(actual.activity).toEqual(activity.activity)
  return actual
}

// ─── RSSI dashboard ──────────────────────────────────────────────────────────────────────────────────────────────

describe('RSSI dashboard: state figures', () => {
  it('counts a crafted application exactly: validation rate 3/8 = 37.5 % rounds to 38, the 90-day boundary, the four risks', async () => {
    const d = await dashboard({ applicationId: apps.small })
    expect(d.counters).toEqual({
      total_rights: 8,
      validated_rights: 3, // validated_user, validated_bpo_groupe, validated_manager
      validation_rate: 38,
      validation_level: 'red',
      at_risk_rights: 3, // never used, 100 days, 90 days and an hour (not 90 days less an hour)
      reviews_in_progress: 0,
      reviews_completed: 0,
    })
    expect(d.risks).toEqual([
      { key: 'expired', label: 'Comptes expirés', count: 0, ignored_filters: [] }, // Alice is active
      { key: 'inactive', label: 'Comptes inactifs', count: 3, ignored_filters: [] },
      { key: 'incompatible_roles', label: 'Rôles incompatibles', count: 0, ignored_filters: [] }, // no listed role there
      { key: 'duplicates', label: 'Doublons', count: 8, ignored_filters: [] }, // s8 is a second, privileged account
    ])
    expect(d.compliance_by_application).toEqual([
      { application_id: apps.small, application_name: `Kappa Small ${T}`, total_rights: 8, validated_rights: 3, rate: 38, level: 'red' },
    ])
  })

  it('colours each application by its rounded rate: 90 % green, 75 % orange, 89.5 % rounds to 90 and is green', async () => {
    for (const [key, expected] of [
      ['green', { total_rights: 10, validated_rights: 9, rate: 90, level: 'green' }],
      ['orange', { total_rights: 4, validated_rights: 3, rate: 75, level: 'orange' }],
      ['round', { total_rights: 200, validated_rights: 179, rate: 90, level: 'green' }],
    ] as const) {
      const d = await dashboard({ applicationId: apps[key] })
      expect(d.compliance_by_application, key).toEqual([{ application_id: apps[key], application_name: expect.any(String), ...expected }])
      expect(d.counters.validation_level, key).toBe(expected.level)
    }
  })

  it('counts every right of the organisation (no filter), more than 1000, as SPEC §9 defines each figure', async () => {
    const d = await expectDashboardMatches({})
    expect(d.counters.total_rights).toBeGreaterThan(1000)
    expect(d.filters).toEqual({ search: null, application_id: null, account_type: null, from: null, to: null, time_zone: 'Europe/Paris' })
    // Applications by name (the database's collation), only those with rights in scope.
    const { rows } = await db.query<{ id: string }>(
      `select a.id::text from public.applications a where exists (select 1 from public.user_rights ur where ur.application_id = a.id) order by a.name, a.id`,
    )
    expect(d.compliance_by_application.map((a) => a.application_id)).toEqual(rows.map((r) => r.id))
  })

  it('counts the 1500 rights of one application, beyond the API page', async () => {
    const d = await expectDashboardMatches({ applicationId: apps.bulk })
    expect(d.counters.total_rights).toBe(bulkRights)
  })

  it('filters by account type, alone and with an application', async () => {
    for (const accountType of ['privileged', 'emergency', 'external']) {
      await expectDashboardMatches({ accountType })
    }
    const d = await expectDashboardMatches({ applicationId: apps.small, accountType: 'privileged' })
    expect(d.counters).toMatchObject({ total_rights: 1, validated_rights: 1, validation_rate: 100, validation_level: 'green', at_risk_rights: 0 })
  })

  it('searches holders by name or e-mail, applications by name and roles, case-insensitively', async () => {
    for (const search of [`ALICE ALPHA-${T}`, `bruno.${T}@KAPPA`, `kappa small ${T}`, `small-s3-${T}`, `BULKROLE-${T}-1`, `holder-7-${T}`, 'comptable']) {
      const d = await expectDashboardMatches({ search })
      expect(d.counters.total_rights, search).toBeGreaterThan(0)
    }
    const d = await dashboard({ search: `SMALL-S` })
    expect(d.counters.total_rights).toBe(8)
  })

  it('takes % and _ in a search literally', async () => {
    const d = await expectDashboardMatches({ search: '100%_' })
    expect(d.counters.total_rights).toBe(1)
    expect((await dashboard({ search: `pct-100` })).counters.total_rights).toBe(2)
  })

  it('treats a blank search as no search', async () => {
    const blank = await dashboard({ search: '   ' })
    const none = await dashboard()
    expect(blank.counters).toEqual(none.counters)
    expect(blank.filters.search).toBeNull()
  })

  it('gives the same figures whether a search is read from a short list of matches or tested right by right', async () => {
    const shortList = (search: string) =>
      asRssi(async (tx) => (await one<{ short: boolean }>(tx, `select private.rights_matching_if_few(private.search_pattern($1)) is not null as short`, [search])).short)
    const searches: RightFilter[] = [
      { search: 'Bulk', accountType: 'technical' },
      { search: 'bulk', applicationId: apps.bulk },
      { search: `bulkrole-${T}-1` },
      { search: `ALICE ALPHA-${T}` },
      { search: `camp-3-${T}` },
    ]
    for (const max of [10_000, 100, 0]) {
      await withSearchListMax(max, async () => {
        // "bulk" matches 1500 rights three times over (holder, application, role); "bulkrole-…-1" 611 roles.
        expect(await shortList('bulk')).toBe(max >= 4500)
        expect(await shortList(`bulkrole-${T}-1`)).toBe(max >= 611)
        for (const f of searches) {
          await expectDashboardMatches(f)
          await expectDashboardMatches(f, { from: addDays(today, -30), to: today })
          expect(await rightsCount(f)).toBe((await loadRights(db)).filter((r) => inScope(r, f)).length)
        }
        expect((await dashboard({ search: `camp-3-${T}` })).active_campaigns.map((c) => c.scope_rights)).toEqual([1])
      })
    }
  })

  it('reports an empty scope without dividing by zero', async () => {
    const d = await dashboard({ search: `nobody-${randomUUID()}` })
    expect(d.counters).toEqual({
      total_rights: 0,
      validated_rights: 0,
      validation_rate: null,
      validation_level: null,
      at_risk_rights: 0,
      reviews_in_progress: 0,
      reviews_completed: 0,
    })
    expect(d.compliance_by_application).toEqual([])
    // Rôles incompatibles counts as Conformité does, without the search, and says so.
    const conflicts = (await compliance()).rules.reduce((sum, rule) => sum + (rule.violations_by_parameter.incompatible_roles ?? 0), 0)
    expect(conflicts).toBeGreaterThan(0)
    expect(d.risks.map((r) => [r.key, r.count, r.ignored_filters])).toEqual([
      ['expired', 0, []],
      ['inactive', 0, []],
      ['incompatible_roles', conflicts, ['search']],
      ['duplicates', 0, []],
    ])
    expect(d.active_campaigns).toEqual([])
    expect(d.activity).toEqual({ decisions: 0, approved: 0, refused: 0 })

    const e = await dashboard({ applicationId: apps.empty })
    expect(e.counters.validation_rate).toBeNull()
    expect(e.counters.reviews_in_progress).toBe(0) // c7 targets it but reviewed no right
  })

  it('does not let the window change the state figures', async () => {
    const all = await dashboard({ applicationId: apps.small })
    const week = await dashboard({ applicationId: apps.small, from: addDays(today, -7), to: today })
    expect(week.counters).toEqual(all.counters)
    expect(week.risks).toEqual(all.risks)
    expect(week.compliance_by_application).toEqual(all.compliance_by_application)
  })

  it('refuses an unknown application, a window that ends before it starts and an unknown time zone', async () => {
    const unknown = await attempt(db, 'rssi', (tx) => tx.query(`select public.rssi_dashboard(p_application_id => $1)`, [randomUUID()]))
    expectRefused(unknown, 'P0001', /Application introuvable/)
    const reversed = await attempt(db, 'rssi', (tx) => tx.query(`select public.rssi_dashboard(p_from => '2026-03-02', p_to => '2026-03-01')`))
    expectRefused(reversed, '22023', /date de début/)
    const zone = await attempt(db, 'rssi', (tx) => tx.query(`select public.rssi_dashboard(p_time_zone => 'Mars/Olympus')`))
    expectRefused(zone, '22023', /Fuseau horaire inconnu/)
  })
})

describe('RSSI dashboard: activity in the window', () => {
  const camp = () => ({ applicationId: apps.camp })

  it('counts every running campaign whatever the window, and the closed ones whose period overlaps it, that reviewed rights in scope', async () => {
    // c1 and c2 are running (c2's end date is 150 days past): in progress whatever the window.
    const cases: [string | undefined, string | undefined, number, number][] = [
      [undefined, undefined, 2, 2], // c3 completed, c4 archived (through its decision only)
      [addDays(today, -30), today, 2, 0],
      [addDays(today, -70), today, 2, 1], // c3
      [addDays(today, -1000), addDays(today, -390), 2, 1], // c4
      [addDays(today, -390), undefined, 2, 2],
      [undefined, addDays(today, -201), 2, 1], // c4 only
    ]
    for (const [from, to, inProgress, completed] of cases) {
      const d = await dashboard({ ...camp(), ...(from ? { from } : {}), ...(to ? { to } : {}) })
      expect([d.counters.reviews_in_progress, d.counters.reviews_completed], `${from} → ${to}`).toEqual([inProgress, completed])
      expect(d.active_campaigns.length).toBe(inProgress)
    }
  })

  it('lists the active campaigns with the whole campaign’s progress and the progress on the rights in scope', async () => {
    const d = await dashboard(camp())
    expect(d.active_campaigns).toEqual([
      expect.objectContaining({
        id: campaigns.c2,
        application_id: apps.camp,
        start_date: addDays(today, -200),
        end_date: addDays(today, -150),
        total_rights: 1,
        reviewed_rights: 0,
        progress: 0,
        scope_rights: 1,
        scope_reviewed_rights: 0,
        scope_progress: 0,
      }),
      expect.objectContaining({
        id: campaigns.c1,
        name: `Campagne c1 ${T}`,
        start_date: addDays(today, -10),
        end_date: addDays(today, 20),
        // pending, validated_user, refused_user, treated on Kappa Camp; two pending on Kappa Other. Reviewed: the
        // refusal and the one the RA treated; the holder's approval awaits the manager.
        total_rights: 6,
        reviewed_rights: 2,
        progress: 33,
        scope_rights: 4,
        scope_reviewed_rights: 2,
        scope_progress: 50,
      }),
    ])
  })

  it('narrows the campaigns to those that reviewed the rights a search finds', async () => {
    const d = await dashboard({ search: `camp-3-${T}` })
    expect(d.active_campaigns).toEqual([expect.objectContaining({ id: campaigns.c1, scope_rights: 1, scope_reviewed_rights: 1, scope_progress: 100 })])
    expect(d.counters.reviews_completed).toBe(0)
    expect(d.activity).toEqual({ decisions: 1, approved: 0, refused: 1 })

    const other = await dashboard({ applicationId: apps.other })
    expect([other.counters.reviews_in_progress, other.counters.reviews_completed]).toEqual([1, 1]) // c1; c5
  })

  it('counts an active campaign without rights only when no filter is set, with no progress to show', async () => {
    const d = await expectDashboardMatches({})
    const c7 = d.active_campaigns.find((c) => c.id === campaigns.c7)
    expect(c7).toMatchObject({ total_rights: 0, reviewed_rights: 0, progress: null, scope_rights: 0, scope_progress: null })
    const c1 = d.active_campaigns.find((c) => c.id === campaigns.c1)
    expect(c1).toMatchObject({ total_rights: 6, reviewed_rights: 2, progress: 33, scope_rights: 6, scope_progress: 33 })
    expect(d.active_campaigns.some((c) => c.id === campaigns.c6)).toBe(false) // a draft is never counted
  })

  it('counts the decisions taken in the window, on rights in scope', async () => {
    const cases: [string | null, string | null, string, { decisions: number; approved: number; refused: number }][] = [
      [null, null, 'Europe/Paris', { decisions: 5, approved: 3, refused: 2 }],
      [addDays(today, -30), today, 'Europe/Paris', { decisions: 2, approved: 1, refused: 1 }],
      // 2026-03-10 23:30 UTC: 11 March in Paris, 10 March in UTC.
      ['2026-03-11', '2026-03-11', 'Europe/Paris', { decisions: 1, approved: 0, refused: 1 }],
      ['2026-03-11', '2026-03-11', 'UTC', { decisions: 0, approved: 0, refused: 0 }],
      ['2026-03-10', '2026-03-10', 'UTC', { decisions: 1, approved: 0, refused: 1 }],
    ]
    for (const [from, to, timeZone, expected] of cases) {
      const d = await dashboard({ ...camp(), ...(from ? { from } : {}), ...(to ? { to } : {}), timeZone })
      expect(d.activity, `${from} → ${to} ${timeZone}`).toEqual(expected)
      expect((await expectedActivity(camp(), from, to, timeZone)).activity).toEqual(expected)
    }
  })

  it('matches the reading of SPEC over every row for the period buttons (week, month, quarter, default 30 days)', async () => {
    const month = new Date(`${today}T00:00:00Z`)
    month.setUTCMonth(month.getUTCMonth() - 1)
    const quarter = new Date(`${today}T00:00:00Z`)
    quarter.setUTCMonth(quarter.getUTCMonth() - 3)
    for (const from of [addDays(today, -7), month.toISOString().slice(0, 10), quarter.toISOString().slice(0, 10), addDays(today, -30)]) {
      await expectDashboardMatches({}, { from, to: today })
      await expectDashboardMatches({ applicationId: apps.camp }, { from, to: today })
      await expectDashboardMatches({ search: 'kappa' }, { from, to: today })
    }
  })
})

// ─── RSSI dashboard: CSV export ──────────────────────────────────────────────────────────────────────────────────

describe('RSSI dashboard: CSV export', () => {
  async function expectExportMatches(f: RightFilter, limit = 1000) {
    const expected = (await loadRights(db)).filter((r) => inScope(r, f)).map((r) => r.id)
    const { rows, pages } = await exportAll(f, limit)
    const ids = rows.map((r) => r.id)
    expect(new Set(ids).size, 'no right twice').toBe(ids.length)
    expect([...ids].sort()).toEqual([...expected].sort())
    expect(ids).toEqual([...ids].sort()) // keyset order: by id
    expect(await rightsCount(f)).toBe(expected.length)
    expect((await dashboard(f)).counters.total_rights).toBe(expected.length)
    return { rows, pages }
  }

  it('exports every right, 1000 per page, past the API cap', async () => {
    const { rows, pages } = await expectExportMatches({})
    expect(rows.length).toBeGreaterThan(1000)
    expect(pages.slice(0, -1).every((n) => n === 1000)).toBe(true)
    expect(pages.at(-1)).toBeLessThan(1000)
  })

  it('exports under each filter, in pages of any size', async () => {
    const { pages } = await expectExportMatches({ applicationId: apps.bulk }, 400)
    expect(pages).toEqual([400, 400, 400, 300])
    await expectExportMatches({ accountType: 'shared' }, 250)
    await expectExportMatches({ search: `bulkrole-${T}-1` }, 100)
    await expectExportMatches({ search: 'BULK' }, 1000)
    await expectExportMatches({ search: `holder-3-${T}`, accountType: 'standard' })
    await expectExportMatches({ search: '100%_' })
    await expectExportMatches({ search: `nobody-${randomUUID()}` })
    // The same rows when each right is tested instead of read from the short list of matches.
    await withSearchListMax(0, async () => {
      await expectExportMatches({ search: `bulkrole-${T}-1` }, 100)
      await expectExportMatches({ search: `holder-3-${T}`, accountType: 'standard' })
      await expectExportMatches({ search: '100%_' })
    })
  })

  it('gives SPEC’s columns: application, holder, role, status (code and French label), grant and last use dates, campaign', async () => {
    const [s1] = await exportPage({ search: `small-s1-${T}` }, null, 10)
    expect(s1).toEqual({
      id: rights.s1,
      application_id: apps.small,
      application_name: `Kappa Small ${T}`,
      user_id: people.a,
      user_name: `Alice Alpha-${T}`,
      user_email: `alice.${T}@kappa.test`,
      role_name: `Small-s1-${T}`,
      account_type: 'standard',
      status: 'validated_user',
      status_label: 'Validé par l\'utilisateur',
      granted_at: expect.stringMatching(/^2024-02-03 /),
      last_used_at: expect.any(String),
      validated_at: null,
      campaign_id: null,
      campaign_name: null,
    })
    const [s2] = await exportPage({ search: `small-s2-${T}` }, null, 10)
    expect(s2).toMatchObject({ status_label: 'Validé par le BPO Groupe', last_used_at: null })
    const inCampaign = (await exportAll({ applicationId: apps.bulk })).rows.filter((r) => r.campaign_id !== null)
    expect(inCampaign.length).toBe(bulkRights / 5)
    expect(new Set(inCampaign.map((r) => r.campaign_name))).toEqual(new Set(['Revue T4 2026 — comptes standard']))
  })

  it('refuses a page of fewer than 1 or more than 1000 rows rather than cutting it', async () => {
    for (const limit of [0, 1001]) {
      const outcome = await attempt(db, 'rssi', (tx) => tx.query(`select * from public.rssi_rights_export(p_limit => $1)`, [limit]))
      expectRefused(outcome, '22023', /entre 1 et 1000/)
    }
  })
})

// ─── Compliance page ─────────────────────────────────────────────────────────────────────────────────────────────

function ruleOf(c: Compliance, key: string): Compliance['rules'][number] | undefined {
  return c.rules.find((r) => r.id === rules[key])
}

describe('compliance page', () => {
  it('fills the four cards for one application: compliant = not refused and used within 90 days', async () => {
    const c = await compliance(apps.small)
    // compliant: validated_user 10 days, pending 90 days less an hour, treated 1 day, validated_manager 20 days
    expect(c.cards).toEqual({
      total_rights: 8,
      compliant_rights: 4,
      non_compliant_rights: 4,
      compliance_rate: 50,
      compliance_level: 'red',
      active_rules: await count(db, `select count(*) from public.control_rules where enabled and global`),
      validated_rights: 3,
    })
    expect(c.applications).toEqual([
      { application_id: apps.small, application_name: `Kappa Small ${T}`, total_rights: 8, compliant_rights: 4, non_compliant_rights: 4, rate: 50, level: 'red' },
    ])
  })

  it('matches the reading of SPEC over every right, for all applications and for each one', async () => {
    const now = Date.now()
    const all = await loadRights(db)
    const c = await compliance()
    const compliant = all.filter((r) => isCompliant(r, now)).length
    expect(c.cards).toEqual({
      total_rights: all.length,
      compliant_rights: compliant,
      non_compliant_rights: all.length - compliant,
      compliance_rate: rate(compliant, all.length),
      compliance_level: level(rate(compliant, all.length)),
      active_rules: await count(db, `select count(*) from public.control_rules where enabled`),
      validated_rights: all.filter((r) => isValidated(r.status)).length,
    })
    const { rows: applications } = await db.query<{ id: string; name: string }>(`select id::text, name from public.applications order by name, id`)
    expect(c.applications.map((a) => a.application_id)).toEqual(applications.map((a) => a.id))
    for (const a of c.applications) {
      const rows = all.filter((r) => r.applicationId === a.application_id)
      const ok = rows.filter((r) => isCompliant(r, now)).length
      expect(a, a.application_name).toEqual({
        application_id: a.application_id,
        application_name: applications.find((x) => x.id === a.application_id)!.name,
        total_rights: rows.length,
        compliant_rights: ok,
        non_compliant_rights: rows.length - ok,
        rate: rate(ok, rows.length),
        level: level(rate(ok, rows.length)),
      })
    }
    expect(c.applications.find((a) => a.application_id === apps.empty)).toMatchObject({ total_rights: 0, rate: null, level: null })
    expect((await compliance(apps.bulk)).cards.total_rights).toBe(bulkRights)
  })

  it('reports an application without rights without dividing by zero', async () => {
    const c = await compliance(apps.empty)
    expect(c.cards).toMatchObject({ total_rights: 0, compliant_rights: 0, non_compliant_rights: 0, compliance_rate: null, compliance_level: null, validated_rights: 0 })
    expect(c.applications).toEqual([
      { application_id: apps.empty, application_name: `Kappa Empty ${T}`, total_rights: 0, compliant_rights: 0, non_compliant_rights: 0, rate: null, level: null },
    ])
  })

  it('counts each rule’s violations in its scope: inactivity in days, incompatible roles per person, disabled and unusable rules flagged', async () => {
    const c = await compliance(apps.sod)
    const byId = new Map(c.rules.map((r) => [r.id, r]))
    expect(ruleOf(c, 'sodApp')).toMatchObject({
      state: 'evaluated',
      violations: 2, // Alice and David; Bruno's "approbation" is another role; Chloe holds the other role elsewhere
      violations_by_parameter: { incompatible_roles: 2 },
      ignored_parameters: [],
    })
    expect(ruleOf(c, 'sodGlobal')).toMatchObject({ state: 'evaluated', violations: 2, global: true }) // narrowed to Kappa Sod
    expect(ruleOf(c, 'inactive30')).toMatchObject({ state: 'evaluated', violations: 2, violations_by_parameter: { inactivity_threshold: 2 } })
    expect(ruleOf(c, 'both')).toMatchObject({
      state: 'evaluated',
      violations: 4,
      violations_by_parameter: { inactivity_threshold: 2, incompatible_roles: 2 },
      ignored_parameters: ['foo'],
    })
    expect(ruleOf(c, 'disabled')).toMatchObject({ state: 'disabled', enabled: false, violations: null, violations_by_parameter: {} })
    expect(ruleOf(c, 'unknown')).toMatchObject({ state: 'unsupported', violations: null, ignored_parameters: ['max_accounts'] })

    // The global rules apply to Kappa Sod too; the other applications' rules do not.
    const { rows: global } = await db.query<{ id: string; name: string; enabled: boolean }>(
      `select id::text, name, enabled from public.control_rules where global`,
    )
    const mine = ['sodApp', 'inactive30', 'both', 'disabled', 'unknown'].map((k) => rules[k]!)
    expect(c.rules.map((r) => r.id).sort()).toEqual([...global.map((g) => g.id), ...mine].sort())
    const ninety = global.find((g) => g.name === 'Inactivité de 90 jours')!
    expect(byId.get(ninety.id)).toMatchObject({ state: 'evaluated', violations: 1 }) // David's Contrôle, never used
    expect(c.cards.active_rules).toBe(global.filter((g) => g.enabled).length + 4) // sodApp, inactive30, both, unknown
    expect(c.rules.map((r) => r.name)).toEqual([...c.rules.map((r) => r.name)].sort((a, b) => (a === b ? 0 : a < b ? -1 : 1)))
  })

  it('evaluates the rules over every application when none is chosen', async () => {
    const now = Date.now()
    const all = await loadRights(db)
    const c = await compliance()
    const byId = new Map(c.rules.map((r) => [r.id, r]))
    expect(ruleOf(c, 'sodGlobal')).toMatchObject({ violations: 3 }) // Alice, Chloe (across applications), David
    expect(ruleOf(c, 'sodApp')).toMatchObject({ violations: 2 })
    const { rows } = await db.query<{ id: string; application_id: string | null; threshold: number }>(
      `select id::text, application_id::text, (parameters ->> 'inactivity_threshold')::float8 as threshold
         from public.control_rules where enabled and parameters ? 'inactivity_threshold'`,
    )
    for (const rule of rows) {
      const expected = all.filter(
        (r) =>
          (rule.application_id === null || r.applicationId === rule.application_id) &&
          (r.lastUsedMs === null || r.lastUsedMs < now - Number(rule.threshold) * DAY),
      ).length
      expect(byId.get(rule.id)!.violations_by_parameter.inactivity_threshold, rule.id).toBe(expected)
    }
  })
})

// ─── Audit page ──────────────────────────────────────────────────────────────────────────────────────────────────

describe('audit page', () => {
  function expectedEvents(events: AuditEvent[], f: AuditFilter): AuditEvent[] {
    const term = f.search?.trim().toLowerCase()
    const zone = f.timeZone ?? 'Europe/Paris'
    return events.filter((e) => {
      if (f.userId === '00000000-0000-0000-0000-000000000000' ? e.userId !== null : f.userId && e.userId !== f.userId) return false
      if (f.action && e.action !== f.action) return false
      const date = dateIn(e.ms, zone)
      if ((f.from && date < f.from) || (f.to && date > f.to)) return false
      return !term || auditText(e).toLowerCase().includes(term)
    })
  }

  async function expectAuditMatches(f: AuditFilter) {
    const expected = expectedEvents(await loadAudit(db), f).map((e) => e.id)
    expect(await auditCount(f), JSON.stringify(f)).toBe(expected.length)
    const { ids } = await auditAll(f)
    expect(ids, JSON.stringify(f)).toEqual(expected)
    return expected
  }

  it('pages the whole trail newest first, 100 per page by offset, with the total', async () => {
    const events = await loadAudit(db)
    expect(events.length).toBeGreaterThan(1000)
    expect(await auditCount({})).toBe(events.length)
    const first = await auditPage({})
    expect(first.map((e) => e.id)).toEqual(events.slice(0, 100).map((e) => e.id))
    const twelfth = await auditPage({}, { offset: 1100 })
    expect(twelfth.map((e) => e.id)).toEqual(events.slice(1100, 1200).map((e) => e.id))
  })

  it('exports every event page by page from the last one received, without gaps or repeats among equal timestamps', async () => {
    const expected = await expectAuditMatches({})
    expect(expected.length).toBeGreaterThan(1000)
    // The bulk import wrote its 1500 rows in one transaction: same timestamp, ordered by id.
    const events = await loadAudit(db)
    const bulk = events.filter((e) => e.detailsText.includes(`Bulkrole-${T}-`))
    expect(new Set(bulk.map((e) => e.timestamp)).size).toBe(1)
  })

  it('searches the actor, action, resource and details, case-insensitively, whether it matches few or many events', async () => {
    // Many: every bulk right's creation (more than 1000, read row by row).
    const many = await expectAuditMatches({ search: `BULKROLE-${T}` })
    expect(many.length).toBeGreaterThanOrEqual(bulkRights)
    // Few (read through the trigram index where there is one).
    expect((await expectAuditMatches({ search: `small-s4-${T}` })).length).toBe(1)
    expect((await expectAuditMatches({ search: `probe-${T}` })).length).toBe(3)
    expect((await expectAuditMatches({ search: 'SOIR À PARIS'.toLowerCase() })).length).toBe(1)
    await expectAuditMatches({ search: 'admin@example' })
    await expectAuditMatches({ search: 'control_rules' })
    await expectAuditMatches({ search: rights.s1! })
    // _ and % are literal: "probe_" does not match "probe-".
    expect(await expectAuditMatches({ search: `probe_${T}` })).toEqual([])
    expect(await auditPage({ search: '   ' })).toEqual(await auditPage({}))
  })

  it('filters by actor, by events without an actor, and by action', async () => {
    const byAdmin = await expectAuditMatches({ userId: demo.admin.id })
    expect(byAdmin.length).toBeGreaterThan(0)
    const system = await expectAuditMatches({ userId: '00000000-0000-0000-0000-000000000000' })
    expect(system.length).toBeGreaterThan(1000)
    await expectAuditMatches({ action: 'decide' })
    await expectAuditMatches({ action: 'update', userId: demo.admin.id, search: T })
    expect(await expectAuditMatches({ action: `probe-${T}` })).toHaveLength(3)
  })

  it('filters by a date range of whole days in the chosen time zone', async () => {
    const action = `probe-${T}`
    const ids = async (f: AuditFilter) => (await auditPage({ action, ...f })).map((e) => e.id)
    const [e3, e2, e1] = await ids({})
    expect(await ids({ from: '2026-03-11', to: '2026-03-11' })).toEqual([e2, e1]) // Paris
    expect(await ids({ from: '2026-03-11', to: '2026-03-11', timeZone: 'UTC' })).toEqual([e3, e2])
    expect(await ids({ from: '2026-03-12' })).toEqual([e3])
    expect(await ids({ to: '2026-03-10', timeZone: 'UTC' })).toEqual([e1])
    await expectAuditMatches({ from: '2026-03-11', to: '2026-03-11' })
    await expectAuditMatches({ from: addDays(today, -7), to: today })
  })

  it('lists the actions and the actors for the dropdowns', async () => {
    const events = await loadAudit(db)
    const filters = await asRssi(
      async (tx) =>
        (await one<{ f: { actions: string[]; users: { user_id: string; user_email: string | null; user_name: string | null }[] } }>(tx, `select public.rssi_audit_filters() as f`)).f,
    )
    expect([...filters.actions].sort()).toEqual([...new Set(events.map((e) => e.action))].sort())
    const latest = new Map<string, AuditEvent>()
    for (const e of events) if (e.userId !== null && !latest.has(e.userId)) latest.set(e.userId, e)
    const expected = [...latest.values()].map((e) => ({ user_id: e.userId, user_email: e.userEmail, user_name: e.userName }))
    expected.push({ user_id: '00000000-0000-0000-0000-000000000000', user_email: null, user_name: 'Système' })
    const key = (u: { user_id: string | null }) => u.user_id ?? ''
    expect([...filters.users].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(expected.sort((a, b) => key(a).localeCompare(key(b))))
  })

  it('refuses a page size out of range, a reversed range, an unknown time zone and an unknown event to resume from', async () => {
    const cases: [string, string, RegExp][] = [
      [`select * from public.rssi_audit_events(p_limit => 1001)`, '22023', /entre 1 et 1000/],
      [`select * from public.rssi_audit_events(p_limit => 0)`, '22023', /entre 1 et 1000/],
      [`select * from public.rssi_audit_events(p_offset => -1)`, '22023', /positif/],
      [`select public.rssi_audit_count(p_from => '2026-03-02', p_to => '2026-03-01')`, '22023', /date de début/],
      [`select public.rssi_audit_count(p_time_zone => 'Nulle/Part')`, '22023', /Fuseau horaire inconnu : Nulle\/Part/],
      [`select * from public.rssi_audit_events(p_before_id => -1)`, 'P0001', /introuvable/],
    ]
    for (const [sql, code, message] of cases) {
      expectRefused(await attempt(db, 'rssi', (tx) => tx.query(sql)), code, message)
    }
  })
})

// ─── Access ──────────────────────────────────────────────────────────────────────────────────────────────────────

describe('access: only rssi', () => {
  const calls: [string, string][] = [
    ['rssi_dashboard', `select public.rssi_dashboard()`],
    ['rssi_rights_export', `select * from public.rssi_rights_export()`],
    ['rssi_rights_count', `select public.rssi_rights_count()`],
    ['rssi_risk_list', `select public.rssi_risk_list('inactive')`],
    ['rssi_compliance', `select public.rssi_compliance()`],
    ['rssi_audit_events', `select * from public.rssi_audit_events()`],
    ['rssi_audit_count', `select public.rssi_audit_count()`],
    ['rssi_audit_filters', `select public.rssi_audit_filters()`],
    ['rssi_trends', `select public.rssi_trends()`],
  ]
  const refused: Actor[] = ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin', { id: randomUUID(), email: 'inconnu@example.com' }]

  it.each(calls)('%s: rssi is served; every other signed-in caller is refused in French; anon cannot execute it', async (_name, sql) => {
    expect((await attempt(db, 'rssi', (tx) => tx.query(sql))).ok).toBe(true)
    for (const actor of refused) {
      expectRefused(await attempt(db, actor, (tx) => tx.query(sql)), '42501', /^Réservé au RSSI\.$/)
    }
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(sql)), '42501', /permission denied for function/)
  })

  it('runs every function as the caller, under row-level security; only the search helpers run as the owner, and check rssi too', async () => {
    const { rows } = await db.query<{ name: string; definer: boolean }>(
      `select n.nspname || '.' || p.proname as name, p.prosecdef as definer
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where (n.nspname = 'public' and p.proname like 'rssi\\_%')
           or (n.nspname = 'private' and p.proname in ('rights_matching', 'audit_matching', 'audit_matching_page', 'rights_matching_if_few'))
        order by 1`,
    )
    expect(rows).toEqual([
      { name: 'private.audit_matching', definer: true },
      { name: 'private.audit_matching_page', definer: true },
      { name: 'private.rights_matching', definer: true },
      { name: 'private.rights_matching_if_few', definer: false },
      ...calls.map(([name]) => ({ name: `public.${name}`, definer: false })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    ])
    for (const sql of [
      `select * from private.rights_matching('%')`,
      `select * from private.audit_matching('%')`,
      `select * from private.audit_matching_page('%', null, null, null, null, null, null, null, 10, 0)`,
    ]) {
      expectRefused(await attempt(db, 'admin', (tx) => tx.query(sql)), '42501', /^Réservé au RSSI\.$/)
      expectRefused(await attempt(db, 'anon', (tx) => tx.query(sql)), '42501', /permission denied for schema private/)
    }
  })

  it('leaves the indexes the figures rely on', async () => {
    const { rows } = await db.query<{ indexname: string }>(`select indexname from pg_indexes where schemaname in ('public', 'private')`)
    const names = rows.map((r) => r.indexname)
    for (const index of ['user_rights_last_used_at_idx', 'user_rights_application_last_used_idx', 'user_rights_role_name_idx', 'right_decisions_decided_at_idx']) {
      expect(names).toContain(index)
    }
    const trgm = await count(db, `select count(*) from pg_available_extensions where name = 'pg_trgm'`)
    const trgmIndexes = ['user_rights_role_name_trgm_idx', 'users_email_trgm_idx', 'users_full_name_trgm_idx', 'audit_search_body_trgm_idx']
    expect(trgmIndexes.filter((i) => names.includes(i))).toEqual(trgm > 0 ? trgmIndexes : [])
  })
})

// ─── RSSI dashboard: each risk counts what its label says, and lists it ──────────────────────────────────────────

interface RiskRow {
  id?: string
  rule_id?: string
  user_id: string
  user_name: string
  user_active: boolean
  application_id?: string
  role_name?: string
  account_type?: string
  status?: string
  last_used_at?: string | null
  rights?: { id: string; role_name: string; application_id: string; application_name: string }[]
}

interface RiskPage {
  key: string
  label: string
  total: number
  ignored_filters: string[]
  rows: RiskRow[]
}

const RISKS = ['expired', 'inactive', 'incompatible_roles', 'duplicates'] as const

async function riskPage(risk: string, f: RightFilter, offset: number, limit: number): Promise<RiskPage> {
  return asRssi(
    async (tx) =>
      (
        await one<{ p: RiskPage }>(
          tx,
          `select public.rssi_risk_list($1, $2, $3, $4::public.account_type, $5, $6) as p`,
          [risk, f.search ?? null, f.applicationId ?? null, f.accountType ?? null, offset, limit],
        )
      ).p,
  )
}

/** Every entry behind a risk, page after page as the list's buttons fetch them, and the totals each page gave. */
async function riskAll(risk: string, f: RightFilter, limit: number): Promise<{ rows: RiskRow[]; totals: number[] }> {
  const rows: RiskRow[] = []
  const totals: number[] = []
  for (let offset = 0; ; offset += limit) {
    const page = await riskPage(risk, f, offset, limit)
    totals.push(page.total)
    rows.push(...page.rows)
    if (page.rows.length < limit) return { rows, totals }
  }
}

const conflictKey = (e: { ruleId: string; userId: string }) => `${e.ruleId}/${e.userId}`

describe('RSSI dashboard: the risks count what their labels say', () => {
  const emettre = `Emettre-${T}`
  const payer = `Payer-${T}`
  const auditer = `Auditer-${T}`
  const sumOfConformite = (c: Compliance) => c.rules.reduce((sum, rule) => sum + (rule.violations_by_parameter.incompatible_roles ?? 0), 0)
  const riskCount = async (key: string, f: DashboardArgs = {}) => (await dashboard(f)).risks.find((r) => r.key === key)!.count

  beforeAll(async () => {
    await addApplication('riskA', `Kappa Risk A ${T}`)
    await addApplication('riskB', `Kappa Risk B ${T}`)
    await addPerson('e', 'Emile', `Echo-${T}`)
    await addPerson('g', 'Gina', `Golf-${T}`)
    await addPerson('h', 'Hugo', `Hotel-${T}`)
    await addPerson('k', 'Karl', `Kilo-${T}`)
    const recent = `now() - interval '2 days'`
    // Separation of duties: Emile on one application, Gina across two, Karl under a rule that is switched off.
    await addRight('rkE1', { app: 'riskA', holder: 'e', role: emettre, lastUsed: recent })
    await addRight('rkE2', { app: 'riskA', holder: 'e', role: payer, lastUsed: recent })
    await addRight('rkG1', { app: 'riskA', holder: 'g', role: emettre, lastUsed: recent })
    await addRight('rkG2', { app: 'riskB', holder: 'g', role: payer, lastUsed: recent })
    await addRight('rkK1', { app: 'riskB', holder: 'k', role: auditer, lastUsed: recent })
    await addRight('rkK2', { app: 'riskB', holder: 'k', role: payer, lastUsed: recent })
    await addRule('rkApp', { app: 'riskA', parameters: { incompatible_roles: [emettre, payer] } })
    await addRule('rkGlobal', { parameters: { incompatible_roles: [emettre, ` ${payer}`] } })
    await addRule('rkOff', { app: 'riskB', parameters: { incompatible_roles: [auditer, payer] }, enabled: false })
    // Duplicates: the same role twice (case and a trailing space aside), and a second, privileged account. Karl's two
    // roles of one account are not.
    await addRight('rkE3', { app: 'riskB', holder: 'e', role: `Lecteur-${T}`, lastUsed: recent })
    await addRight('rkE4', { app: 'riskB', holder: 'e', role: `lecteur-${T} `, lastUsed: recent })
    await addRight('rkG3', { app: 'riskA', holder: 'g', role: `Admin-${T}`, accountType: 'privileged', lastUsed: recent })
    await addRight('rkK3', { app: 'riskA', holder: 'k', role: `Lire-${T}`, lastUsed: recent })
    await addRight('rkK4', { app: 'riskA', holder: 'k', role: `Ecrire-${T}`, lastUsed: recent })
    // A leaver's rights, one of them already treated by the RA.
    await addRight('rkH1', { app: 'riskB', holder: 'h', role: `Compta-${T}`, status: 'pending' })
    await addRight('rkH2', { app: 'riskB', holder: 'h', role: `Paie-${T}`, status: 'refused_manager', lastUsed: recent })
    await addRight('rkH3', { app: 'riskB', holder: 'h', role: `Achats-${T}`, status: 'treated', lastUsed: recent })
  })

  it('counts as « Rôles incompatibles » the violations of the enabled rules, the number Conformité lists, per application too', async () => {
    for (const applicationId of [undefined, apps.riskA, apps.riskB, apps.sod, apps.small]) {
      const count = await riskCount('incompatible_roles', { applicationId })
      expect(count, String(applicationId)).toBe(sumOfConformite(await compliance(applicationId ?? null)))
      expect(count, String(applicationId)).toBe(roleConflicts(await loadRights(db), await loadRules(db), applicationId).length)
    }
    // Kappa Risk A: Emile under its own rule and under the global one narrowed to it; Gina holds the second role
    // elsewhere. Kappa Risk B: Karl breaks a rule that is switched off, which finds nothing.
    expect(await riskCount('incompatible_roles', { applicationId: apps.riskA })).toBe(2)
    expect(await riskCount('incompatible_roles', { applicationId: apps.riskB })).toBe(0)
    expect(ruleOf(await compliance(), 'rkGlobal')).toMatchObject({ violations: 2 }) // Emile, and Gina across applications
    expect(ruleOf(await compliance(apps.riskB), 'rkOff')).toMatchObject({ state: 'disabled', violations: null })

    // Switched on, the rule counts Karl; off again, it does not. The dashboard follows Conformité each time.
    const before = await riskCount('incompatible_roles')
    for (const [enabled, expected] of [[true, 1], [false, 0]] as const) {
      await actAs(db, 'admin', (tx) => tx.query(`update public.control_rules set enabled = $2 where id = $1`, [rules.rkOff, enabled]))
      expect(await riskCount('incompatible_roles', { applicationId: apps.riskB })).toBe(expected)
      expect(await riskCount('incompatible_roles')).toBe(before + expected)
      expect(await riskCount('incompatible_roles')).toBe(sumOfConformite(await compliance()))
    }
  })

  it('says which filters « Rôles incompatibles » leaves aside, and counts the same whatever they are', async () => {
    const all = await riskCount('incompatible_roles', { applicationId: apps.riskA })
    const d = await dashboard({ applicationId: apps.riskA, accountType: 'privileged', search: 'nobody' })
    expect(d.risks.find((r) => r.key === 'incompatible_roles')).toMatchObject({ count: all, ignored_filters: ['search', 'account_type'] })
    expect(d.risks.filter((r) => r.key !== 'incompatible_roles').map((r) => r.ignored_filters)).toEqual([[], [], []])
  })

  it('counts as « Doublons » a role held twice by one person on one application, and two accounts of one person there', async () => {
    const expected = async (f: RightFilter) => {
      const all = await loadRights(db)
      const duplicates = duplicateIds(all)
      return all.filter((r) => inScope(r, f) && duplicates.has(r.id)).map((r) => r.id).sort()
    }
    expect(await expected({ applicationId: apps.riskB })).toEqual([rights.rkE3, rights.rkE4].sort())
    expect(await expected({ applicationId: apps.riskA })).toEqual([rights.rkG1, rights.rkG3].sort())
    for (const f of [{}, { applicationId: apps.riskA }, { applicationId: apps.riskB }, { accountType: 'privileged' }, { search: `lecteur-${T}` }]) {
      expect(await riskCount('duplicates', f), JSON.stringify(f)).toBe((await expected(f)).length)
    }
    expect(await riskCount('duplicates', { applicationId: apps.riskA, accountType: 'privileged' })).toBe(1)

    // One account again: Gina's rights are no longer duplicates; a second account once more: they are.
    for (const [type, count] of [['standard', 0], ['privileged', 2]] as const) {
      await actAs(db, 'admin', (tx) => tx.query(`update public.user_rights set account_type = $2::public.account_type where id = $1`, [rights.rkG3, type]))
      expect(await riskCount('duplicates', { applicationId: apps.riskA })).toBe(count)
    }
  })

  it('counts as « Comptes expirés » the rights a deactivated person still holds, until the RA has treated them', async () => {
    const scope = { applicationId: apps.riskB }
    expect(await riskCount('expired', scope)).toBe(0)
    await db.query(`update public.users set active = false where id = $1`, [people.h])
    expect(await riskCount('expired', scope)).toBe(2) // the pending and the refused right, not the treated one
    for (const f of [{}, scope, { search: `hotel-${T}` }, { accountType: 'standard' }]) {
      expect(await riskCount('expired', f), JSON.stringify(f)).toBe((await loadRights(db)).filter((r) => inScope(r, f) && isExpired(r)).length)
    }
  })

  it('lists behind each risk exactly the entries it counts, page after page, under the dashboard’s filters', async () => {
    const filters: RightFilter[] = [
      {},
      { applicationId: apps.riskA },
      { applicationId: apps.riskB },
      { applicationId: apps.bulk, accountType: 'technical' },
      { accountType: 'privileged' },
      { search: T },
      { search: `golf-${T}`, applicationId: apps.riskA },
    ]
    for (const f of filters) {
      const d = await dashboard(f)
      const all = await loadRights(db)
      const duplicates = duplicateIds(all)
      const scope = all.filter((r) => inScope(r, f))
      const now = Date.now()
      const expectedIds: Record<string, string[]> = {
        expired: scope.filter(isExpired).map((r) => r.id),
        inactive: scope.filter((r) => isAtRisk(r, now)).map((r) => r.id),
        duplicates: scope.filter((r) => duplicates.has(r.id)).map((r) => r.id),
      }
      for (const risk of RISKS) {
        const { rows, totals } = await riskAll(risk, f, 97)
        const shown = d.risks.find((r) => r.key === risk)!
        const label = `${risk} ${JSON.stringify(f)}`
        expect(new Set(totals), label).toEqual(new Set([shown.count]))
        expect(rows.length, label).toBe(shown.count)
        if (risk === 'incompatible_roles') {
          const keys = rows.map((row) => conflictKey({ ruleId: row.rule_id!, userId: row.user_id }))
          expect(new Set(keys).size, label).toBe(keys.length)
          expect(keys.sort(), label).toEqual(roleConflicts(all, await loadRules(db), f.applicationId).map(conflictKey).sort())
        } else {
          const ids = rows.map((row) => row.id!)
          expect(new Set(ids).size, label).toBe(ids.length)
          expect(ids.sort(), label).toEqual(expectedIds[risk]!.sort())
        }
      }
    }
  })

  it('shows who and what each entry is about, in an order a reader can follow', async () => {
    const conflicts = await riskPage('incompatible_roles', { applicationId: apps.riskA }, 0, 50)
    expect(conflicts).toMatchObject({ key: 'incompatible_roles', label: 'Rôles incompatibles', total: 2 })
    // By rule name: « Règle rkApp » before « Règle rkGlobal »; the rights that make each violation.
    expect(conflicts.rows.map((row) => [row.rule_id, row.user_id])).toEqual([
      [rules.rkApp, people.e],
      [rules.rkGlobal, people.e],
    ])
    expect(conflicts.rows[0]!.rights!.map((right) => [right.role_name, right.application_id])).toEqual([
      [emettre, apps.riskA],
      [payer, apps.riskA],
    ])
    const across = (await riskAll('incompatible_roles', {}, 1000)).rows.find((row) => row.rule_id === rules.rkGlobal && row.user_id === people.g)
    expect(across?.rights?.map((right) => right.id).sort()).toEqual([rights.rkG1, rights.rkG2].sort())

    const expired = await riskPage('expired', { applicationId: apps.riskB }, 0, 50)
    // One holder and application: by role, « Compta » before « Paie ».
    expect(expired.rows.map((row) => [row.id, row.user_active, row.status])).toEqual([
      [rights.rkH1, false, 'pending'],
      [rights.rkH2, false, 'refused_manager'],
    ])
    // A person's duplicates side by side.
    const duplicates = (await riskPage('duplicates', {}, 0, 1000)).rows.map((row) => row.id)
    const first = duplicates.indexOf(rights.rkE3)
    expect(first).toBeGreaterThanOrEqual(0)
    expect(Math.abs(duplicates.indexOf(rights.rkE4) - first)).toBe(1)
    const inactive = (await riskAll('inactive', { applicationId: apps.small }, 2)).rows
    // Oldest use first, never used last.
    expect(inactive.map((row) => row.id)).toEqual([rights.s4, rights.s6, rights.s2])
  })

  it('refuses an unknown risk and a page out of range', async () => {
    expectRefused(await attempt(db, 'rssi', (tx) => tx.query(`select public.rssi_risk_list('refused')`)), '22023', /^Risque inconnu : refused\.$/)
    expectRefused(await attempt(db, 'rssi', (tx) => tx.query(`select public.rssi_risk_list('inactive', p_limit => 1001)`)), '22023', /taille de page/)
    expectRefused(await attempt(db, 'rssi', (tx) => tx.query(`select public.rssi_risk_list('inactive', p_offset => -1)`)), '22023', /décalage/)
  })
})
