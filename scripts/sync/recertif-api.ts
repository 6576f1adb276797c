import type { DirectoryRead } from './ldap-read'

interface ApiError {
  message: string
  details?: string | null
  code?: string
}

/** Recertif's API as the connector reaches it: its REST and auth admin endpoints, with the project's secret key. */
export interface RecertifApi {
  rpc(name: string, args?: Record<string, unknown>): Promise<{ data: unknown; error: ApiError | null }>
  banUser(id: string, banned: boolean): Promise<ApiError | null>
}

export function recertifClient(url: string, secretKey: string): RecertifApi {
  const base = url.replace(/\/+$/, '')
  const headers = { apikey: secretKey, Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' }
  const call = async (path: string, method: string, body: unknown) => {
    let response: Response
    try {
      response = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) })
    } catch (error) {
      return { data: null, error: { message: `Recertif injoignable à ${base} : ${(error as Error).message} (recertif.url).` } }
    }
    const text = await response.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      json = { message: `Réponse inattendue de ${base} (HTTP ${response.status}) : vérifiez recertif.url.` }
    }
    if (response.ok) return { data: json, error: null }
    const problem = (json ?? {}) as { message?: string; msg?: string; details?: string; code?: string }
    return { data: null, error: { message: problem.message ?? problem.msg ?? `HTTP ${response.status}`, details: problem.details ?? null, code: problem.code ?? String(response.status) } }
  }
  return {
    rpc: (name, args = {}) => call(`/rest/v1/rpc/${name}`, 'POST', args),
    banUser: async (id, banned) => (await call(`/auth/v1/admin/users/${id}`, 'PUT', { ban_duration: banned ? '876000h' : 'none' })).error,
  }
}

interface LineErrors {
  line: number
  errors: string[]
}

export interface SyncReport {
  directory: { lines: number; created: number; updated: number; leaving: number; deactivated: string[]; reactivated_emails: string[] }
  applications: { application: string; lines: number; created: number; present: number; absent: number; verified: number; unverified: number }[]
}

export interface PendingRemoval {
  id: string
  application_name: string
  holder_email: string
  role_name: string
}

export interface RemovalOutcome {
  id: string
  outcome: 'removed' | 'already_absent' | 'failed'
  message?: string
}

/** The rows import_directory and each application's snapshot take, from what was read. */
export function syncPayload(read: DirectoryRead, account: string, now?: Date) {
  const directory = read.people
    .filter((person) => !person.disabled)
    .map((person, index) => ({
      line: index + 1,
      email: person.email,
      first_name: person.first_name,
      last_name: person.last_name,
      position: person.position,
      department: person.department,
      manager_email: person.manager_email,
    }))
  const byApplication = new Map<string, Map<string, { email: string; role_name: string; account_type?: string; disabled: boolean }>>()
  for (const membership of read.memberships) {
    const rows = byApplication.get(membership.application) ?? new Map()
    // A person in two groups mapped to one role holds that role once.
    rows.set(`${membership.email.toLowerCase()}\u0000${membership.role.toLowerCase()}`, {
      email: membership.email,
      role_name: membership.role,
      ...(membership.account_type ? { account_type: membership.account_type } : {}),
      disabled: membership.disabled,
    })
    byApplication.set(membership.application, rows)
  }
  return { account, directory, now: now?.toISOString(), byApplication }
}

/** One run's imports, all or nothing; a refusal is explained line by line. */
export async function pushSnapshot(
  api: RecertifApi,
  payload: ReturnType<typeof syncPayload>,
  applications: string[],
): Promise<SyncReport> {
  const p_run = {
    account: payload.account,
    ...(payload.now ? { now: payload.now } : {}),
    directory: payload.directory,
    applications: applications.map((name) => ({
      name,
      rows: [...(payload.byApplication.get(name)?.values() ?? [])].map((row, index) => ({ line: index + 1, ...row })),
    })),
  }
  const { data, error } = await api.rpc('connector_sync', { p_run })
  if (error) throw new Error(explainRefusal(error))
  return data as SyncReport
}

function explainRefusal(error: { message: string; details?: string | null; code?: string }): string {
  if ((error.code === '42501' || error.code === '401') && !/connecteur/.test(error.message)) {
    return `Recertif refuse la clé du connecteur (${error.message}) : vérifiez recertif.url et la clé secrète (recertif.secretKeyEnv).`
  }
  const lines = [`Recertif a refusé la synchronisation : ${error.message}`]
  try {
    const details = JSON.parse(error.details ?? '') as Record<string, { errors?: LineErrors[] }>
    for (const report of Object.values(details)) {
      for (const line of (report.errors ?? []).slice(0, 20)) lines.push(`  ligne ${line.line} : ${line.errors.join(', ')}`)
    }
  } catch {
    if (error.details) lines.push(`  ${error.details}`)
  }
  return lines.join('\n')
}

/** Bans the auth accounts of the leavers the import deactivated, and lifts it for those it reactivated. */
export async function updateBans(api: RecertifApi, report: SyncReport): Promise<string[]> {
  const failures: string[] = []
  for (const [emails, banned] of [[report.directory.deactivated, true], [report.directory.reactivated_emails, false]] as const) {
    if (emails.length === 0) continue
    const { data, error } = await api.rpc('auth_account_ids', { p_emails: emails })
    if (error) {
      failures.push(`Comptes de connexion non mis à jour : ${error.message}`)
      continue
    }
    for (const account of (data as { email: string; id: string }[] | null) ?? []) {
      const banError = await api.banUser(account.id, banned)
      if (banError) failures.push(`${account.email} : ${banError.message}`)
    }
  }
  return failures
}

export async function pendingRemovals(api: RecertifApi): Promise<PendingRemoval[]> {
  const { data, error } = await api.rpc('connector_pending_removals')
  if (error) throw new Error(`Impossible de lire les suppressions demandées : ${error.message}`)
  return (data as PendingRemoval[] | null) ?? []
}

export async function recordRemovals(api: RecertifApi, account: string, outcomes: RemovalOutcome[]): Promise<void> {
  if (outcomes.length === 0) return
  const { error } = await api.rpc('connector_record_removals', { p_account: account, p_outcomes: outcomes })
  if (error) throw new Error(`Les suppressions faites dans l'annuaire n'ont pas pu être enregistrées dans Recertif : ${error.message}`)
}
