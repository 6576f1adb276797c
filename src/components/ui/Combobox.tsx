import { useEffect, useId, useState, type KeyboardEvent } from 'react'
import { cn } from '@/lib/cn'
import { SEARCH_DELAY_MS } from '@/lib/use-paged-list'

export interface ComboboxOption {
  id: string
  label: string
}

interface ComboboxProps {
  label: string
  required?: boolean
  error?: string | null
  /** The chosen option; null for none. */
  value: ComboboxOption | null
  onChange: (option: ComboboxOption | null) => void
  /** The options matching the last search sent; undefined while the first answer is awaited. */
  options: ComboboxOption[] | undefined
  /** Receives the typed text once typing pauses: the caller looks the matching options up on the server. */
  onSearch: (search: string) => void
  /** The first option, choosing none: « Aucun manager ». */
  noneLabel: string
  /** Said under the options when the server found more than it sent. */
  moreText?: string | null
}

/**
 * A text field that finds its options on the server as one types (WAI-ARIA combobox with a listbox popup), for choices
 * among thousands of people that a select could not hold. Arrow keys move through the options, Enter picks, Escape
 * closes; closed, the field shows the chosen option.
 */
export function Combobox({ label, required, error, value, onChange, options, onSearch, noneLabel, moreText }: ComboboxProps) {
  const id = useId()
  const listId = `${id}-list`
  const errorId = `${id}-error`
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const [active, setActive] = useState(0)
  const choices: (ComboboxOption | null)[] = [null, ...(options ?? [])]

  useEffect(() => {
    const timer = setTimeout(() => onSearch(text), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text, onSearch])

  const pick = (option: ComboboxOption | null) => {
    onChange(option)
    setOpen(false)
    setText('')
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!open) return setOpen(true)
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((current) => (current + step + choices.length) % choices.length)
    } else if (event.key === 'Enter' && open) {
      // Enter picks the option rather than submitting the form around the field.
      event.preventDefault()
      pick(choices[active] ?? null)
    } else if (event.key === 'Escape' && open) {
      // Escape closes the list, not the dialog around the field.
      event.stopPropagation()
      setOpen(false)
      setText('')
    }
  }

  return (
    <div className="relative">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-gray-700">
        {label}
        {required && (
          <span aria-hidden="true" className="text-red-600">
            {' '}
            *
          </span>
        )}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? `${id}-option-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={noneLabel}
        value={open ? text : (value?.label ?? '')}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false)
          setText('')
        }}
        onChange={(event) => {
          setText(event.target.value)
          setActive(0)
          setOpen(true)
        }}
        onKeyDown={onKeyDown}
        className={cn(
          'block w-full rounded-md border bg-white px-3 py-2 text-sm text-gray-900 shadow-sm',
          'focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500',
          error ? 'border-red-500' : 'border-gray-300',
        )}
      />
      <div hidden={!open} className="absolute z-10 mt-1 w-full rounded-md border border-gray-200 bg-white text-sm shadow-lg">
        <ul id={listId} role="listbox" aria-label={label} className="max-h-60 overflow-auto py-1">
          {choices.map((option, index) => (
            <li
              key={option?.id ?? ''}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={(option?.id ?? null) === (value?.id ?? null)}
              className={cn('cursor-pointer px-3 py-2', index === active && 'bg-primary-50', option === null && 'text-gray-600')}
              // mousedown, not click: the field's blur would close the list before the click lands.
              onMouseDown={(event) => {
                event.preventDefault()
                pick(option)
              }}
            >
              {option?.label ?? noneLabel}
            </li>
          ))}
        </ul>
        {/* Outside the listbox, which may hold options only. */}
        <p className="px-3 py-2 text-xs text-gray-600 empty:hidden">
          {options === undefined ? 'Recherche…' : options.length === 0 ? 'Aucun résultat' : (moreText ?? '')}
        </p>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  )
}
