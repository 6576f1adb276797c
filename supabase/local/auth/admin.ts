import type { IncomingMessage } from 'node:http'
import type { ApiContext } from '../context'
import type { Sql } from '../database'
import { bearerToken } from '../http'
import { JwtError, verifyJwt } from '../keys'
import {
  banUntil,
  booleanParam,
  checkPassword,
  clock,
  createUser,
  emailExists,
  findUserByEmail,
  issueLink,
  mergeMetadata,
  objectParam,
  redirectTarget,
  reloadUser,
  tokenHash,
  validEmail,
  type TokenSlot,
} from './accounts'
import { AuthError, badRequest } from './errors'
import { inviteeAccount } from './flows'
import { readParams, stringParam } from './params'
import { userJson, type UserRow } from './users'

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin'])
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DEFAULT_PER_PAGE = 50

/** GoTrue's requireAdmin: a valid JWT whose role is an admin role (the service role key is one). */
export async function requireAdmin(context: ApiContext, req: IncomingMessage): Promise<void> {
  const token = bearerToken(req)
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token')
  let role: unknown
  try {
    role = (await verifyJwt(token, context.config)).role
  } catch (error) {
    const reason = error instanceof JwtError && error.expired ? 'token has invalid claims: token is expired' : 'token is malformed or its signature is invalid'
    throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`)
  }
  if (typeof role !== 'string' || !ADMIN_ROLES.has(role)) throw new AuthError(403, 'not_admin', 'User not allowed')
}

const userNotFound = () => new AuthError(404, 'user_not_found', 'User not found')

async function loadUser(context: ApiContext, id: string): Promise<UserRow> {
  if (!UUID.test(id)) throw userNotFound()
  const user = await reloadUser(context.db, id)
  if (!user || user.deleted_at) throw userNotFound()
  return user
}

function pageParam(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name)
  if (raw === null || raw === '') return fallback
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw badRequest('validation_failed', 'Bad Pagination Parameters')
  return Number(raw)
}

/**
 * GET /admin/users: newest first, paged by page and per_page, with X-Total-Count and a Link header as GoTrue; `filter`
 * keeps the accounts whose e-mail or user_metadata.full_name contains it (GoTrue's LIKE, its wildcards included).
 */
export async function listUsers(context: ApiContext, url: URL): Promise<{ body: Record<string, unknown>; headers: Record<string, string> }> {
  const page = pageParam(url, 'page', 1)
  const perPage = pageParam(url, 'per_page', DEFAULT_PER_PAGE)
  const filter = url.searchParams.get('filter') ?? ''
  const where = `u.aud = 'authenticated' and u.deleted_at is null
    and ($1 = '' or u.email like '%' || $1 || '%' or u.raw_user_meta_data ->> 'full_name' ilike '%' || $1 || '%')`
  const { rows: counted } = await context.db.query<{ total: number }>(`select count(*)::int as total from auth.users u where ${where}`, [filter])
  const total = counted[0]?.total ?? 0
  const { rows } = await context.db.query<{ id: string }>(
    `select u.id::text as id from auth.users u where ${where} order by u.created_at desc, u.id limit $2 offset $3`,
    [filter, perPage, (page - 1) * perPage],
  )
  const users = []
  for (const { id } of rows) users.push(await userJson(context.db, (await reloadUser(context.db, id))!))
  const last = Math.max(1, Math.ceil(total / perPage))
  const link = (n: number, rel: string) => `</admin/users?page=${n}&per_page=${perPage}>; rel="${rel}"`
  const links = [...(page < last ? [link(page + 1, 'next')] : []), link(last, 'last')]
  return { body: { users, aud: 'authenticated' }, headers: { 'X-Total-Count': String(total), Link: links.join(', ') } }
}

export async function getUser(context: ApiContext, id: string): Promise<Record<string, unknown>> {
  return userJson(context.db, await loadUser(context, id))
}

/** POST /admin/users: the account is created as given, confirmed only if email_confirm says so; no e-mail is sent. */
export async function adminCreateUser(context: ApiContext, req: IncomingMessage): Promise<Record<string, unknown>> {
  const params = await readParams(req)
  if (stringParam(params, 'phone')) throw new AuthError(422, 'phone_provider_disabled', 'Phone signups are disabled')
  const email = validEmail(stringParam(params, 'email'), 'Unable to validate email address: invalid format')
  const password = stringParam(params, 'password')
  if (password !== '') checkPassword(password)
  const now = clock(context.config)
  const banDuration = stringParam(params, 'ban_duration')
  const role = stringParam(params, 'role')
  return context.db.transaction(async (tx) => {
    const user = await createUser(
      tx,
      {
        email,
        password: password || undefined,
        userMetadata: objectParam(params, 'user_metadata'),
        appMetadata: objectParam(params, 'app_metadata'),
        confirmedAt: booleanParam(params, 'email_confirm', false) ? now : undefined,
        role: role || undefined,
        bannedUntil: banDuration ? banUntil(banDuration, now) : null,
      },
      now,
    )
    return userJson(tx, user)
  })
}

/** PUT /admin/users/:id: sets what is given; a new e-mail or password takes effect at once. */
export async function adminUpdateUser(context: ApiContext, req: IncomingMessage, id: string): Promise<Record<string, unknown>> {
  const current = await loadUser(context, id)
  const params = await readParams(req)
  const rawEmail = stringParam(params, 'email')
  const email = rawEmail ? validEmail(rawEmail) : undefined
  const password = stringParam(params, 'password')
  // As GoTrue since it holds an administrator's password change to the project's strength rules too.
  if (password !== '') checkPassword(password, context.config)
  const banDuration = stringParam(params, 'ban_duration')
  const role = stringParam(params, 'role')
  const userMetadata = objectParam(params, 'user_metadata')
  const appMetadata = objectParam(params, 'app_metadata')
  const confirm = booleanParam(params, 'email_confirm', false)
  const now = clock(context.config)
  const bannedUntil = banDuration ? banUntil(banDuration, now) : undefined
  return context.db.transaction(async (tx) => {
    const set = async (assignment: string, value: unknown) =>
      tx.query(`update auth.users set ${assignment}, updated_at = $3 where id = $1`, [id, value, now])
    if (email && email !== current.email?.toLowerCase()) {
      const other = await findUserByEmail(tx, email)
      if (other && other.id !== id) throw emailExists()
      await set('email = $2', email)
      await tx.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = $3
          where user_id = $1 and provider = 'email'`,
        [id, email, now],
      )
    }
    if (password !== '') await set(`encrypted_password = extensions.crypt($2, extensions.gen_salt('bf', 10))`, password)
    if (confirm) await set('email_confirmed_at = coalesce(email_confirmed_at, $2)', now)
    if (role) await set('role = $2', role)
    if (userMetadata) await set('raw_user_meta_data = $2', JSON.stringify(mergeMetadata(current.raw_user_meta_data, userMetadata)))
    if (appMetadata) await set('raw_app_meta_data = $2', JSON.stringify(mergeMetadata(current.raw_app_meta_data, appMetadata)))
    if (bannedUntil !== undefined) await set('banned_until = $2', bannedUntil)
    return userJson(tx, (await reloadUser(tx, id))!)
  })
}

/**
 * DELETE /admin/users/:id. A hard delete removes the account with its identities and sessions; a soft delete
 * (should_soft_delete) keeps the row, marked deleted, with its address and password wiped, as GoTrue does.
 */
export async function adminDeleteUser(context: ApiContext, req: IncomingMessage, id: string): Promise<Record<string, never>> {
  await loadUser(context, id)
  const params = await readParams(req)
  const soft = booleanParam(params, 'should_soft_delete', false)
  const now = clock(context.config)
  await context.db.transaction(async (tx) => {
    if (!soft) {
      await tx.query('delete from auth.users where id = $1', [id])
      return
    }
    await tx.query('delete from auth.sessions where user_id = $1', [id])
    await tx.query('delete from auth.identities where user_id = $1', [id])
    await tx.query(
      `update auth.users set deleted_at = $2, updated_at = $2, email = null, phone = null, encrypted_password = '',
         confirmation_token = '', recovery_token = '', email_change_token_new = '', email_change = '', raw_user_meta_data = '{}'
        where id = $1`,
      [id, now],
    )
  })
  return {}
}

const LINK_TYPES: Record<string, TokenSlot> = {
  signup: 'confirmation',
  invite: 'confirmation',
  magiclink: 'recovery',
  recovery: 'recovery',
  email_change_current: 'email_change',
  email_change_new: 'email_change',
}

/**
 * POST /admin/generate_link: issues the token an e-mail would carry and hands the link back instead of mailing
 * it. The answer is the user with action_link, email_otp, hashed_token, verification_type and redirect_to beside it.
 * An e-mail change link (email_change_new, with new_email) sets the pending address as PUT /user does.
 */
export async function generateLink(context: ApiContext, req: IncomingMessage): Promise<Record<string, unknown>> {
  const params = await readParams(req)
  const type = stringParam(params, 'type')
  const slot = LINK_TYPES[type]
  if (!slot) throw badRequest('validation_failed', `Invalid email action link type requested: ${type}`)
  const email = validEmail(stringParam(params, 'email'))
  const password = stringParam(params, 'password')
  const data = objectParam(params, 'data')
  // As GoTrue: the query's redirect_to (where supabase-js's generateLink puts options.redirectTo), replaced by the
  // body's when that one is allowed too; else the site URL.
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams.get('redirect_to')
  const fromBody = stringParam(params, 'redirect_to')
  const redirectTo = fromBody && redirectTarget(context.config, fromBody) === fromBody ? fromBody : redirectTarget(context.config, query)
  const now = clock(context.config)
  return context.db.transaction(async (tx) => {
    let user: UserRow
    if (type === 'signup') {
      if (password === '') throw badRequest('validation_failed', 'Password is required for signup link')
      checkPassword(password, context.config)
      const existing = await findUserByEmail(tx, email)
      if (existing?.email_confirmed_at) throw emailExists()
      user = existing ?? (await createUser(tx, { email, password, userMetadata: data }, now))
    } else if (type === 'invite') {
      user = await inviteeAccount(tx, email, data, now)
    } else {
      const existing = await findUserByEmail(tx, email)
      if (!existing) throw new AuthError(404, 'user_not_found', 'User with this email not found')
      user = existing
    }
    if (slot === 'email_change') return emailChangeLink(context, tx, req, user, type, stringParam(params, 'new_email'), redirectTo, now)
    // A magic link to an account not yet confirmed confirms it, through the confirmation token as GoTrue does.
    const usedSlot = type === 'magiclink' && !user.email_confirmed_at ? 'confirmation' : slot
    const link = await issueLink(tx, req, { id: user.id, address: user.email ?? email }, usedSlot, type, redirectTo, now)
    return {
      ...(await userJson(tx, (await reloadUser(tx, user.id))!)),
      action_link: link.actionLink,
      email_otp: link.otp,
      hashed_token: link.hashedToken,
      verification_type: type,
      redirect_to: link.redirectTo,
    }
  })
}

/**
 * generate_link's e-mail change types, as GoTrue: the link and code for the new address (email_change_new) or, with
 * secure e-mail change on, for the current one (email_change_current, else refused); /verify takes either as type
 * email_change. As GoTrue, the answer's hashed_token is that of the current address and the code, whichever
 * token the link carries.
 */
async function emailChangeLink(
  context: ApiContext,
  tx: Sql,
  req: IncomingMessage,
  user: UserRow,
  type: string,
  rawNewEmail: string,
  redirectTo: string,
  now: Date,
): Promise<Record<string, unknown>> {
  const current = type === 'email_change_current'
  if (current && !context.config.mailerSecureEmailChange) {
    throw badRequest('validation_failed', 'Enable secure email change to generate link for current email')
  }
  const newEmail = validEmail(rawNewEmail)
  const other = await findUserByEmail(tx, newEmail)
  if (other && other.id !== user.id) throw emailExists()
  await tx.query(`update auth.users set email_change = $2, email_change_confirm_status = 0 where id = $1`, [user.id, newEmail])
  const link = current
    ? await issueLink(tx, req, { id: user.id, address: user.email ?? '' }, 'email_change_current', 'email_change', redirectTo, now)
    : await issueLink(tx, req, { id: user.id, address: newEmail }, 'email_change', 'email_change', redirectTo, now)
  return {
    ...(await userJson(tx, (await reloadUser(tx, user.id))!)),
    action_link: link.actionLink,
    email_otp: link.otp,
    hashed_token: tokenHash(user.email ?? '', link.otp),
    verification_type: type,
    redirect_to: link.redirectTo,
  }
}
