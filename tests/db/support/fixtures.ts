import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import type { Database, Sql } from '../../../supabase/local/database'
import { attempt, campaignIds, demo, type Actor, type DemoRole, type Outcome } from './actors'

/** The callers of the permission matrix: the anonymous key and the seven roles, in the matrix's column order. */
export const callers = ['anon', 'user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi'] as const
export type Caller = (typeof callers)[number]
export const roles = callers.filter((c): c is DemoRole => c !== 'anon')
/** The roles that neither administer nor audit: every one but admin and rssi. */
export const nonAdmins = roles.filter((r) => r !== 'admin' && r !== 'rssi')

/** A short label that no other row of the run carries. */
export function unique(prefix: string): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`
}

/** Postgres drivers disagree on bigint (PGlite: number, pg: string); every count goes through here. */
export async function count(db: Sql, text: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number | string }>(`select (${text})::int as n`, params)
  return Number(rows[0]?.n)
}

export async function one<T = Record<string, unknown>>(db: Sql, text: string, params: unknown[] = []): Promise<T> {
  const { rows } = await db.query<T>(text, params)
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}: ${text}`)
  return rows[0] as T
}

export async function ids(db: Sql, text: string, params: unknown[] = []): Promise<string[]> {
  const { rows } = await db.query<{ id: string | number }>(text, params)
  return rows.map((r) => String(r.id)).sort()
}

export async function applicationId(db: Database, name: string): Promise<string> {
  return (await one<{ id: string }>(db, `select id from public.applications where name = $1`, [name])).id
}

/** Creates a profile directly (as the database owner, the way an administrator's earlier work would leave it). */
export async function createUser(
  db: Database,
  options: { role?: string; managerId?: string | null; email?: string; id?: string } = {},
): Promise<{ id: string; email: string }> {
  const id = options.id ?? randomUUID()
  const email = options.email ?? `${unique('p').replace(' ', '.')}@example.org`
  await db.query(
    `insert into public.users (id, email, first_name, last_name, role, manager_id) values ($1, $2, 'Test', $3, $4, $5)`,
    [id, email, unique('Personne'), options.role ?? 'user', options.managerId ?? null],
  )
  return { id, email }
}

export async function createApplication(
  db: Database,
  owners: { ra?: string; bpoMetier?: string; bpoGroupe?: string | null; rssi?: string | null } = {},
): Promise<string> {
  return (
    await one<{ id: string }>(
      db,
      `insert into public.applications (name, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id) values ($1, $2, $3, $4, $5) returning id`,
      [
        unique('Application'),
        owners.ra ?? demo.ra.id,
        owners.bpoMetier ?? demo.bpo_metier.id,
        owners.bpoGroupe === undefined ? demo.bpo_groupe.id : owners.bpoGroupe,
        owners.rssi === undefined ? demo.rssi.id : owners.rssi,
      ],
    )
  ).id
}

/** A pending right, by default held by the demo user on the given application inside the seed's active campaign. */
export async function createRight(
  db: Database,
  options: { holder?: string; applicationId: string; campaignId?: string | null; accountType?: string; roleName?: string },
): Promise<string> {
  return (
    await one<{ id: string }>(
      db,
      `insert into public.user_rights (user_id, application_id, role_name, account_type, campaign_id)
       values ($1, $2, $3, $4::public.account_type, $5) returning id`,
      [
        options.holder ?? demo.user.id,
        options.applicationId,
        options.roleName ?? unique('Rôle'),
        options.accountType ?? 'standard',
        options.campaignId === undefined ? campaignIds.active : options.campaignId,
      ],
    )
  ).id
}

export async function createDraftCampaign(
  db: Database,
  options: { applicationId?: string | null; accountType?: string | null } = {},
): Promise<string> {
  return (
    await one<{ id: string }>(
      db,
      `insert into public.campaigns (name, application_id, account_type, start_date, end_date)
       values ($1, $2, $3::public.account_type, current_date, current_date + 30) returning id`,
      [unique('Campagne'), options.applicationId ?? null, options.accountType ?? null],
    )
  ).id
}

export interface DecisionResult {
  success: boolean
  status: string
  decision_id: string
}

/** Calls validate_user_right as the given caller, the way the review dialog does. */
export function decide(
  db: Database,
  actor: Actor,
  rightId: string,
  status: string | null,
  comment: string | null = null,
  headers?: Record<string, string>,
): Promise<Outcome<DecisionResult>> {
  return attempt(
    db,
    actor,
    async (tx) => (await one<{ r: DecisionResult }>(tx, `select public.validate_user_right($1, $2::public.right_status, $3) as r`, [rightId, status, comment])).r,
    headers ? { headers } : undefined,
  )
}

/** Decisions, by the demo reviewers, that carry a right of the demo user on a demo-owned application to a status. */
const pathTo: Record<string, [DemoRole, string][]> = {
  pending: [],
  validated_user: [['user', 'validated_user']],
  refused_user: [['user', 'refused_user']],
  validated_manager: [['manager', 'validated_manager']],
  refused_manager: [['manager', 'refused_manager']],
  validated_bpo_metier: [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier']],
  refused_bpo_metier: [['manager', 'validated_manager'], ['bpo_metier', 'refused_bpo_metier']],
  validated_bpo_groupe: [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier'], ['bpo_groupe', 'validated_bpo_groupe']],
  refused_bpo_groupe: [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier'], ['bpo_groupe', 'refused_bpo_groupe']],
  treatment_required: [['user', 'refused_user'], ['ra', 'treatment_required']],
  treated: [['user', 'refused_user'], ['ra', 'treated']],
}
export const allStatuses = Object.keys(pathTo)

export async function bringTo(db: Database, rightId: string, status: string): Promise<void> {
  const steps = pathTo[status]
  if (!steps) throw new Error(`no path to ${status}`)
  for (const [actor, next] of steps) {
    const outcome = await decide(db, actor, rightId, next)
    if (!outcome.ok) throw new Error(`${actor} → ${next}: ${outcome.message}`)
  }
  expect(await rightStatus(db, rightId)).toBe(status)
}

/** A fresh right of the demo user in the seed's active campaign, carried through the real workflow to a status. */
export async function rightIn(db: Database, status: string, applicationId: string): Promise<string> {
  const id = await createRight(db, { applicationId })
  await bringTo(db, id, status)
  return id
}

export async function rightStatus(db: Database, rightId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ status: string }>(`select status::text from public.user_rights where id = $1`, [rightId])
  return rows[0]?.status
}

/** The highest audit row id so far: what a test wrote is what lies above it. */
export async function auditMark(db: Database): Promise<number> {
  return count(db, `select coalesce(max(id), 0) from public.audit_logs`)
}

export interface AuditRow {
  id: number
  user_id: string | null
  user_email: string | null
  user_name: string | null
  action: string
  resource_type: string
  resource_id: string | null
  details: Record<string, unknown>
  timestamp: string
  ip: string | null
}

export async function auditSince(db: Database, mark: number): Promise<AuditRow[]> {
  const { rows } = await db.query<AuditRow>(
    `select id::int as id, user_id::text, user_email, user_name, action, resource_type, resource_id, details,
            "timestamp"::text as "timestamp", host(ip_address) as ip
       from public.audit_logs where id > $1 order by id`,
    [mark],
  )
  return rows
}

/** Asserts a refusal with the given SQLSTATE and, when given, a message matching the pattern. */
export function expectRefused(outcome: Outcome<unknown>, code: string, message?: RegExp): void {
  expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, code })
  if (message) expect(outcome.message).toMatch(message)
}
