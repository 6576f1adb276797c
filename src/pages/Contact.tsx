import { Clock, Mail, MapPin, Phone } from 'lucide-react'
import { ContactForm } from '@/features/contact/ContactForm'
import { usePageTitle } from '@/lib/page-title'
import { PROVIDER } from '@/lib/provider'

export function ContactPage() {
  usePageTitle('Contact')
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-3xl font-bold text-gray-900">Contactez-nous</h1>
      <p className="mt-2 text-gray-600">Une question sur Recertif ? Écrivez-nous : nous vous répondons sous 24 heures.</p>
      <div className="mt-10 grid gap-10 md:grid-cols-3">
        <address className="space-y-4 not-italic text-sm text-gray-700">
          <p className="font-semibold text-gray-900">{PROVIDER.name}</p>
          <p className="flex gap-2">
            <MapPin aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
            <span>
              {PROVIDER.address.map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </span>
          </p>
          <p className="flex gap-2">
            <Mail aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
            <a href={`mailto:${PROVIDER.email}`} className="hover:underline">
              {PROVIDER.email}
            </a>
          </p>
          <p className="flex gap-2">
            <Phone aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
            <a href={PROVIDER.phoneHref} className="hover:underline">
              {PROVIDER.phone}
            </a>
          </p>
          <p className="flex gap-2">
            <Clock aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
            <span>Support téléphonique {PROVIDER.supportHours}.</span>
          </p>
        </address>
        <div className="md:col-span-2">
          <ContactForm />
        </div>
      </div>
    </div>
  )
}
