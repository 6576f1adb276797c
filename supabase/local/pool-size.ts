/**
 * How many connections the server keeps to PostgreSQL: DB_POOL when set (PostgREST's db-pool), otherwise two per
 * processor core and one more, at most PostgREST's default of 10, as the PostgreSQL wiki advises for a database on the
 * same machine. More connections than that only take turns on the cores: with 50 reviewers deciding at once on 2
 * cores, 10 connections spent 2.6-3.8 ms of database CPU per decision, 4 spent 2.0-2.6 ms (docs/performance.md).
 */
export function postgresPoolSize(setting: string | undefined, cores: number): number {
  if (setting === undefined || setting.trim() === '') return Math.min(10, 2 * cores + 1)
  const size = Number(setting)
  if (!Number.isInteger(size) || size < 1 || size > 100) {
    throw new Error(`DB_POOL: expected a whole number of connections from 1 to 100, got "${setting}"`)
  }
  return size
}
