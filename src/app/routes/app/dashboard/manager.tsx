import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { PageHeader } from '@/components/ui/PageHeader'
import { Button } from '@/components/ui/Button'
import { appPage } from '@/app/app-pages'
import { ValidationDialog } from '@/features/reviews/components/ValidationDialog'
import type { DecisionTarget } from '@/features/reviews/model'
import { teamKeys, useLiveTeam } from '@/features/team/api'
import { ManagerDashboard } from '@/features/team/components/ManagerDashboard'
import type { AwaitingRight } from '@/features/team/model'

function targetOf(right: AwaitingRight): DecisionTarget {
  return {
    rightId: right.right_id,
    applicationName: right.application_name,
    roleName: right.role_name,
    holderName: right.holder_name,
    approveStatus: right.approve_status,
    refuseStatus: right.refuse_status,
  }
}

/** The team's figures from the team feature; the decisions on its table go through the reviews feature's dialog. */
export function ManagerDashboardRoute() {
  useLiveTeam()
  const queryClient = useQueryClient()
  const [target, setTarget] = useState<DecisionTarget | null>(null)
  const close = () => {
    setTarget(null)
    void queryClient.invalidateQueries({ queryKey: teamKeys.all })
  }
  const renderActions = (right: AwaitingRight) => {
    const what = `${right.application_name} — ${right.role_name} (${right.holder_name})`
    return (
      <div className="flex justify-end gap-2">
        {right.refuse_status && (
          <Button size="sm" variant="danger" aria-label={`Refuser ${what}`} onClick={() => setTarget(targetOf(right))}>
            Refuser
          </Button>
        )}
        {right.approve_status && (
          <Button size="sm" variant="success" aria-label={`Valider ${what}`} onClick={() => setTarget(targetOf(right))}>
            Valider
          </Button>
        )}
      </div>
    )
  }
  return (
    <>
      <PageHeader title={appPage('dashboard').title} />
      <ManagerDashboard renderActions={renderActions} />
      <ValidationDialog target={target} onClose={close} />
    </>
  )
}
