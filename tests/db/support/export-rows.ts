/** campaign_export_rows's rows, as the function sends them and as the tests read them. */

/** A row as the function sends it: an array in its documented order, times in milliseconds. */
export type ExportData = [
  right_id: string,
  user_name: string,
  user_email: string,
  application_name: string,
  role_name: string,
  account_type: string,
  granted_at: number,
  last_used_at: number | null,
  justification: string,
  status: string,
  decisions: [stage: string, decision: string, comment: string | null, decided_at: number, decided_by_name: string | null][] | null,
]

export interface ExportRow {
  right_id: string
  user_name: string
  user_email: string
  application_name: string
  role_name: string
  account_type: string
  granted_at: string
  last_used_at: string | null
  justification: string
  status: string
  manager_decision: string | null
  manager_comment: string | null
  manager_decided_at: string | null
  manager_decided_by_name: string | null
  bpo_metier_decision: string | null
  bpo_metier_comment: string | null
  bpo_metier_decided_at: string | null
  bpo_metier_decided_by_name: string | null
  bpo_groupe_decision: string | null
  bpo_groupe_comment: string | null
  bpo_groupe_decided_at: string | null
  bpo_groupe_decided_by_name: string | null
}

const isoOf = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** The row with its columns named, its times as ISO text and each stage's latest decision in its own columns. */
export function exportRowOf(data: ExportData): ExportRow {
  const [right_id, user_name, user_email, application_name, role_name, account_type, granted_at, last_used_at, justification, status, decisions] = data
  const row: ExportRow = {
    right_id,
    user_name,
    user_email,
    application_name,
    role_name,
    account_type,
    granted_at: isoOf(granted_at)!,
    last_used_at: isoOf(last_used_at),
    justification,
    status,
    manager_decision: null,
    manager_comment: null,
    manager_decided_at: null,
    manager_decided_by_name: null,
    bpo_metier_decision: null,
    bpo_metier_comment: null,
    bpo_metier_decided_at: null,
    bpo_metier_decided_by_name: null,
    bpo_groupe_decision: null,
    bpo_groupe_comment: null,
    bpo_groupe_decided_at: null,
    bpo_groupe_decided_by_name: null,
  }
  for (const [stage, decision, comment, decidedAt, decidedByName] of decisions ?? []) {
    Object.assign(row, {
      [`${stage}_decision`]: decision,
      [`${stage}_comment`]: comment,
      [`${stage}_decided_at`]: isoOf(decidedAt),
      [`${stage}_decided_by_name`]: decidedByName,
    })
  }
  return row
}
