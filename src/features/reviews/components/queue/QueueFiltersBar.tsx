import { useId, type ReactNode } from 'react'
import { rightStatusLabel, type RightStatus } from '@/domain/labels'
import type { Grouping } from '../../model'
import type { ReviewQueueState } from './useReviewQueueState'

export const queueFieldClass =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:border-primary-500 focus:outline-none focus:ring-1 focus:ring-primary-500'

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-gray-700">
        {label}
      </label>
      {children}
    </div>
  )
}

/** Regrouper par, then the campaign, application and status filters, their choices drawn from the queue. */
export function QueueFiltersBar({ queue }: { queue: Pick<ReviewQueueState, 'grouping' | 'setGrouping' | 'filters' | 'updateFilters' | 'options'> }) {
  const ids = { grouping: useId(), campaign: useId(), application: useId(), status: useId() }
  const { filters, options, updateFilters } = queue
  return (
    <div className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-4">
      <Field id={ids.grouping} label="Regrouper par">
        <select id={ids.grouping} className={queueFieldClass} value={queue.grouping} onChange={(event) => queue.setGrouping(event.target.value as Grouping)}>
          <option value="person">Personne</option>
          <option value="application">Application</option>
        </select>
      </Field>
      <Field id={ids.campaign} label="Campagne">
        <select id={ids.campaign} className={queueFieldClass} value={filters.campaignId ?? ''} onChange={(event) => updateFilters({ campaignId: event.target.value || null })}>
          <option value="">Toutes les campagnes</option>
          {options.campaigns.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      <Field id={ids.application} label="Application">
        <select id={ids.application} className={queueFieldClass} value={filters.applicationId ?? ''} onChange={(event) => updateFilters({ applicationId: event.target.value || null })}>
          <option value="">Toutes les applications</option>
          {options.applications.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      <Field id={ids.status} label="Statut">
        <select id={ids.status} className={queueFieldClass} value={filters.status ?? ''} onChange={(event) => updateFilters({ status: (event.target.value || null) as RightStatus | null })}>
          <option value="">Tous les statuts</option>
          {options.statuses.map((status) => (
            <option key={status} value={status}>
              {rightStatusLabel(status)}
            </option>
          ))}
        </select>
      </Field>
    </div>
  )
}
