import { Bell } from 'lucide-react'
import { Link } from 'react-router-dom'
import { useReviewQueueCount } from '@/features/reviews/api'
import { countText } from '@/lib/plural'

/** Leads to Mes revues, with the number of rights awaiting the caller's decision when there are any. */
export function NotificationsLink() {
  const count = useReviewQueueCount().data ?? 0
  const label = count > 0 ? `Notifications : mes revues, ${countText(count, 'droit', 'droits')} en attente de ma décision` : 'Notifications : mes revues'
  return (
    <Link
      to="/app/reviews"
      aria-label={label}
      className="relative rounded-md p-2 text-gray-600 hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
    >
      <Bell aria-hidden="true" className="h-5 w-5" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="notifications-count"
          className="absolute -right-0.5 -top-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] font-semibold leading-none text-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  )
}
