import type { ReactNode } from 'react'
import { usePageTitle } from '@/lib/page-title'

interface PageHeaderProps {
  title: string
  description?: string
  actions?: ReactNode
}

/** A page's heading, which also names the browser tab. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  usePageTitle(title)
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-gray-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  )
}
