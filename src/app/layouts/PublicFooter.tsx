import { ExternalLink, Mail, MapPin, Phone } from 'lucide-react'
import { Link } from 'react-router-dom'
import { PROVIDER } from '@/lib/provider'

const FOOTER_LINKS = [
  { to: '/', label: 'Accueil' },
  { to: '/login', label: 'Connexion' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact' },
  { to: '/legal', label: 'Mentions légales' },
  { to: '/privacy', label: 'Politique de confidentialité' },
]

export function PublicFooter() {
  return (
    <footer className="border-t border-gray-200 bg-gray-50 text-sm text-gray-600">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-3">
        <div>
          <p className="font-semibold text-gray-900">Recertif</p>
          <p className="mt-2">La revue des droits d'accès, simple et traçable, pour répondre aux exigences d'audit.</p>
        </div>
        <nav aria-label="Liens du pied de page">
          <p className="font-semibold text-gray-900">Navigation</p>
          <ul className="mt-2 space-y-1">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:text-primary-700 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <a
                href={PROVIDER.website}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1 hover:text-primary-700 hover:underline"
              >
                Site de {PROVIDER.name}
                <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
                <span className="sr-only">(nouvelle fenêtre)</span>
              </a>
            </li>
          </ul>
        </nav>
        <address className="not-italic">
          <p className="font-semibold text-gray-900">{PROVIDER.name}</p>
          <p className="mt-2 flex gap-2">
            <MapPin aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            <span>{PROVIDER.address.join(', ')}</span>
          </p>
          <p className="mt-1 flex gap-2">
            <Mail aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            <a href={`mailto:${PROVIDER.email}`} className="hover:text-primary-700 hover:underline">
              {PROVIDER.email}
            </a>
          </p>
          <p className="mt-1 flex gap-2">
            <Phone aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            <a href={PROVIDER.phoneHref} className="hover:text-primary-700 hover:underline">
              {PROVIDER.phone}
            </a>
          </p>
        </address>
      </div>
      <p className="border-t border-gray-200 py-4 text-center text-xs">
        © {new Date().getFullYear()} {PROVIDER.name}. Tous droits réservés.
      </p>
    </footer>
  )
}
