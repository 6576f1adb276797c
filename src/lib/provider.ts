/**
 * The company that operates Recertif for its customers: shown in the public footer, the contact page and the
 * legal pages. Replace with the operator's real details before going live.
 */
export const PROVIDER = {
  name: 'Recertif SAS',
  website: 'https://www.recertif.fr',
  websiteLabel: 'www.recertif.fr',
  email: 'contact@recertif.fr',
  phone: '+33 1 99 00 12 34',
  phoneHref: 'tel:+33199001234',
  address: ['12 rue de la Conformité', '75008 Paris', 'France'],
  supportHours: 'du lundi au vendredi, de 9h à 18h',
  dpoEmail: 'dpo@recertif.fr',
} as const
