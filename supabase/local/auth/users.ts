import type { Sql } from '../database'
import { factorJson, factorsOf } from './mfa'

/** The auth.users columns the API reads. */
export interface UserRow {
  id: string
  aud: string | null
  role: string | null
  email: string | null
  phone: string | null
  email_confirmed_at: Date | null
  phone_confirmed_at: Date | null
  confirmed_at: Date | null
  confirmation_sent_at: Date | null
  recovery_sent_at: Date | null
  email_change: string | null
  email_change_sent_at: Date | null
  invited_at: Date | null
  last_sign_in_at: Date | null
  raw_app_meta_data: Record<string, unknown> | null
  raw_user_meta_data: Record<string, unknown> | null
  created_at: Date | null
  updated_at: Date | null
  banned_until: Date | null
  deleted_at: Date | null
  is_anonymous: boolean
  /** Recertif's own: the person left the directory (public.users.active is false). Never part of the user's JSON. */
  deactivated: boolean
}

export const USER_COLUMNS = `u.id::text as id, u.aud, u.role, u.email, u.phone, u.email_confirmed_at, u.phone_confirmed_at,
  u.confirmed_at, u.confirmation_sent_at, u.recovery_sent_at, u.email_change, u.email_change_sent_at, u.invited_at,
  u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data, u.created_at, u.updated_at, u.banned_until,
  u.deleted_at, u.is_anonymous,
  exists (select 1 from public.users p where lower(p.email) = lower(u.email) and not p.active) as deactivated`

interface IdentityRow {
  id: string
  provider_id: string
  user_id: string
  identity_data: Record<string, unknown> | null
  provider: string
  email: string | null
  last_sign_in_at: Date | null
  created_at: Date | null
  updated_at: Date | null
}

export async function findUserById(sql: Sql, id: string): Promise<UserRow | undefined> {
  const { rows } = await sql.query<UserRow>(`select ${USER_COLUMNS} from auth.users u where u.id = $1`, [id])
  return rows[0]
}

/**
 * Banned, as GoTrue says, or deactivated in Recertif's directory. On hosted Supabase the function that deactivates a
 * leaver also bans their account through the admin API (netlify/functions/directory-sync.ts); locally the directory
 * itself is read, so that a deactivation made by any path (the RPC, an import, a test) refuses the person at once,
 * with the answers GoTrue gives a banned account.
 */
export function isBanned(user: UserRow): boolean {
  if (user.deactivated) return true
  return user.banned_until !== null && user.banned_until.getTime() > Date.now()
}

const iso = (value: Date | null) => (value ? value.toISOString() : undefined)

/** The user as GoTrue serialises it: optional timestamps are left out when unset, as Go's omitempty does. */
export async function userJson(sql: Sql, user: UserRow): Promise<Record<string, unknown>> {
  const { rows } = await sql.query<IdentityRow>(
    `select id::text as id, provider_id, user_id::text as user_id, identity_data, provider, email, last_sign_in_at, created_at, updated_at
       from auth.identities where user_id = $1 order by created_at nulls first, id`,
    [user.id],
  )
  const factors = (await factorsOf(sql, user.id)).map(factorJson)
  const identities = rows.map((identity) => ({
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data ?? {},
    provider: identity.provider,
    last_sign_in_at: iso(identity.last_sign_in_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
    email: identity.email ?? undefined,
  }))
  return {
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    invited_at: iso(user.invited_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities,
    // Go's omitempty: a user without factors has no factors field.
    ...(factors.length > 0 ? { factors } : {}),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    is_anonymous: user.is_anonymous,
  }
}
