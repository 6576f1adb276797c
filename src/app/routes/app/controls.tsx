import { appPage } from '@/app/app-pages'
import { ControlRulesPage } from '@/features/control-rules/ControlRulesPage'

export function ControlsRoute() {
  return <ControlRulesPage title={appPage('controls').title} />
}
