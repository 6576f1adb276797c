// An independent reading of SPEC §9 in TypeScript, over rows read straight from the tables as the database owner: the
// figures of the security officer's functions (20261121000940_rssi_dashboard.sql and the files around it) are checked
// against it.
import type { Sql } from '../../../supabase/local/database'

export const DAY = 86_400_000

export interface RightRow {
  id: string
  userId: string
  applicationId: string
  applicationName: string
  accountType: string
  status: string
  lastUsedMs: number | null
  roleName: string
  email: string
  fullName: string
  campaignId: string | null
  /** The holder's profile is active (users.active): false for a leaver. */
  holderActive: boolean
}

export interface DecisionRow {
  id: string
  rightId: string | null
  campaignId: string | null
  decision: string
  decidedMs: number
}

export interface CampaignRow {
  id: string
  name: string
  status: string
  applicationId: string | null
  startDate: string
  endDate: string
}

export interface AuditEvent {
  id: number
  userId: string | null
  userEmail: string | null
  userName: string | null
  action: string
  resourceType: string
  resourceId: string | null
  detailsText: string
  /** The names the search text adds after the row's own fields, as written with the event (private.audit_search). */
  names: string
  timestamp: string
  ms: number
}

export async function loadRights(db: Sql): Promise<RightRow[]> {
  const { rows } = await db.query<Record<string, string | number | boolean | null>>(
    `select ur.id::text, ur.user_id::text as user_id, ur.application_id::text as application_id, a.name as application_name,
            ur.account_type::text as account_type, ur.status::text as status,
            (extract(epoch from ur.last_used_at) * 1000)::float8 as last_used_ms, ur.role_name, u.email,
            u.first_name || ' ' || u.last_name as full_name, ur.campaign_id::text as campaign_id, u.active as holder_active
       from public.user_rights ur
       join public.users u on u.id = ur.user_id
       join public.applications a on a.id = ur.application_id`,
  )
  return rows.map((r) => ({
    id: String(r.id),
    userId: String(r.user_id),
    applicationId: String(r.application_id),
    applicationName: String(r.application_name),
    accountType: String(r.account_type),
    status: String(r.status),
    lastUsedMs: r.last_used_ms === null ? null : Number(r.last_used_ms),
    roleName: String(r.role_name),
    email: String(r.email),
    fullName: String(r.full_name),
    campaignId: r.campaign_id === null ? null : String(r.campaign_id),
    holderActive: Boolean(r.holder_active),
  }))
}

export async function loadDecisions(db: Sql): Promise<DecisionRow[]> {
  const { rows } = await db.query<Record<string, string | number | null>>(
    `select id::text, right_id::text as right_id, campaign_id::text as campaign_id, decision::text as decision,
            (extract(epoch from decided_at) * 1000)::float8 as decided_ms
       from public.right_decisions`,
  )
  return rows.map((r) => ({
    id: String(r.id),
    rightId: r.right_id === null ? null : String(r.right_id),
    campaignId: r.campaign_id === null ? null : String(r.campaign_id),
    decision: String(r.decision),
    decidedMs: Number(r.decided_ms),
  }))
}

export async function loadCampaigns(db: Sql): Promise<CampaignRow[]> {
  const { rows } = await db.query<Record<string, string | null>>(
    `select id::text, name, status::text as status, application_id::text as application_id,
            start_date::text as start_date, end_date::text as end_date
       from public.campaigns`,
  )
  return rows.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    status: String(r.status),
    applicationId: r.application_id ?? null,
    startDate: String(r.start_date),
    endDate: String(r.end_date),
  }))
}

/**
 * Every audit event, newest first ("timestamp" desc, id desc), with its details as Postgres writes them as text and the
 * names its search text holds after them (read as the owner).
 */
export async function loadAudit(db: Sql): Promise<AuditEvent[]> {
  const { rows } = await db.query<Record<string, string | number | null>>(
    `select l.id::text, l.user_id::text as user_id, l.user_email, l.user_name, l.action, l.resource_type, l.resource_id,
            l.details::text as details_text, "timestamp"::text as ts, (extract(epoch from "timestamp") * 1000)::float8 as ms,
            substr(s.body, char_length(coalesce(l.user_email, '') || chr(10) || coalesce(l.user_name, '') || chr(10) || l.action
              || chr(10) || l.resource_type || chr(10) || coalesce(l.resource_id, '') || chr(10) || l.details::text) + 2) as names
       from public.audit_logs l
       join private.audit_search s on s.id = l.search_id
      order by l."timestamp" desc, l.id desc`,
  )
  return rows.map((r) => ({
    id: Number(r.id),
    userId: r.user_id === null ? null : String(r.user_id),
    userEmail: r.user_email === null ? null : String(r.user_email),
    userName: r.user_name === null ? null : String(r.user_name),
    action: String(r.action),
    resourceType: String(r.resource_type),
    resourceId: r.resource_id === null ? null : String(r.resource_id),
    detailsText: String(r.details_text),
    names: String(r.names),
    timestamp: String(r.ts),
    ms: Number(r.ms),
  }))
}

// ─── SPEC §9 ─────────────────────────────────────────────────────────────────────────────────────────────────────

export const isValidated = (status: string) => status.includes('validated')
export const isRefused = (status: string) => status.includes('refused')
export const isAtRisk = (r: RightRow, now: number) => r.lastUsedMs === null || r.lastUsedMs < now - 90 * DAY
export const isCompliant = (r: RightRow, now: number) => !isRefused(r.status) && r.lastUsedMs !== null && r.lastUsedMs >= now - 90 * DAY

// ─── The RSSI's risks, what each label says (ARCHITECTURE §6) ──────────────────────────────────────────────────────

export interface RuleRow {
  id: string
  applicationId: string | null
  enabled: boolean
  parameters: Record<string, unknown>
}

export async function loadRules(db: Sql): Promise<RuleRow[]> {
  const { rows } = await db.query<{ id: string; application_id: string | null; enabled: boolean; parameters: Record<string, unknown> }>(
    `select id::text, application_id::text as application_id, enabled, parameters from public.control_rules`,
  )
  return rows.map((r) => ({ id: r.id, applicationId: r.application_id, enabled: r.enabled, parameters: r.parameters }))
}

/** Comptes expirés: a right a deactivated person still holds, not yet treated by the RA. */
export const isExpired = (r: RightRow) => !r.holderActive && r.status !== 'treated'

/**
 * Doublons: the rights whose holder holds, on the same application, another right of the same role (case and
 * surrounding spaces aside) or under another account type (a second account).
 */
export function duplicateIds(rights: readonly RightRow[]): Set<string> {
  const byHolding = new Map<string, RightRow[]>()
  for (const r of rights) {
    const key = `${r.userId}/${r.applicationId}`
    byHolding.set(key, [...(byHolding.get(key) ?? []), r])
  }
  const ids = new Set<string>()
  const roleKey = (r: RightRow) => r.roleName.replace(/^ +| +$/g, '').toLowerCase()
  for (const held of byHolding.values()) {
    for (const r of held) {
      if (held.some((o) => o.id !== r.id && (o.accountType !== r.accountType || roleKey(o) === roleKey(r)))) ids.add(r.id)
    }
  }
  return ids
}

/** A rule's role names as rules are evaluated: its string entries, trimmed, blanks and repeats left out. */
export function ruleRoles(parameters: Record<string, unknown>): string[] {
  const listed = parameters.incompatible_roles
  if (!Array.isArray(listed)) return []
  return [...new Set(listed.filter((e): e is string => typeof e === 'string').map((e) => e.replace(/^ +| +$/g, '')).filter(Boolean))]
}

/**
 * Rôles incompatibles: one entry per enabled rule and person who holds two or more of its names within its scope (its
 * application; for a global rule the application filtered on, or any).
 */
export function roleConflicts(rights: readonly RightRow[], rules: readonly RuleRow[], applicationId?: string): { ruleId: string; userId: string }[] {
  const entries: { ruleId: string; userId: string }[] = []
  for (const rule of rules) {
    if (!rule.enabled || (applicationId && rule.applicationId !== null && rule.applicationId !== applicationId)) continue
    const names = ruleRoles(rule.parameters)
    const scope = rule.applicationId ?? applicationId ?? null
    const held = new Map<string, Set<string>>()
    for (const r of rights) {
      if (!names.includes(r.roleName) || (scope !== null && r.applicationId !== scope)) continue
      held.set(r.userId, (held.get(r.userId) ?? new Set()).add(r.roleName))
    }
    for (const [userId, roles] of held) if (roles.size >= 2) entries.push({ ruleId: rule.id, userId })
  }
  return entries
}

/** Rounded percentage (halves up, as Math.round), or null for an empty whole. */
export function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((100 * part) / whole)
}

export function level(value: number | null): 'green' | 'orange' | 'red' | null {
  if (value === null) return null
  return value >= 90 ? 'green' : value >= 75 ? 'orange' : 'red'
}

export interface RightFilter {
  search?: string
  applicationId?: string
  accountType?: string
}

export function isFiltered(f: RightFilter): boolean {
  return Boolean(f.search?.trim()) || Boolean(f.applicationId) || Boolean(f.accountType)
}

/** The dashboard's scope: holder e-mail or "first last" name, application name or role name contains the search. */
export function inScope(r: RightRow, f: RightFilter): boolean {
  if (f.applicationId && r.applicationId !== f.applicationId) return false
  if (f.accountType && r.accountType !== f.accountType) return false
  const term = f.search?.trim().toLowerCase()
  if (!term) return true
  return [r.email, r.fullName, r.applicationName, r.roleName].some((field) => field.toLowerCase().includes(term))
}

export function auditText(e: AuditEvent): string {
  return [e.userEmail ?? '', e.userName ?? '', e.action, e.resourceType, e.resourceId ?? '', e.detailsText, e.names].join('\n')
}

/** The calendar date of an instant in a time zone, as YYYY-MM-DD. */
export function dateIn(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms))
}

/** A YYYY-MM-DD date moved by a number of days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** Whether [start, end] overlaps [from, to], either end of the window open when null. */
export function overlaps(start: string, end: string, from: string | null, to: string | null): boolean {
  return (to === null || start <= to) && (from === null || end >= from)
}
