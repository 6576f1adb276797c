import { Link } from 'react-router-dom'
import { usePageTitle } from '@/lib/page-title'
import { PROVIDER } from '@/lib/provider'
import { LegalSection } from './LegalSection'

export function LegalPage() {
  usePageTitle('Mentions légales')
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold text-gray-900">Mentions légales</h1>
      <LegalSection title="Éditeur">
        <p>
          Recertif est édité par {PROVIDER.name}, {PROVIDER.address.join(', ')}.
        </p>
        <p>
          Contact&nbsp;: <a className="text-primary-700 underline" href={`mailto:${PROVIDER.email}`}>{PROVIDER.email}</a> —{' '}
          {PROVIDER.phone}.
        </p>
        <p>Directeur de la publication&nbsp;: le représentant légal de {PROVIDER.name}.</p>
      </LegalSection>
      <LegalSection title="Hébergement">
        <p>
          L'application est servie par Netlify, Inc. (San Francisco, États-Unis). Les données sont hébergées par Supabase,
          Inc. (San Francisco, États-Unis), dans la région d'hébergement choisie par l'organisation cliente.
        </p>
      </LegalSection>
      <LegalSection title="Propriété intellectuelle">
        <p>
          Les contenus, marques et éléments graphiques de Recertif sont la propriété de {PROVIDER.name}. Toute
          reproduction sans autorisation écrite préalable est interdite.
        </p>
      </LegalSection>
      <LegalSection title="Responsabilité">
        <p>
          Les décisions de revue saisies dans Recertif relèvent de l'organisation cliente et des personnes qui les
          prennent. {PROVIDER.name} s'engage à assurer la disponibilité et l'intégrité du service.
        </p>
      </LegalSection>
      <LegalSection title="Données personnelles">
        <p>
          Le traitement des données personnelles est décrit dans notre{' '}
          <Link className="text-primary-700 underline" to="/privacy">
            politique de confidentialité
          </Link>
          .
        </p>
      </LegalSection>
    </article>
  )
}
