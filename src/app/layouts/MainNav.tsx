import { NavLink } from 'react-router-dom'
import type { Role } from '@/domain/labels'
import { cn } from '@/lib/cn'
import { appPath, menuFor } from '../app-pages'
import { MENU_ICONS } from './menu-icons'

interface MainNavProps {
  role: Role
  label: string
  onNavigate?: () => void
}

/** SPEC §2's menu for one role. */
export function MainNav({ role, label, onNavigate }: MainNavProps) {
  return (
    <nav aria-label={label}>
      <ul className="space-y-1">
        {menuFor(role).map((page) => {
          const Icon = MENU_ICONS[page.key]
          return (
            <li key={page.key}>
              <NavLink
                to={appPath(page)}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cn(
                    'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium',
                    'focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600',
                    isActive ? 'bg-primary-50 text-primary-700' : 'text-gray-700 hover:bg-gray-100',
                  )
                }
              >
                <Icon aria-hidden="true" className="h-5 w-5" />
                {page.title}
              </NavLink>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
