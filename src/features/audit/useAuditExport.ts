import { useState } from 'react'
import { downloadCsv, toCsv } from '@/lib/csv'
import { fetchAllAuditEvents, fetchAuditNames } from './api'
import { AUDIT_CSV_HEADER, auditCsvRow, auditFileName, type AuditFilters } from './model'

/** The CSV export of every filtered event: how many are read so far while it runs, and why it failed if it did. */
export function useAuditExport() {
  const [fetched, setFetched] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function exportCsv(filters: AuditFilters) {
    setError(null)
    setFetched(0)
    try {
      const all = await fetchAllAuditEvents(filters, setFetched)
      const names = await fetchAuditNames(all)
      downloadCsv(auditFileName(), toCsv(AUDIT_CSV_HEADER, all.map((event) => auditCsvRow(event, names))))
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : null)
    } finally {
      setFetched(null)
    }
  }

  return { fetched, error, exportCsv }
}
