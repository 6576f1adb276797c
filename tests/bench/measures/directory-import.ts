/**
 * The directory import at the organisation's size: an administrator's rpc('import_directory') of 10,000 new
 * people in a manager tree five levels deep, lines in reverse order (every manager after their reports), first as the
 * dialog's dry run, then applied (one insert per person, each audited). Timed from Node, as the database's share of
 * what the import dialog waits for; the invitations the function sends afterwards are not part of it.
 */
import { loadavg } from 'node:os'
import type { Api } from '../support/api'

export interface DirectoryImportResult {
  people: number
  dryRunMs: number
  applyMs: number
  created: number
  /** The machine's load average (1, 5, 15 min) as the apply ended: on a shared machine the same import takes from 4 to 15 s. */
  loadAverage: number[]
}

/** 10 at the top, each with 3 to 4 reports down to 10,000 people; returned bottom first. */
function directoryFile(people: number, tag: string) {
  const rows: { email: string; first_name: string; last_name: string; position: string; department: string; manager_email?: string; role: string }[] = []
  const email = (index: number) => `bench.${tag}.${String(index).padStart(5, '0')}@import.example.org`
  for (let index = 0; index < people; index += 1) {
    // A heap-like tree: person i reports to person floor((i - 10) / 3.5), the first ten are its roots.
    const manager = index < 10 ? undefined : Math.floor((index - 10) / 3.5)
    rows.push({
      email: email(index),
      first_name: 'Prénom',
      last_name: `Bench ${index}`,
      position: manager === undefined ? 'Directeur' : 'Collaborateur',
      department: `Département ${index % 40}`,
      manager_email: manager === undefined ? undefined : email(manager),
      role: index < 2_000 ? 'Manager' : 'Utilisateur',
    })
  }
  return rows.reverse().map((row, index) => ({ line: index + 2, ...row }))
}

export async function measureDirectoryImport(admin: Api, people = 10_000): Promise<DirectoryImportResult> {
  const rows = directoryFile(people, Date.now().toString(36))
  const run = async (dryRun: boolean) => {
    const started = performance.now()
    const { data, error } = await admin.rpc('import_directory', { p_rows: rows, p_complete: false, p_dry_run: dryRun })
    const elapsed = performance.now() - started
    if (error) throw new Error(`import_directory failed: ${error.message}`)
    const report = data as { success: boolean; created: number; errors: unknown[] }
    if (!report.success) throw new Error(`import_directory refused the file: ${JSON.stringify(report.errors.slice(0, 3))}`)
    return { elapsed, created: report.created }
  }
  const dryRun = await run(true)
  const applied = await run(false)
  return {
    people,
    dryRunMs: Math.round(dryRun.elapsed),
    applyMs: Math.round(applied.elapsed),
    created: applied.created,
    loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
  }
}
