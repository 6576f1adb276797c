import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import { DateInput } from '@/components/ui/DateInput'
import { Dialog } from '@/components/ui/Dialog'
import { TextInput } from '@/components/ui/TextInput'
import { ActionOptions, FilterSelect, UserOptions } from './AuditFilterFields'
import { EMPTY_AUDIT_FILTERS, type AuditFilterOptions, type AuditFilters } from './model'

interface AuditFiltersDialogProps {
  /** The filters as the page has them when the dialog opens; nothing changes on the page until Appliquer. */
  initial: AuditFilters
  options: AuditFilterOptions | undefined
  onApply: (filters: AuditFilters) => void
  onClose: () => void
}

/** Every filter at once, dates included; a start after the end cannot be applied. */
export function AuditFiltersDialog({ initial, options, onApply, onClose }: AuditFiltersDialogProps) {
  const [draft, setDraft] = useState(initial)
  return (
    <Dialog
      open
      onClose={onClose}
      title="Filtres"
      footer={
        <>
          <Button variant="outline" onClick={() => setDraft(EMPTY_AUDIT_FILTERS)}>
            Réinitialiser
          </Button>
          <Button disabled={draft.from !== '' && draft.to !== '' && draft.from > draft.to} onClick={() => onApply(draft)}>
            Appliquer
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <TextInput label="Recherche dans le journal" type="search" value={draft.search} onChange={(event) => setDraft({ ...draft, search: event.target.value })} />
        <FilterSelect id="audit-filter-user" label="Utilisateur du journal" value={draft.userId} onChange={(userId) => setDraft({ ...draft, userId })}>
          <UserOptions options={options} />
        </FilterSelect>
        <FilterSelect id="audit-filter-action" label="Action du journal" value={draft.action} onChange={(action) => setDraft({ ...draft, action })}>
          <ActionOptions options={options} />
        </FilterSelect>
        <div className="grid gap-4 sm:grid-cols-2">
          <DateInput label="Date de début" value={draft.from} onChange={(from) => setDraft({ ...draft, from })} />
          <DateInput label="Date de fin" value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
        </div>
      </div>
    </Dialog>
  )
}
