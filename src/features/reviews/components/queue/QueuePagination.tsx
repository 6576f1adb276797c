import { Button } from '@/components/ui/Button'
import { countText } from '@/domain/plural'

interface QueuePaginationProps {
  page: number
  pageCount: number
  total: number
  onPage: (page: number) => void
}

export function QueuePagination({ page, pageCount, total, onPage }: QueuePaginationProps) {
  if (pageCount <= 1) return null
  return (
    <nav aria-label="Pagination des revues" className="flex items-center justify-between text-sm text-gray-700">
      <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Précédent
      </Button>
      <span>
        Page {page + 1} sur {pageCount} — {countText(total, 'droit', 'droits')}
      </span>
      <Button variant="outline" size="sm" disabled={page >= pageCount - 1} onClick={() => onPage(page + 1)}>
        Suivant
      </Button>
    </nav>
  )
}
