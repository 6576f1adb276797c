import type { SupabaseClient } from '@supabase/supabase-js'
import { verifiedCaller } from './lib/caller'
import { publishableKeyFromEnv, secretKeyFromEnv, supabaseUrlFromEnv } from './lib/supabase-env'
import { serverClient } from './lib/supabase-server'

/*
 * Directory synchronisation's part that needs the service role: POST /.netlify/functions/directory-sync with the
 * caller's access token (Authorization: Bearer …) and JSON
 *   { action: 'import_directory', rows, complete }   the import, applied; leavers banned, people back unbanned
 *   { action: 'set_active', user_id, active }        one person deactivated (banned) or reactivated (unbanned)
 *   { action: 'invite', emails }                     invitations: the screen sends an import's newcomers in
 *                                                    batches, each call well within a function's time limit
 * The caller's token is verified first (the project's JWKS); the database call is made with it, so the database checks
 * their role and audits them; only
 * what the auth admin API does (ban, unban: GoTrue's `updateUserById` with `ban_duration`) uses the service role,
 * which never reaches the browser. An invitation is a message of the notification outbox, written by
 * `invitation_emails` in the caller's transaction; the notification pass makes its link (`generateLink`) and mails it.
 * Answers { report?, invited, already, banned, unbanned, failures }: invited, the people whose invitation is queued;
 * already, those who have a password already; failures, the e-mails the auth API refused, with its message.
 */

const ERRORS = {
  method: 'Méthode non autorisée.',
  contentType: 'Le contenu doit être envoyé au format JSON.',
  json: "Le contenu de la requête n'est pas un JSON valide.",
  body: 'Le contenu de la requête doit être un objet JSON.',
  action: 'Action inconnue.',
  signIn: 'Vous devez être connecté.',
  notConfigured: "L'envoi des invitations est momentanément indisponible : le serveur n'est pas configuré.",
} as const

// GoTrue's longest ban is a Go duration; 100 years is « until reactivated ».
const BAN_DURATION = '876000h'

export interface SyncOutcome {
  report?: unknown
  invited: string[]
  already: string[]
  banned: string[]
  unbanned: string[]
  failures: { email: string; message: string }[]
}

export default async (request: Request): Promise<Response> => {
  if (request.method !== 'POST') return answer(405, { error: ERRORS.method }, { Allow: 'POST' })
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1]
  if (!token) return answer(401, { error: ERRORS.signIn })
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') return answer(415, { error: ERRORS.contentType })
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return answer(400, { error: ERRORS.json })
  }
  // Valid JSON may still be null, a number or a list: the actions are read from an object only.
  if (!isObject(body)) return answer(400, { error: ERRORS.body })

  const url = supabaseUrlFromEnv(process.env)
  const publishableKey = publishableKeyFromEnv(process.env)
  const secretKey = secretKeyFromEnv(process.env)
  if (!url || !publishableKey || !secretKey) {
    console.error('directory-sync: SUPABASE_URL, SUPABASE_PUBLISHABLE_KEY or SUPABASE_SECRET_KEY is not set')
    return answer(500, { error: ERRORS.notConfigured })
  }
  const verified = await verifiedCaller(request, url, publishableKey)
  if (!verified) return answer(401, { error: ERRORS.signIn })
  const caller = serverClient(url, publishableKey, verified.token)
  const admin = serverClient(url, secretKey)

  const outcome: SyncOutcome = { invited: [], already: [], banned: [], unbanned: [], failures: [] }
  if (body.action === 'import_directory') {
    const { data, error } = await caller.rpc('import_directory', { p_rows: body.rows, p_complete: body.complete === true, p_dry_run: false })
    if (error) return answer(error.code === '42501' ? 403 : 400, { error: error.message })
    const report = data as { success: boolean; deactivated: string[]; reactivated_emails: string[] }
    outcome.report = report
    if (report.success) {
      await setBan(admin, report.deactivated, true, outcome)
      await setBan(admin, report.reactivated_emails, false, outcome)
    }
  } else if (body.action === 'set_active') {
    const { data, error } = await caller.rpc('set_user_active', { p_user_id: body.user_id, p_active: body.active === true })
    if (error) return answer(error.code === '42501' ? 403 : 400, { error: error.message })
    const person = data as { email: string; active: boolean }
    await setBan(admin, [person.email], !person.active, outcome)
  } else if (body.action === 'invite') {
    const { data, error } = await caller.rpc('invitation_emails', { p_emails: body.emails })
    if (error) return answer(error.code === '42501' ? 403 : 400, { error: error.message })
    for (const person of (data as { email: string; already: boolean }[] | null) ?? []) (person.already ? outcome.already : outcome.invited).push(person.email)
  } else {
    return answer(400, { error: ERRORS.action })
  }
  return answer(200, outcome)
}

// Calls to the auth admin API at once: a complete import may ban hundreds of leavers, one request each.
const CONCURRENCY = 8

/** Runs work over every item, CONCURRENCY at a time. */
async function eachAtOnce<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker))
}

/** Bans (or lifts the ban of) the auth accounts of these people; someone never invited has no account to ban. */
async function setBan(admin: SupabaseClient, emails: string[], banned: boolean, outcome: SyncOutcome): Promise<void> {
  if (emails.length === 0) return
  const { data, error } = await admin.rpc('auth_account_ids', { p_emails: emails })
  if (error) {
    for (const email of emails) outcome.failures.push({ email, message: error.message })
    return
  }
  await eachAtOnce((data as { email: string; id: string }[] | null) ?? [], async (account) => {
    const { error: banError } = await admin.auth.admin.updateUserById(account.id, { ban_duration: banned ? BAN_DURATION : 'none' })
    if (banError) outcome.failures.push({ email: account.email, message: banError.message })
    else (banned ? outcome.banned : outcome.unbanned).push(account.email)
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function answer(status: number, body: SyncOutcome | { error: string }, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } })
}
