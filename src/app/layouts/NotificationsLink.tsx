import { Bell } from 'lucide-react'
import { Link } from 'react-router-dom'

/**
 * Leads to Mes revues. The count of rights awaiting a decision comes with the reviews feature; until then the
 * bell carries no dot rather than a fake one.
 */
export function NotificationsLink() {
  return (
    <Link
      to="/app/reviews"
      aria-label="Notifications : mes revues"
      className="rounded-md p-2 text-gray-600 hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
    >
      <Bell aria-hidden="true" className="h-5 w-5" />
    </Link>
  )
}
