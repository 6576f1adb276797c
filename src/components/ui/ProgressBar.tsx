import { cn } from '@/lib/cn'
import { rateTone, type Tone } from '@/lib/tones'

const barClasses: Partial<Record<Tone, string>> = {
  green: 'bg-green-500',
  orange: 'bg-orange-500',
  red: 'bg-red-500',
  blue: 'bg-primary-600',
}

interface ProgressBarProps {
  /** Percentage, clamped to 0–100 and shown rounded. */
  value: number
  label: string
  /** 'rate' colours by the 90 %/75 % thresholds; 'progress' stays blue whatever the value. */
  kind?: 'rate' | 'progress'
  className?: string
}

export function ProgressBar({ value, label, kind = 'rate', className }: ProgressBarProps) {
  const percent = Math.round(Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0)))
  const tone = kind === 'rate' ? rateTone(percent) : 'blue'
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 flex-1 overflow-hidden rounded-full bg-gray-200"
      >
        <div data-tone={tone} className={cn('h-full rounded-full', barClasses[tone])} style={{ width: `${percent}%` }} />
      </div>
      <span className="w-10 text-right text-sm tabular-nums text-gray-700">{percent}%</span>
    </div>
  )
}
