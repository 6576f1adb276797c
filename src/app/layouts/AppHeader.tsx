import { Menu, X } from 'lucide-react'
import { isAdministrator } from '@/auth/roles'
import type { AppUser } from '@/auth/types'
import { appPage, canOpen } from '../app-pages'
import { Logo } from './Logo'
import { AdminNotificationsLink, NotificationsLink } from './NotificationsLink'
import { UserMenu } from './UserMenu'

interface AppHeaderProps {
  user: AppUser
  mobileMenuOpen: boolean
  mobileMenuId: string
  onToggleMobileMenu: () => void
  onLogout: () => void
}

export function AppHeader({ user, mobileMenuOpen, mobileMenuId, onToggleMobileMenu, onLogout }: AppHeaderProps) {
  return (
    <header className="sticky top-0 z-30 border-b border-gray-200 bg-white">
      <div className="flex items-center justify-between gap-4 px-4 py-2">
        <div className="flex items-center gap-2">
          <button
            type="button"
            onClick={onToggleMobileMenu}
            aria-expanded={mobileMenuOpen}
            aria-controls={mobileMenuId}
            className="rounded-md p-2 text-gray-600 hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600 lg:hidden"
          >
            {mobileMenuOpen ? <X aria-hidden="true" className="h-5 w-5" /> : <Menu aria-hidden="true" className="h-5 w-5" />}
            <span className="sr-only">{mobileMenuOpen ? 'Fermer le menu' : 'Ouvrir le menu'}</span>
          </button>
          <Logo to="/app/dashboard" />
        </div>
        <div className="flex items-center gap-2">
          {/* Reviewers are told about their queue; admin and rssi, who decide nothing, about campaigns left running. */}
          {canOpen(user.role, appPage('reviews')) ? <NotificationsLink /> : isAdministrator(user) && <AdminNotificationsLink />}
          <UserMenu user={user} onLogout={onLogout} />
        </div>
      </div>
    </header>
  )
}
