/**
 * The only file of the directory-sync feature that calls Supabase, and the directory-sync function. Previews are
 * dry runs of the import RPCs; applying the directory, deactivating and inviting go through
 * /.netlify/functions/directory-sync, which also invites, bans and unbans through the auth admin API with the
 * service role (never in the browser). Applications need no auth account: their import is the RPC itself.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ApiError, throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { SyncKind } from './formats'
import type { LineProblems, SyncLine } from './parse'

export interface SyncReport {
  success: boolean
  dry_run: boolean
  lines: number
  created: number
  updated: number
  unchanged: number
  errors: LineProblems[]
  /** Directory only. */
  complete?: boolean
  moved?: number
  reactivated?: number
  leaving?: number
  /** Directory, once applied: the people created, whom the screen invites next. */
  invite?: string[]
}

export interface FunctionOutcome {
  report?: SyncReport
  invited: string[]
  already: string[]
  banned: string[]
  unbanned: string[]
  failures: { email: string; message: string }[]
}

const FUNCTION_URL = '/.netlify/functions/directory-sync'
const UNREACHABLE = "Le service d'import n'a pas répondu. Veuillez réessayer."

/** What the import would do, written nowhere: the counts and every line the database refuses. */
export async function previewImport(kind: SyncKind, rows: SyncLine[], complete: boolean): Promise<SyncReport> {
  const { data, error } =
    kind === 'directory'
      ? await getSupabase().rpc('import_directory', { p_rows: rows, p_complete: complete, p_dry_run: true })
      : await getSupabase().rpc('import_applications', { p_rows: rows, p_dry_run: true })
  if (error) throwApiError(error, "Erreur lors de la vérification du fichier")
  return data as unknown as SyncReport
}

async function callFunction(body: Record<string, unknown>): Promise<FunctionOutcome> {
  const { data } = await getSupabase().auth.getSession()
  const token = data.session?.access_token
  if (!token) throw new ApiError({ message: 'Vous devez être connecté.' })
  let response: Response
  try {
    response = await fetch(FUNCTION_URL, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  } catch {
    throw new ApiError({ message: UNREACHABLE })
  }
  const answer = (await response.json().catch(() => null)) as (FunctionOutcome & { error?: string }) | null
  if (!response.ok || !answer) throw new ApiError({ message: answer?.error ?? UNREACHABLE })
  return answer
}

/** Invitations per call: each call of the function stays far within Netlify's time limit for a function. */
const INVITATION_BATCH = 100

/** Sends the invitations of these people, a batch at a time, saying after each batch how many are done. */
export async function inviteAll(emails: readonly string[], onProgress: (done: number) => void): Promise<FunctionOutcome> {
  const total: FunctionOutcome = { invited: [], already: [], banned: [], unbanned: [], failures: [] }
  for (let start = 0; start < emails.length; start += INVITATION_BATCH) {
    const emailsOfBatch = emails.slice(start, start + INVITATION_BATCH)
    // The import is applied by then: a batch that fails is reported with its people, and the next ones still go.
    try {
      const batch = await callFunction({ action: 'invite', emails: emailsOfBatch })
      total.invited.push(...batch.invited)
      total.already.push(...batch.already)
      total.failures.push(...batch.failures)
    } catch (error) {
      const message = error instanceof Error ? error.message : UNREACHABLE
      total.failures.push(...emailsOfBatch.map((email) => ({ email, message })))
    }
    onProgress(Math.min(start + INVITATION_BATCH, emails.length))
  }
  return total
}

/**
 * Applies the file, all or nothing. For the directory, the function bans the leavers on the way, then the newcomers
 * are invited in batches.
 */
export async function applyImport(kind: SyncKind, rows: SyncLine[], complete: boolean, onInvited: (done: number) => void): Promise<FunctionOutcome> {
  if (kind === 'directory') {
    const outcome = await callFunction({ action: 'import_directory', rows, complete })
    const invitations = await inviteAll(outcome.report?.success ? (outcome.report.invite ?? []) : [], onInvited)
    return { ...outcome, invited: invitations.invited, already: invitations.already, failures: [...outcome.failures, ...invitations.failures] }
  }
  const { data, error } = await getSupabase().rpc('import_applications', { p_rows: rows, p_dry_run: false })
  if (error) throwApiError(error, "Erreur lors de l'import des applications")
  return { report: data as unknown as SyncReport, invited: [], already: [], banned: [], unbanned: [], failures: [] }
}

// The lists these change belong to other features; their query keys are plain strings, invalidated by name.
const CHANGED_LISTS = { directory: ['users'], applications: ['applications'] } as const

export function useApplyImport(kind: SyncKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ rows, complete, onInvited }: { rows: SyncLine[]; complete: boolean; onInvited: (done: number) => void }) =>
      applyImport(kind, rows, complete, onInvited),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHANGED_LISTS[kind] }),
  })
}

export function useSetUserActive() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, active }: { userId: string; active: boolean }) => callFunction({ action: 'set_active', user_id: userId, active }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHANGED_LISTS.directory }),
  })
}

export function useInviteUser() {
  return useMutation({ mutationFn: (email: string) => callFunction({ action: 'invite', emails: [email] }) })
}

/**
 * The invitation link's session (GoTrue puts it in the URL's fragment), then the person's own password: they are
 * then signed in as anyone who typed it.
 */
export async function setInvitedPassword(tokens: { accessToken: string; refreshToken: string }, password: string): Promise<void> {
  const client = getSupabase()
  const session = await client.auth.setSession({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken })
  if (session.error) throwApiError({ message: INVITATION_MESSAGES.expired }, INVITATION_MESSAGES.expired)
  const { error } = await client.auth.updateUser({ password })
  if (error) throwApiError({ message: error.code === 'weak_password' ? INVITATION_MESSAGES.weak : INVITATION_MESSAGES.failed })
}

export const INVITATION_MESSAGES = {
  expired: "Ce lien n'est plus valable : il a expiré ou a déjà servi. Demandez à votre administrateur de vous envoyer une nouvelle invitation.",
  weak: 'Ce mot de passe est trop faible : 12 caractères au moins, avec des lettres et des chiffres.',
  failed: "Le mot de passe n'a pas pu être enregistré. Veuillez réessayer.",
} as const
