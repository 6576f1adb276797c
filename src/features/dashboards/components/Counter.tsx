import { Card, CardContent } from '@/components/ui/Card'
import { cn } from '@/lib/cn'

interface CounterProps {
  label: string
  /** Undefined while loading. */
  value: number | undefined
  className?: string
}

export function Counter({ label, value, className }: CounterProps) {
  return (
    <Card>
      {/* A label on two lines keeps the figure level with its neighbours'. */}
      <CardContent className="flex h-full flex-col justify-between">
        <p className="text-sm text-gray-600">{label}</p>
        <p className={cn('mt-1 text-3xl font-bold tabular-nums text-gray-900', className)} data-testid={`counter-${label}`}>
          {value ?? '…'}
        </p>
      </CardContent>
    </Card>
  )
}
