import { useState } from 'react'

/** The form an administration list has open: none, a new row's, or one row's. */
export type RowForm<Row> = { kind: 'closed' } | { kind: 'create' } | { kind: 'edit'; row: Row }

/**
 * The open form of a list whose rows a link may name (useLinkedRow): the linked row's form opens by itself when the
 * reader may edit and no other form is open, and closing any form keeps the link from opening it again.
 */
export function useRowForm<Row>(link: { opens: boolean; dismiss: () => void }, linkedRow: Row | null, mayEdit = true) {
  const [chosen, setChosen] = useState<RowForm<Row>>({ kind: 'closed' })
  const form: RowForm<Row> = mayEdit && chosen.kind === 'closed' && linkedRow && link.opens ? { kind: 'edit', row: linkedRow } : chosen
  return {
    form,
    create: () => setChosen({ kind: 'create' }),
    edit: (row: Row) => setChosen({ kind: 'edit', row }),
    close: () => {
      setChosen({ kind: 'closed' })
      link.dismiss()
    },
  }
}
