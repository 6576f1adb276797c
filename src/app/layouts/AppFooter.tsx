import { Link } from 'react-router-dom'

export function AppFooter() {
  return (
    <footer className="border-t border-gray-200 bg-white px-4 py-4 text-xs text-gray-500">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p>© {new Date().getFullYear()} Recertif — revue des droits d'accès. Chaque action est horodatée.</p>
        <nav aria-label="Liens utiles" className="flex gap-4">
          <Link to="/faq" className="hover:underline">
            FAQ
          </Link>
          <Link to="/contact" className="hover:underline">
            Contact
          </Link>
          <Link to="/legal" className="hover:underline">
            Mentions légales
          </Link>
          <Link to="/privacy" className="hover:underline">
            Confidentialité
          </Link>
        </nav>
      </div>
    </footer>
  )
}
