import { Search } from 'lucide-react'
import { TextInput } from './TextInput'

interface SearchFieldProps {
  label: string
  /** What the search looks in, said under the field. */
  help?: string
  value: string
  onChange: (value: string) => void
  className?: string
}

/** The search box above a server-searched list; the list waits for typing to pause (usePagedList). */
export function SearchField({ label, help, value, onChange, className }: SearchFieldProps) {
  return (
    <TextInput
      type="search"
      label={label}
      help={help}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      icon={<Search className="h-4 w-4" />}
      className={className}
    />
  )
}
