import { appPage } from '@/app/app-pages'
import { AuditPage } from '@/features/audit/AuditPage'

export function AuditRoute() {
  return <AuditPage title={appPage('audit').title} />
}
