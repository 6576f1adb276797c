import type { HTMLAttributes } from 'react'
import { cn } from '@/lib/cn'

type DivProps = HTMLAttributes<HTMLDivElement>

export function Card({ className, ...rest }: DivProps) {
  return <div className={cn('rounded-lg border border-gray-200 bg-white shadow-sm', className)} {...rest} />
}

export function CardHeader({ className, ...rest }: DivProps) {
  return <div className={cn('border-b border-gray-100 px-6 py-4', className)} {...rest} />
}

export function CardTitle({ className, ...rest }: HTMLAttributes<HTMLHeadingElement>) {
  return <h2 className={cn('text-lg font-semibold text-gray-900', className)} {...rest} />
}

export function CardDescription({ className, ...rest }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn('mt-1 text-sm text-gray-500', className)} {...rest} />
}

export function CardContent({ className, ...rest }: DivProps) {
  return <div className={cn('px-6 py-4', className)} {...rest} />
}

export function CardFooter({ className, ...rest }: DivProps) {
  return <div className={cn('flex items-center justify-end gap-2 border-t border-gray-100 px-6 py-4', className)} {...rest} />
}
