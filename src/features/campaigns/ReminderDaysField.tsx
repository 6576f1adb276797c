import { useId, useState, type KeyboardEvent } from 'react'
import { Plus, X } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { frenchDateText } from '@/components/ui/DateInput'
import { FieldError, fieldControlClasses } from '@/components/ui/field-parts'
import { countText } from '@/domain/plural'
import { MAX_REMINDERS, parseReminderDay, reminderDay, reminderDayProblem, sortReminderDays } from './reminders-model'

interface ReminderDaysFieldProps {
  days: number[]
  onChange: (days: number[]) => void
  /** Days from the start date to the end date, once both are valid: no reminder may fall before the start. */
  length: number | null
  /** The end date (yyyy-MM-dd) once valid, to say when each reminder goes. */
  endDate: string | null
  /** The list's own problem, found at submit (the dates may have moved since a day was added). */
  error?: string
}

/**
 * The days before the end date on which the reviewers with rights left are reminded: one chip per day, each removable,
 * and a field that adds one, refused in French when it is not a day from 1 to 365, is already there, would fall before
 * the start date or would make more than ten.
 */
export function ReminderDaysField({ days, onChange, length, endDate, error }: ReminderDaysFieldProps) {
  const id = useId()
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const shownError = problem ?? error

  const add = () => {
    const day = parseReminderDay(draft)
    const found = reminderDayProblem(day, days, length)
    setProblem(found)
    if (found || day === null) return
    onChange(sortReminderDays([...days, day]))
    setDraft('')
  }
  const addOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    // Enter adds the day rather than submitting the whole form.
    event.preventDefault()
    add()
  }

  return (
    <fieldset className="ml-6" aria-describedby={shownError ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium text-gray-700">Jours de rappel avant la date de fin</legend>
      {days.length === 0 ? (
        <p className="text-sm text-gray-600">Aucun rappel : seule l'escalade suit la date de fin.</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label="Rappels prévus">
          {days.map((day) => (
            <li key={day} className="inline-flex items-center gap-1 rounded-full border border-primary-200 bg-primary-50 py-0.5 pl-3 pr-1 text-sm text-primary-900">
              <span>
                {countText(day, 'jour', 'jours')}
                {length !== null && day > length ? (
                  <span className="text-gray-600"> · avant le début : pas envoyé</span>
                ) : (
                  endDate && <span className="text-primary-700"> · {frenchDateText(reminderDay(endDate, day))}</span>
                )}
              </span>
              <button
                type="button"
                className="rounded-full p-1 text-primary-700 hover:bg-primary-100 focus:outline-none focus:ring-2 focus:ring-primary-500"
                aria-label={`Retirer le rappel ${countText(day, 'jour', 'jours')} avant la fin`}
                onClick={() => {
                  setProblem(null)
                  onChange(days.filter((other) => other !== day))
                }}
              >
                <X aria-hidden="true" className="h-3.5 w-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-2 flex items-end gap-2">
        <div className="min-w-0 max-w-44 flex-1">
          <label htmlFor={`${id}-add`} className="mb-1 block text-sm text-gray-700">
            Ajouter un rappel (jours)
          </label>
          <input
            id={`${id}-add`}
            type="text"
            inputMode="numeric"
            value={draft}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
            disabled={days.length >= MAX_REMINDERS}
            className={fieldControlClasses(problem).join(' ')}
            onChange={(event) => {
              setDraft(event.target.value)
              setProblem(null)
            }}
            onKeyDown={addOnEnter}
          />
        </div>
        <Button type="button" size="sm" variant="outline" leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} disabled={days.length >= MAX_REMINDERS} onClick={add}>
          Ajouter
        </Button>
      </div>
      {days.length >= MAX_REMINDERS && <p className="mt-1 text-sm text-gray-600">{MAX_REMINDERS} rappels au plus : retirez-en un pour en ajouter un autre.</p>}
      <FieldError id={`${id}-error`} error={shownError} />
    </fieldset>
  )
}
