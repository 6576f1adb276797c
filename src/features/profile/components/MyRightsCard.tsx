import { HeldRightsTable } from '@/components/rights/HeldRightsTable'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { useMyRights } from '../api'

export function MyRightsCard({ userId }: { userId: string }) {
  const rights = useMyRights(userId)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Mes droits</CardTitle>
      </CardHeader>
      <CardContent className="p-0">
        {rights.isPending ? (
          <Spinner className="py-8" />
        ) : rights.error ? (
          <ErrorBox className="m-4" message={rights.error.message} />
        ) : (
          <HeldRightsTable caption="Mes droits" rights={rights.data} emptyMessage="Vous ne détenez aucun droit." />
        )}
      </CardContent>
    </Card>
  )
}
