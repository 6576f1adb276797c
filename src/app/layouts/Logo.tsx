import { ShieldCheck } from 'lucide-react'
import { Link } from 'react-router-dom'

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 rounded-md text-lg font-bold text-gray-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600">
      <ShieldCheck aria-hidden="true" className="h-7 w-7 text-primary-600" />
      Recertif
    </Link>
  )
}
