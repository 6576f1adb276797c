/** What a large-organisation dataset is made from: the same options always give the same rows. */
export interface DatasetOptions {
  /** Seeds every random choice (default DEFAULT_DATASET_SEED). */
  seed?: number
  /** Multiplies every volume (people, applications, rights, audit events); 1 = FULL_SCALE. */
  scale?: number
  /** The day the data is "as of" (UTC, default today): dates are placed relative to it, as the demo seed does with now(). */
  asOf?: Date | string
}

export interface ResolvedDatasetOptions {
  seed: number
  scale: number
  /** UTC midnight of the as-of day, as YYYY-MM-DD. */
  asOf: string
}

export const DEFAULT_DATASET_SEED = 20261121

export const FULL_SCALE = {
  people: 10_000,
  applications: 200,
  rights: 300_000,
  auditEvents: 100_000,
  /** Rights awaiting manager@example.com's decision (their team's rights at the manager stage in active campaigns). */
  demoManagerQueue: 1_500,
} as const

/** The password of every account, demo and generated. */
export const DATASET_PASSWORD = 'Demo1234!'

/**
 * One bcrypt hash of DATASET_PASSWORD (cost 10) shared by every generated account: hashing ten thousand times would
 * take minutes, and a fixed hash keeps the data identical from one run to the next.
 */
export const DATASET_PASSWORD_HASH = '$2a$10$oUClqpt01RR5sqJqxRyNUex.2MKixRWrBJxhqtufAcA.WubgNk12C'

export const DATASET_EMAIL_DOMAIN = 'large.example.com'

/**
 * The e-mail of the k-th generated person of a role (k from 1, at least four digits): manager.0001@large.example.com
 * is the head of the organisation, then every manager (but one number, which manager@example.com takes), each with at
 * least one report and so, in practice, rights awaiting their decision in an active campaign; user.0001…, bpo.0001… (BPO Métier), bpo.groupe.0001…, ra.0001…,
 * admin.0001…, rssi.0001…. The demo accounts of supabase/seed.sql keep their own addresses and ids.
 */
export const DATASET_EMAIL_PATTERN = '<role>.<NNNN>@large.example.com'

export const emailPrefixByRole = {
  user: 'user',
  manager: 'manager',
  bpo_metier: 'bpo',
  bpo_groupe: 'bpo.groupe',
  ra: 'ra',
  admin: 'admin',
  rssi: 'rssi',
} as const

export type PersonRole = keyof typeof emailPrefixByRole

export function datasetEmail(role: PersonRole, k: number): string {
  return `${emailPrefixByRole[role]}.${String(k).padStart(4, '0')}@${DATASET_EMAIL_DOMAIN}`
}

/**
 * The largest scale each backend takes. PostgreSQL generates ten times the organisation (100,000 people, 3 million
 * rights) in minutes; PGlite holds the whole database in WebAssembly memory, where scale 1 (about 460 MB dumped) is
 * already its ceiling in practice.
 */
export const MAX_SCALE = { postgres: 10, pglite: 1 } as const

export function resolveDatasetOptions(options: DatasetOptions = {}): ResolvedDatasetOptions {
  const seed = options.seed ?? DEFAULT_DATASET_SEED
  const scale = options.scale ?? 1
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 2_000_000_000) {
    throw new Error(`Invalid dataset seed: ${options.seed} (an integer between 0 and 2000000000)`)
  }
  if (!Number.isFinite(scale) || scale < 0.001 || scale > MAX_SCALE.postgres) {
    throw new Error(`Invalid dataset scale: ${options.scale} (a number between 0.001 and ${MAX_SCALE.postgres})`)
  }
  const day = options.asOf === undefined ? new Date() : new Date(options.asOf)
  if (Number.isNaN(day.getTime())) throw new Error(`Invalid dataset date: ${String(options.asOf)}`)
  return { seed, scale, asOf: day.toISOString().slice(0, 10) }
}

/** Parses the CLI's --dataset-seed and --dataset-scale values. */
export function parseDatasetFlags(flags: { seed?: string; scale?: string }): DatasetOptions {
  const number = (value: string | undefined, name: string): number | undefined => {
    if (value === undefined) return undefined
    const parsed = Number(value)
    if (value.trim() === '' || Number.isNaN(parsed)) throw new Error(`Invalid --${name}: ${value}`)
    return parsed
  }
  return { seed: number(flags.seed, 'dataset-seed'), scale: number(flags.scale, 'dataset-scale') }
}

/** How many of each thing a scale gives; small floors keep a tiny organisation coherent (a tree, owners, reviewers). */
export interface DatasetCounts {
  people: number
  managers: number
  applications: number
  rights: number
  auditEvents: number
  bpoMetier: number
  bpoGroupe: number
  ra: number
  admin: number
  rssi: number
  /** manager@example.com's direct reports; each holds rightsPerTeamMember rights under review. */
  demoTeam: number
}

export const rightsPerTeamMember = 30

export function datasetCounts(scale: number): DatasetCounts {
  const scaled = (full: number, floor: number) => Math.max(floor, Math.round(full * scale))
  const people = scaled(FULL_SCALE.people, 60)
  return {
    people,
    managers: Math.max(6, Math.round(people * 0.1)),
    applications: scaled(FULL_SCALE.applications, 10),
    rights: scaled(FULL_SCALE.rights, 1_000),
    auditEvents: scaled(FULL_SCALE.auditEvents, 100),
    // Generated ones, besides the demo account of each role.
    bpoMetier: scaled(20, 1),
    bpoGroupe: scaled(8, 1),
    ra: scaled(25, 1),
    admin: scaled(3, 1),
    rssi: scaled(2, 1),
    // 90 % of a team member's rights await the manager (see paths.ts): 56 × 30 × 0.9 ≈ 1,500.
    demoTeam: scaled(Math.round(FULL_SCALE.demoManagerQueue / (rightsPerTeamMember * 0.9)), 3),
  }
}
