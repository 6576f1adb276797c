import { NavLink } from 'react-router-dom'
import { useAuth } from '@/auth/auth-context'
import { buttonClasses } from '@/components/ui/Button'
import { cn } from '@/lib/cn'
import { Logo } from './Logo'

// Below 400 px the logo and the sign-in button take the header's width: FAQ and Contact stay in the footer's navigation.
const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn('rounded-md px-3 py-2 text-sm font-medium hover:text-primary-700 max-[399px]:hidden', isActive ? 'text-primary-700' : 'text-gray-700')

export function PublicHeader() {
  const { status } = useAuth()
  const signedIn = status === 'authenticated'
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3 sm:gap-4">
        <Logo />
        <nav aria-label="Navigation publique" className="flex shrink-0 items-center gap-1">
          <NavLink to="/faq" className={linkClass}>
            FAQ
          </NavLink>
          <NavLink to="/contact" className={linkClass}>
            Contact
          </NavLink>
          <NavLink to={signedIn ? '/app/dashboard' : '/login'} className={buttonClasses({ size: 'sm', className: 'ml-1 whitespace-nowrap sm:ml-2' })}>
            {signedIn ? 'Mon espace' : 'Se connecter'}
          </NavLink>
        </nav>
      </div>
    </header>
  )
}
