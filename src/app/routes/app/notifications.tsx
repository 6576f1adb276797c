import { appPage } from '@/app/app-pages'
import { NotificationsPage } from '@/features/notifications/NotificationsPage'

export function NotificationsRoute() {
  return <NotificationsPage title={appPage('notifications').title} />
}
