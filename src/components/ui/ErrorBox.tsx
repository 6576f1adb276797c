import { AlertCircle } from 'lucide-react'
import { DEFAULT_ERROR_MESSAGE } from '@/lib/api-error'
import { cn } from '@/lib/cn'

interface ErrorBoxProps {
  message?: string | null
  title?: string
  className?: string
}

/** The red box lists and dialogs show when something failed (SPEC §2, §8). */
export function ErrorBox({ message, title, className }: ErrorBoxProps) {
  return (
    <div role="alert" className={cn('flex gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800', className)}>
      <AlertCircle aria-hidden="true" className="h-5 w-5 shrink-0 text-red-600" />
      <div>
        {title && <p className="font-medium">{title}</p>}
        <p>{message || DEFAULT_ERROR_MESSAGE}</p>
      </div>
    </div>
  )
}
