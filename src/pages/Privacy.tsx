import { usePageTitle } from '@/lib/page-title'
import { PROVIDER } from '@/lib/provider'
import { LegalSection } from './LegalSection'

export function PrivacyPage() {
  usePageTitle('Politique de confidentialité')
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold text-gray-900">Politique de confidentialité</h1>
      <p className="mt-4 text-gray-700">
        Cette politique décrit comment Recertif traite les données personnelles, conformément au Règlement général sur la
        protection des données (RGPD) et à la loi Informatique et Libertés.
      </p>
      <LegalSection title="Responsable du traitement">
        <p>
          L'organisation cliente qui utilise Recertif est responsable du traitement ; {PROVIDER.name} agit en tant que
          sous-traitant pour son compte.
        </p>
      </LegalSection>
      <LegalSection title="Données traitées">
        <ul className="list-disc space-y-1 pl-6">
          <li>Identité professionnelle : nom, prénom, adresse e-mail, poste, service, manager, rôle.</li>
          <li>Droits d'accès aux applications, leur date d'attribution et de dernière utilisation.</li>
          <li>Décisions de revue, commentaires et leur horodatage.</li>
          <li>Journal d'audit : actions réalisées, date et adresse IP.</li>
          <li>Messages envoyés par le formulaire de contact.</li>
        </ul>
      </LegalSection>
      <LegalSection title="Finalités et base légale">
        <p>
          Les données servent à revoir et à certifier les droits d'accès, et à prouver cette revue lors des audits. Ce
          traitement repose sur l'intérêt légitime de l'organisation et sur ses obligations de sécurité (article 32 du
          RGPD).
        </p>
      </LegalSection>
      <LegalSection title="Durée de conservation">
        <p>
          Les données de revue et le journal d'audit sont conservés le temps exigé par les obligations d'audit de
          l'organisation cliente, puis supprimés. Les messages de contact sont conservés au plus trois ans.
        </p>
      </LegalSection>
      <LegalSection title="Destinataires et sécurité">
        <p>
          Seules les personnes habilitées voient les données de leur périmètre ; ce cloisonnement est appliqué par la base
          de données. Les échanges sont chiffrés. Aucune donnée n'est vendue ni utilisée à des fins publicitaires.
        </p>
      </LegalSection>
      <LegalSection title="Cookies et stockage local">
        <p>
          Recertif n'utilise aucun cookie publicitaire ni de mesure d'audience. Le navigateur conserve uniquement le jeton
          de session nécessaire à la connexion, effacé à la déconnexion.
        </p>
      </LegalSection>
      <LegalSection title="Vos droits">
        <p>
          Vous disposez d'un droit d'accès, de rectification, d'effacement, de limitation et d'opposition. Écrivez à{' '}
          <a className="text-primary-700 underline" href={`mailto:${PROVIDER.dpoEmail}`}>
            {PROVIDER.dpoEmail}
          </a>
          . Vous pouvez aussi introduire une réclamation auprès de la CNIL (www.cnil.fr).
        </p>
      </LegalSection>
    </article>
  )
}
