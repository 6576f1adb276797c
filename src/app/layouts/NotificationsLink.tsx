import { Bell } from 'lucide-react'
import { Link } from 'react-router-dom'
import { useAdminAlerts } from '@/features/dashboards/api'
import { useOutbox } from '@/features/notifications/api'
import { useReviewQueueCount } from '@/features/reviews/api'
import { countText } from '@/domain/plural'

/** The header's bell: where it leads, and the count of what waits there when anything does. */
function BellLink({ to, count, label }: { to: string; count: number; label: string }) {
  return (
    <Link
      to={to}
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

/**
 * Leads to Mes revues, with the number of rights awaiting the caller's decision when there are any: their own queue and
 * the rights confided to them (delegated, or as a fallback reviewer), everything Mes revues lists for them to decide.
 */
export function NotificationsLink() {
  const count = useReviewQueueCount().data ?? 0
  const label = count > 0 ? `Notifications : mes revues, ${countText(count, 'droit', 'droits')} en attente de ma décision` : 'Notifications : mes revues'
  return <BellLink to="/app/reviews" count={count} label={label} />
}

/**
 * Admin and rssi take no review decision; what waits for them (SPEC §2 puts a bell in every header) is the campaigns
 * still active past their end date, for an administrator to complete, and the e-mails the outbox gave up sending.
 * Leads to the first of those that waits: Campagnes, else Envois d'e-mails.
 */
export function AdminNotificationsLink() {
  const overdue = useAdminAlerts().data?.overdue_campaigns ?? 0
  const failed = useOutbox().data?.failed ?? 0
  const waiting = [
    overdue > 0 && countText(overdue, 'campagne échue encore active', 'campagnes échues encore actives'),
    failed > 0 && countText(failed, 'e-mail en échec', 'e-mails en échec'),
  ].filter(Boolean)
  const label = waiting.length > 0 ? `Notifications : ${waiting.join(', ')}` : 'Notifications : rien en attente'
  const to = overdue === 0 && failed > 0 ? '/app/notifications' : '/app/campaigns'
  return <BellLink to={to} count={overdue + failed} label={label} />
}
