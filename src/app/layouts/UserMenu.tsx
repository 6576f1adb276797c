import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { ChevronDown, LogOut, UserRound } from 'lucide-react'
import { Link } from 'react-router-dom'
import type { AppUser } from '@/auth/types'
import { fullNameOf, initialsOf } from '@/auth/roles'
import { roleLabel } from '@/domain/labels'
import { focusableWithin } from '@/components/ui/focusable'
import { Avatar } from './Avatar'

interface UserMenuProps {
  user: AppUser
  onLogout: () => void
}

const itemClass =
  'flex w-full items-center gap-2 px-4 py-2 text-left text-sm text-gray-700 hover:bg-gray-100 focus:bg-gray-100 focus:outline-none'

/** The identity shown in the header (SPEC §2) and the Profil and Déconnexion actions. */
export function UserMenu({ user, onLogout }: UserMenuProps) {
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const containerRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    if (menuRef.current) focusableWithin(menuRef.current)[0]?.focus()
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (event.target instanceof Node && !containerRef.current?.contains(event.target)) setOpen(false)
    }
    document.addEventListener('mousedown', closeOnOutsideClick)
    return () => document.removeEventListener('mousedown', closeOnOutsideClick)
  }, [open])

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!menuRef.current) return
    if (event.key === 'Escape') {
      setOpen(false)
      buttonRef.current?.focus()
      return
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    const items = focusableWithin(menuRef.current)
    const index = items.indexOf(document.activeElement as HTMLElement)
    const step = event.key === 'ArrowDown' ? 1 : -1
    items[(index + step + items.length) % items.length]?.focus()
  }

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-3 rounded-md p-1 text-left hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
      >
        <Avatar initials={initialsOf(user)} />
        <span className="hidden min-w-0 md:block">
          <span className="block truncate text-sm font-medium text-gray-900">{fullNameOf(user)}</span>
          <span className="block truncate text-xs text-gray-600">{user.email}</span>
        </span>
        <span className="hidden rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-primary-700 md:inline">
          {roleLabel(user.role)}
        </span>
        <ChevronDown aria-hidden="true" className="h-4 w-4 text-gray-500" />
        <span className="sr-only">Menu utilisateur</span>
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Menu utilisateur"
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-40 mt-2 w-64 rounded-md border border-gray-200 bg-white py-1 shadow-lg"
        >
          <div className="border-b border-gray-100 px-4 py-2 md:hidden">
            <p className="text-sm font-medium text-gray-900">{fullNameOf(user)}</p>
            <p className="text-xs text-gray-500">{user.email}</p>
            <p className="text-xs text-gray-500">{roleLabel(user.role)}</p>
          </div>
          <Link role="menuitem" to="/app/profile" className={itemClass} onClick={() => setOpen(false)}>
            <UserRound aria-hidden="true" className="h-4 w-4" />
            Profil
          </Link>
          <button role="menuitem" type="button" className={itemClass} onClick={onLogout}>
            <LogOut aria-hidden="true" className="h-4 w-4" />
            Déconnexion
          </button>
        </div>
      )}
    </div>
  )
}
