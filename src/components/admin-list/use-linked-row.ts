import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'

/**
 * A link to one row of a list (the admin dashboard's « Détails », ?param=id): the row is scrolled into view when the
 * page shows it, and its form opens once; closing the form (dismiss) leaves the row highlighted and the link as it was.
 */
export function useLinkedRow(param: string, rows: readonly { id: string }[] | undefined) {
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(param)
  const [dismissedId, setDismissedId] = useState<string | null>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const linkedShown = rows?.some((row) => row.id === linkedId) ?? false

  useEffect(() => {
    if (linkedShown) listRef.current?.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'center' })
  }, [linkedId, linkedShown])

  return {
    linkedId,
    listRef,
    /** Whether the linked row's form is still to open. */
    opens: linkedId !== null && linkedId !== dismissedId,
    dismiss: () => setDismissedId(linkedId),
    /**
     * The linked row from its own read (it may be on any page of the list): the row, null while there is none, and
     * what to show: the read's failure, and `missing` when it found nothing.
     */
    found: <Row>(read: { data?: Row | null; error: Error | null }, missing: string) => ({
      row: linkedId ? (read.data ?? null) : null,
      errors: [read.error?.message, linkedId && read.data === null ? missing : null],
    }),
  }
}
