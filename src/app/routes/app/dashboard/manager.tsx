import { useState } from 'react'
import { PageHeader } from '@/components/ui/PageHeader'
import { Button } from '@/components/ui/Button'
import { appPage } from '@/app/app-pages'
import { ManagerDashboard } from '@/features/dashboards/components/ManagerDashboard'
import type { AwaitingRight } from '@/features/dashboards/model'
import { ValidationDialog } from '@/features/reviews/components/ValidationDialog'
import type { DecisionTarget } from '@/features/reviews/model'
import { TeamMembersCard } from '@/features/team/components/TeamMembersCard'
import { renderTeamMemberRights } from '../team-member-rights'

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

/**
 * The team's figures from the dashboards feature, its progress from the team feature; the decisions on its table go
 * through the reviews feature's dialog, whose mutation refreshes the figures, the queue and the bell together.
 */
export function ManagerDashboardRoute() {
  const [target, setTarget] = useState<DecisionTarget | null>(null)
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
      <ManagerDashboard
        renderActions={renderActions}
        teamProgress={<TeamMembersCard title="État d'avancement de l'équipe" renderMemberRights={renderTeamMemberRights} />}
      />
      <ValidationDialog target={target} onClose={() => setTarget(null)} />
    </>
  )
}
