import { LogOut, UserRound } from 'lucide-react'
import { Link } from 'react-router-dom'
import type { Role } from '@/domain/labels'
import { MainNav } from './MainNav'

interface MobileMenuProps {
  id: string
  role: Role
  onClose: () => void
  onLogout: () => void
}

const itemClass = 'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-100'

export function MobileMenu({ id, role, onClose, onLogout }: MobileMenuProps) {
  return (
    <div id={id} className="border-b border-gray-200 bg-white px-4 py-3 lg:hidden">
      <MainNav role={role} label="Menu mobile" onNavigate={onClose} />
      {/* A landmark of its own: outside one, a screen reader's landmark list skips these two (axe's « region »). */}
      <nav aria-label="Compte" className="mt-3 border-t border-gray-100 pt-3">
        <Link to="/app/profile" onClick={onClose} className={itemClass}>
          <UserRound aria-hidden="true" className="h-5 w-5" />
          Profil
        </Link>
        <button type="button" onClick={onLogout} className={itemClass}>
          <LogOut aria-hidden="true" className="h-5 w-5" />
          Déconnexion
        </button>
      </nav>
    </div>
  )
}
