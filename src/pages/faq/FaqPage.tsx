import { useId, useState } from 'react'
import { ChevronDown } from 'lucide-react'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/page-title'
import { FAQ_CATEGORIES, FAQ_ENTRIES, type FaqEntry } from './faq-content'

type CategoryFilter = (typeof FAQ_CATEGORIES)[number]['id']

function FaqItem({ entry, open, onToggle }: { entry: FaqEntry; open: boolean; onToggle: () => void }) {
  const baseId = useId()
  const buttonId = `${baseId}-question`
  const panelId = `${baseId}-answer`
  return (
    <li className="rounded-lg border border-gray-200">
      <h2>
        <button
          id={buttonId}
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={onToggle}
          className="flex w-full items-center justify-between gap-4 px-4 py-3 text-left font-medium text-gray-900 hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
        >
          {entry.question}
          <ChevronDown aria-hidden="true" className={cn('h-5 w-5 shrink-0 transition-transform', open && 'rotate-180')} />
        </button>
      </h2>
      <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!open} className="space-y-2 px-4 pb-4 text-sm text-gray-700">
        {entry.answer.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </li>
  )
}

export function FaqPage() {
  usePageTitle('Questions fréquentes')
  const [category, setCategory] = useState<CategoryFilter>('all')
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(new Set())
  const entries = category === 'all' ? FAQ_ENTRIES : FAQ_ENTRIES.filter((entry) => entry.category === category)

  const toggle = (id: string) =>
    setOpenIds((current) => {
      const next = new Set(current)
      if (!next.delete(id)) next.add(id)
      return next
    })

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold text-gray-900">Questions fréquentes</h1>
      <p className="mt-2 text-gray-600">Les réponses aux questions les plus courantes sur la revue des droits d'accès.</p>
      <div role="group" aria-label="Catégories" className="mt-8 flex flex-wrap gap-2">
        {FAQ_CATEGORIES.map((option) => (
          <button
            key={option.id}
            type="button"
            aria-pressed={category === option.id}
            onClick={() => setCategory(option.id)}
            className={cn(
              'rounded-full border px-4 py-1.5 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600',
              category === option.id ? 'border-primary-600 bg-primary-600 text-white' : 'border-gray-300 text-gray-700 hover:bg-gray-50',
            )}
          >
            {option.label}
          </button>
        ))}
      </div>
      <ul className="mt-6 space-y-3">
        {entries.map((entry) => (
          <FaqItem key={entry.id} entry={entry} open={openIds.has(entry.id)} onToggle={() => toggle(entry.id)} />
        ))}
      </ul>
    </div>
  )
}
