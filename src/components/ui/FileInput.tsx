import { useId, useState, type DragEvent } from 'react'
import { Upload } from 'lucide-react'
import { cn } from '@/lib/cn'
import { buttonClasses } from './Button'

export interface FileInputProps {
  label: string
  /** Called with the file chosen or dropped (undefined when the choice is cancelled). */
  onFile: (file: File | undefined) => void
  /** The input's accept attribute, e.g. '.csv,text/csv'. */
  accept?: string
  disabled?: boolean
  help?: string
  className?: string
}

/**
 * A file field in French whatever the browser's language (the native one says « Choose File » / « No file chosen » in an
 * English browser). The native input stays, visually hidden, so that it keeps its label, the keyboard (Tab, then Space
 * or Enter opens the chooser) and what assistive technologies say of it; a file can also be dropped on the field.
 * Remount it (a new key) to clear it.
 */
export function FileInput({ label, onFile, accept, disabled = false, help, className }: FileInputProps) {
  const inputId = useId()
  const statusId = `${inputId}-status`
  const helpId = `${inputId}-help`
  const [fileName, setFileName] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)

  const choose = (file: File | undefined) => {
    setFileName(file?.name ?? null)
    onFile(file)
  }
  const dragOver = (event: DragEvent) => {
    if (disabled) return
    event.preventDefault()
    setDragging(true)
  }
  const drop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    if (!disabled) choose(event.dataTransfer.files[0])
  }

  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-gray-700">
        {label}
      </label>
      <div
        data-testid="file-drop-zone"
        onDragOver={dragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-md border border-dashed px-3 py-2',
          dragging ? 'border-primary-500 bg-primary-50' : 'border-gray-300 bg-white',
        )}
      >
        <input
          id={inputId}
          type="file"
          accept={accept}
          disabled={disabled}
          aria-describedby={[statusId, help ? helpId : null].filter(Boolean).join(' ')}
          className="peer sr-only"
          onChange={(event) => choose(event.target.files?.[0])}
        />
        {/* A second label of the same input: clicking it opens the chooser, as the native button would. */}
        <label
          htmlFor={inputId}
          className={cn(
            buttonClasses({ variant: 'outline', size: 'sm' }),
            'cursor-pointer peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary-600',
            disabled && 'cursor-not-allowed opacity-60',
          )}
        >
          <Upload aria-hidden="true" className="h-4 w-4" />
          Choisir un fichier
        </label>
        <span id={statusId} className="min-w-0 truncate text-sm text-gray-700">
          {fileName ?? 'Aucun fichier choisi'}
        </span>
        <span aria-hidden="true" className="text-xs text-gray-500">
          ou déposez-le ici
        </span>
      </div>
      {help && (
        <p id={helpId} className="mt-1 text-sm text-gray-500">
          {help}
        </p>
      )}
    </div>
  )
}
