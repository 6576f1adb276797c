import {
  AppWindow,
  CalendarCheck,
  ClipboardCheck,
  FileSearch,
  LayoutDashboard,
  ListChecks,
  Mail,
  ShieldCheck,
  UserRound,
  Users,
  UsersRound,
  type LucideIcon,
} from 'lucide-react'
import type { AppPageKey } from '../app-pages'

export const MENU_ICONS: Record<AppPageKey, LucideIcon> = {
  dashboard: LayoutDashboard,
  reviews: ClipboardCheck,
  team: UsersRound,
  applications: AppWindow,
  campaigns: CalendarCheck,
  users: Users,
  controls: ListChecks,
  compliance: ShieldCheck,
  audit: FileSearch,
  notifications: Mail,
  profile: UserRound,
}
