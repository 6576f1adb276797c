/** A person's rights, as every screen that lists them reads them. */
import type { RightStatus } from '@/domain/labels'

/** A right as its holder, or whoever may read it (their manager, a reviewer), sees it listed. */
export interface HeldRight {
  id: string
  status: RightStatus
  role_name: string
  account_type: string
  granted_at: string | null
  last_used_at: string | null
  application: { name: string } | null
  campaign: { name: string; end_date: string } | null
}
