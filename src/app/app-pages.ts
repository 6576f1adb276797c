import { ROLES, type Role } from '@/domain/labels'

/** The pages of the authenticated area, in SPEC §2's menu order, with the roles whose menu shows them. */
export interface AppPage {
  key: AppPageKey
  /** Relative to /app. */
  path: string
  title: string
  roles: readonly Role[]
  /** Who may open it by address when that is wider than the menu (the database still decides what they see). */
  openTo?: readonly Role[]
  inMenu: boolean
}

export type AppPageKey =
  | 'dashboard'
  | 'reviews'
  | 'team'
  | 'applications'
  | 'campaigns'
  | 'users'
  | 'controls'
  | 'compliance'
  | 'audit'
  | 'notifications'
  | 'profile'

const REVIEWERS: readonly Role[] = ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra']
const APPLICATION_READERS: readonly Role[] = ['bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi']
const ADMINISTRATORS: readonly Role[] = ['admin', 'rssi']

export const APP_PAGES: readonly AppPage[] = [
  { key: 'dashboard', path: 'dashboard', title: 'Tableau de bord', roles: ROLES, inMenu: true },
  { key: 'reviews', path: 'reviews', title: 'Mes revues', roles: REVIEWERS, inMenu: true },
  { key: 'team', path: 'team', title: 'Équipe', roles: ['manager'], inMenu: true },
  { key: 'applications', path: 'applications', title: 'Applications', roles: APPLICATION_READERS, inMenu: true },
  // SPEC §6: every signed-in user sees the campaign list and the Excel export; the menu entry is admin and rssi's.
  { key: 'campaigns', path: 'campaigns', title: 'Campagnes', roles: ADMINISTRATORS, openTo: ROLES, inMenu: true },
  { key: 'users', path: 'users', title: 'Utilisateurs', roles: ADMINISTRATORS, inMenu: true },
  { key: 'controls', path: 'controls', title: 'Contrôles', roles: ADMINISTRATORS, inMenu: true },
  { key: 'compliance', path: 'compliance', title: 'Conformité', roles: ['rssi'], inMenu: true },
  { key: 'audit', path: 'audit', title: 'Audit', roles: ['rssi'], inMenu: true },
  // Not titled « Notifications »: the header's bell already carries that name.
  { key: 'notifications', path: 'notifications', title: "Envois d'e-mails", roles: ADMINISTRATORS, inMenu: true },
  { key: 'profile', path: 'profile', title: 'Profil', roles: ROLES, inMenu: false },
]

export function appPage(key: AppPageKey): AppPage {
  const page = APP_PAGES.find((candidate) => candidate.key === key)
  if (!page) throw new Error(`Unknown page ${key}`)
  return page
}

export const appPath = (page: AppPage) => `/app/${page.path}`

export function menuFor(role: Role): AppPage[] {
  return APP_PAGES.filter((page) => page.inMenu && page.roles.includes(role))
}

/** Courtesy only: the database decides what each role may read and change. */
export function canOpen(role: Role, page: AppPage): boolean {
  return (page.openTo ?? page.roles).includes(role)
}
