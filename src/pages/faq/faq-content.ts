export const FAQ_CATEGORIES = [
  { id: 'all', label: 'Toutes' },
  { id: 'general', label: 'Général' },
  { id: 'rights', label: "Droits d'accès" },
  { id: 'campaigns', label: 'Campagnes' },
  { id: 'audit', label: 'Audit et conformité' },
  { id: 'security', label: 'Sécurité' },
] as const

export type FaqCategory = Exclude<(typeof FAQ_CATEGORIES)[number]['id'], 'all'>

export interface FaqEntry {
  id: string
  category: FaqCategory
  question: string
  answer: string[]
}

export const FAQ_ENTRIES: FaqEntry[] = [
  {
    id: 'what',
    category: 'general',
    question: "Qu'est-ce que Recertif ?",
    answer: [
      "Recertif est une application de revue (recertification) des droits d'accès. Chaque personne confirme ou refuse les droits qu'elle détient sur les applications de l'organisation, puis ces décisions sont validées à plusieurs niveaux.",
    ],
  },
  {
    id: 'roles',
    category: 'general',
    question: 'Quels sont les rôles dans Recertif ?',
    answer: [
      "Utilisateur : revoit ses propres droits et confirme ou refuse chacun d'eux.",
      'Manager : valide les droits des membres de son équipe.',
      'BPO Métier et BPO Groupe : gèrent les applications et les droits de leur périmètre, et valident à leur tour.',
      "Responsable d'Application (RA) : gère les droits d'une application et traite les droits refusés.",
      'Administrateur : administre le système (utilisateurs, applications, campagnes, règles de contrôle).',
      "RSSI : supervise la sécurité et la conformité, et consulte le journal d'audit.",
    ],
  },
  {
    id: 'process',
    category: 'rights',
    question: 'Comment se déroule la revue de mes droits ?',
    answer: [
      "Vous indiquez pour chaque droit s'il vous est encore nécessaire. Votre manager valide ensuite, puis le BPO Métier, puis le BPO Groupe.",
      'Vous pouvez ajouter un commentaire à chaque décision. Chaque étape est horodatée.',
    ],
  },
  {
    id: 'refused',
    category: 'rights',
    question: 'Que se passe-t-il quand un droit est refusé ?',
    answer: [
      "Un droit refusé, à quelque niveau que ce soit, est transmis au Responsable d'Application, qui le traite : il le retire ou le marque « Traitement requis ».",
    ],
  },
  {
    id: 'inactive',
    category: 'rights',
    question: 'Pourquoi certains droits sont-ils signalés comme à risque ?',
    answer: [
      "Un droit jamais utilisé, ou inutilisé depuis plus de 90 jours, est signalé : il est recommandé de le refuser s'il n'est plus nécessaire.",
    ],
  },
  {
    id: 'campaign',
    category: 'campaigns',
    question: "Qu'est-ce qu'une campagne de revue ?",
    answer: [
      'Une campagne regroupe les droits à revoir sur une période donnée, pour une application ou pour toutes. Elle est créée en brouillon par un administrateur ou le RSSI, puis démarrée, terminée et enfin archivée.',
      "À la fin d'une campagne, les droits sans décision sont transmis au Responsable d'Application.",
    ],
  },
  {
    id: 'exports',
    category: 'campaigns',
    question: 'Comment sont utilisés les fichiers Excel de revue ?',
    answer: [
      'Trois fichiers peuvent être exportés : celui du manager (droits en attente), celui du BPO Métier (droits validés par le manager) et celui du BPO Groupe (droits validés par le BPO Métier). Ils se distribuent dans cet ordre.',
    ],
  },
  {
    id: 'traceability',
    category: 'audit',
    question: 'Mes actions sont-elles tracées ?',
    answer: [
      "Oui. Chaque action est horodatée et enregistrée dans un journal d'audit que personne ne peut modifier ni supprimer. Le RSSI le consulte pour répondre aux auditeurs.",
    ],
  },
  {
    id: 'standards',
    category: 'audit',
    question: 'Quelles normes Recertif aide-t-il à respecter ?',
    answer: [
      "ISO 27001 : revue régulière des droits d'accès (contrôle 5.18 de l'annexe A).",
      "RGPD : limitation de l'accès aux données personnelles aux seules personnes qui en ont besoin (article 32).",
      'SOX : contrôles généraux informatiques sur les accès aux applications financières.',
      'PCI DSS : revue des comptes et de leurs privilèges au moins tous les six mois (exigence 7).',
    ],
  },
  {
    id: 'protection',
    category: 'security',
    question: 'Comment mes données sont-elles protégées ?',
    answer: [
      "Les échanges sont chiffrés et chaque personne ne voit que les données de son périmètre : le contrôle est fait par la base de données elle-même, pas seulement par l'interface.",
    ],
  },
  {
    id: 'two-factor',
    category: 'security',
    question: 'La double authentification est-elle disponible ?',
    answer: [
      "Oui, elle est optionnelle : en vous connectant avec votre compte Google, vous bénéficiez de la validation en deux étapes si vous l'avez activée sur ce compte.",
    ],
  },
  {
    id: 'inactivity',
    category: 'security',
    question: 'Pourquoi suis-je déconnecté automatiquement ?',
    answer: [
      "Par sécurité, la session se ferme après 5 minutes sans activité. Si vous ne cochez pas « Se souvenir de moi », elle se ferme aussi avec l'onglet du navigateur.",
    ],
  },
]
