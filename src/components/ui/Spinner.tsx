import { Loader2 } from 'lucide-react'
import { cn } from '@/lib/cn'

interface SpinnerProps {
  /** Announced to screen readers and shown beside the icon unless `hideLabel`. */
  label?: string
  hideLabel?: boolean
  className?: string
}

export function Spinner({ label = 'Chargement…', hideLabel = false, className }: SpinnerProps) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-2 text-gray-600', className)}>
      <Loader2 aria-hidden="true" className="h-5 w-5 animate-spin text-primary-600" />
      <span className={hideLabel ? 'sr-only' : 'text-sm'}>{label}</span>
    </div>
  )
}

/** What a whole screen shows while it waits for the session or a lazily loaded page. */
export function FullPageSpinner() {
  return <Spinner className="min-h-[50vh]" />
}
