import { appPage } from '@/app/app-pages'
import { ControlsPage } from '@/features/controls/ControlsPage'

export function ControlsRoute() {
  return <ControlsPage title={appPage('controls').title} />
}
