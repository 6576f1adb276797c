import { ArrowRight, CalendarCheck, ClipboardCheck, FileSearch, Layers, ShieldCheck, Wrench } from 'lucide-react'
import { Link } from 'react-router-dom'
import { useAuth } from '@/auth/auth-context'
import { buttonClasses } from '@/components/ui/Button'
import { usePageTitle } from '@/lib/page-title'

const FEATURES = [
  {
    icon: ClipboardCheck,
    title: 'Chacun revoit ses droits',
    text: "Chaque personne confirme ou refuse les droits d'accès qu'elle détient sur les applications.",
  },
  {
    icon: Layers,
    title: 'Validation à plusieurs niveaux',
    text: 'Le manager, le BPO Métier puis le BPO Groupe valident tour à tour les droits de leur périmètre.',
  },
  {
    icon: Wrench,
    title: 'Traitement des refus',
    text: "Les droits refusés sont transmis au Responsable d'Application, qui les traite.",
  },
  {
    icon: CalendarCheck,
    title: 'Campagnes de revue',
    text: 'Les administrateurs lancent, suivent et clôturent les campagnes, et exportent les fichiers de revue.',
  },
  {
    icon: ShieldCheck,
    title: 'Conformité',
    text: 'Le RSSI suit les taux de conformité, les comptes à risque et les règles de contrôle.',
  },
  {
    icon: FileSearch,
    title: 'Traçabilité complète',
    text: "Chaque action est horodatée et consignée dans un journal d'audit inaltérable.",
  },
]

export function HomePage() {
  usePageTitle('Accueil')
  const { status } = useAuth()
  const target = status === 'unauthenticated' ? '/login' : '/app/dashboard'

  return (
    <>
      <section className="bg-gradient-to-b from-primary-50 to-white">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center">
          <h1 className="text-4xl font-bold tracking-tight text-gray-900 md:text-5xl">
            La revue des droits d'accès, simple et traçable
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-gray-600">
            Recertif organise la recertification des droits d'accès de votre organisation&nbsp;: chacun revoit ses droits,
            chaque niveau valide, et chaque décision est conservée pour vos audits ISO 27001, RGPD, SOX et PCI DSS.
          </p>
          <Link to={target} className={buttonClasses({ size: 'lg', className: 'mt-10' })}>
            Accéder à mon espace
            <ArrowRight aria-hidden="true" className="h-5 w-5" />
          </Link>
        </div>
      </section>
      <section aria-labelledby="fonctionnalites" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="fonctionnalites" className="text-center text-2xl font-bold text-gray-900">
          Tout le cycle de revue, au même endroit
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-lg border border-gray-200 p-6">
              <Icon aria-hidden="true" className="h-8 w-8 text-primary-600" />
              <h3 className="mt-4 font-semibold text-gray-900">{title}</h3>
              <p className="mt-2 text-sm text-gray-600">{text}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}
