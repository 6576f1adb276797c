import type { ApplicationChoice } from '@/domain/applications'
import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import { DateInput } from '@/components/ui/DateInput'
import { Dialog } from '@/components/ui/Dialog'
import { TextInput } from '@/components/ui/TextInput'
import { ACCOUNT_TYPES, accountTypeLabel, type AccountType } from '@/domain/labels'
import { defaultFilters, type DashboardFilters } from '../model'

interface DashboardFiltersDialogProps {
  open: boolean
  filters: DashboardFilters
  applications: readonly ApplicationChoice[]
  onApply: (filters: DashboardFilters) => void
  onClose: () => void
}

const selectClasses =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500'

/** SPEC §2: search, application, account type, start and end date; Réinitialiser and Appliquer. */
export function DashboardFiltersDialog({ open, filters, applications, onApply, onClose }: DashboardFiltersDialogProps) {
  if (!open) return null
  return <FiltersForm filters={filters} applications={applications} onApply={onApply} onClose={onClose} />
}

function FiltersForm({ filters, applications, onApply, onClose }: Omit<DashboardFiltersDialogProps, 'open'>) {
  // A draft, so that closing without Appliquer changes nothing.
  const [draft, setDraft] = useState(filters)
  const datesInverted = draft.from !== '' && draft.to !== '' && draft.from > draft.to
  const set = (patch: Partial<DashboardFilters>) => setDraft((current) => ({ ...current, ...patch }))
  const setDates = (patch: Partial<DashboardFilters>) => set({ ...patch, period: 'personnalisee' })

  return (
    <Dialog
      open
      onClose={onClose}
      title="Filtres"
      description="Les dates limitent l'activité (revues) ; les autres filtres s'appliquent à tous les indicateurs."
      footer={
        <>
          <Button variant="outline" onClick={() => setDraft(defaultFilters())}>
            Réinitialiser
          </Button>
          <Button
            disabled={datesInverted}
            onClick={() => {
              onApply(draft)
              onClose()
            }}
          >
            Appliquer
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <TextInput
          label="Recherche"
          type="search"
          placeholder="Utilisateur, e-mail, application, rôle…"
          value={draft.search}
          onChange={(event) => set({ search: event.target.value })}
        />
        <div>
          <label htmlFor="rssi-filter-application" className="mb-1 block text-sm font-medium text-gray-700">
            Application
          </label>
          <select
            id="rssi-filter-application"
            className={selectClasses}
            value={draft.applicationId}
            onChange={(event) => set({ applicationId: event.target.value })}
          >
            <option value="">Toutes les applications</option>
            {applications.map((application) => (
              <option key={application.id} value={application.id}>
                {application.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="rssi-filter-account-type" className="mb-1 block text-sm font-medium text-gray-700">
            Type de compte
          </label>
          <select
            id="rssi-filter-account-type"
            className={selectClasses}
            value={draft.accountType}
            onChange={(event) => set({ accountType: event.target.value as AccountType | '' })}
          >
            <option value="">Tous les types</option>
            {ACCOUNT_TYPES.map((type) => (
              <option key={type} value={type}>
                {accountTypeLabel(type)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <DateInput label="Date de début" value={draft.from} onChange={(from) => setDates({ from })} />
          <DateInput
            label="Date de fin"
            value={draft.to}
            error={datesInverted ? 'La date de fin doit suivre la date de début.' : null}
            onChange={(to) => setDates({ to })}
          />
        </div>
      </div>
    </Dialog>
  )
}
