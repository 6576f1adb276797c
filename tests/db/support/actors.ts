import type { Database, Sql } from '../../../supabase/local/database'

/** The seeded demo accounts (supabase/seed.sql) and a few profiles without an account. */
export const demo = {
  user: { id: '00000000-0000-4000-a000-000000000001', email: 'user@example.com' },
  manager: { id: '00000000-0000-4000-a000-000000000002', email: 'manager@example.com' },
  bpo_metier: { id: '00000000-0000-4000-a000-000000000003', email: 'bpo@example.com' },
  bpo_groupe: { id: '00000000-0000-4000-a000-000000000004', email: 'bpo.groupe@example.com' },
  ra: { id: '00000000-0000-4000-a000-000000000005', email: 'ra@example.com' },
  admin: { id: '00000000-0000-4000-a000-000000000006', email: 'admin@example.com' },
  rssi: { id: '00000000-0000-4000-a000-000000000007', email: 'rssi@example.com' },
} as const

export const teamMembers = {
  thomas: '00000000-0000-4000-b000-000000000002',
  emma: '00000000-0000-4000-b000-000000000003',
  lucas: '00000000-0000-4000-b000-000000000004',
  paul: '00000000-0000-4000-b000-000000000005',
} as const

/** Isabelle Laurent, the demo manager's own manager: a profile without an account. */
export const isabelle = '00000000-0000-4000-b000-000000000001'

export const campaignIds = {
  completed: '00000000-0000-4000-c000-000000000001',
  active: '00000000-0000-4000-c000-000000000002',
  draft: '00000000-0000-4000-c000-000000000003',
} as const

export type DemoRole = keyof typeof demo
export type Actor = DemoRole | 'anon' | 'service_role' | { id: string; email: string }

export interface ActOptions {
  /** Request headers as the API passes them to Postgres (lower-case names). */
  headers?: Record<string, string>
}

/**
 * Runs fn in one transaction as PostgREST would for this caller: the API role, the JWT claims and the
 * request headers are set transaction-locally. The transaction commits when fn succeeds.
 */
export function actAs<T>(db: Database, actor: Actor, fn: (tx: Sql) => Promise<T>, options: ActOptions = {}): Promise<T> {
  const person = typeof actor === 'string' ? (actor in demo ? demo[actor as DemoRole] : null) : actor
  const role = person ? 'authenticated' : (actor as string)
  // Sessions as they are once signed in, the second factor passed where the role needs one (aal2).
  const claims = person ? { sub: person.id, email: person.email, role, aud: 'authenticated', aal: 'aal2' } : { role }
  return db.transaction(async (tx) => {
    await tx.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.headers', $3, true)`,
      [role, JSON.stringify(claims), JSON.stringify(options.headers ?? {})],
    )
    return fn(tx)
  })
}

export interface Outcome<T> {
  ok: boolean
  value?: T
  code?: string
  message?: string
}

async function outcomeOf<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    const e = error as { code?: string; message?: string }
    return { ok: false, code: e.code, message: e.message }
  }
}

/** Like actAs, but reports a refusal instead of throwing, with Postgres' SQLSTATE and message. */
export function attempt<T>(db: Database, actor: Actor, fn: (tx: Sql) => Promise<T>, options?: ActOptions): Promise<Outcome<T>> {
  return outcomeOf(() => actAs(db, actor, fn, options))
}

/** One statement as the database owner, as a security-definer function would run it, reported as attempt does. */
export function asOwner(db: Database, text: string, params: unknown[] = []): Promise<Outcome<unknown>> {
  return outcomeOf(() => db.query(text, params))
}
