import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { usePersonRights } from '../api'
import { HeldRightsTable } from './HeldRightsTable'

interface PersonRightsProps {
  userId: string
  caption: string
  emptyMessage: string
}

/** The rights one person holds, read through row-level security: one's own, or a team member's for their manager. */
export function PersonRights({ userId, caption, emptyMessage }: PersonRightsProps) {
  const rights = usePersonRights(userId)
  if (rights.isPending) return <Spinner className="py-8" />
  if (rights.error) return <ErrorBox className="m-4" message={rights.error.message} />
  return <HeldRightsTable caption={caption} rights={rights.data} emptyMessage={emptyMessage} />
}
