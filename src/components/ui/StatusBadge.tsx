import { rightStatusLabel } from '@/domain/labels'
import { rightStatusTone } from '@/lib/tones'
import { Badge } from './Badge'

/** A right's status in its French wording and SPEC §4 colour. */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={rightStatusTone(status)}>{rightStatusLabel(status)}</Badge>
}
