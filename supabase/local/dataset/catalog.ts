// The words the generated organisation is made of (French, as the product is).

export const firstNames = [
  'Camille', 'Léa', 'Manon', 'Chloé', 'Inès', 'Sarah', 'Emma', 'Louise', 'Jade', 'Alice', 'Lina', 'Juliette', 'Clara',
  'Anaïs', 'Margaux', 'Pauline', 'Mathilde', 'Élise', 'Nina', 'Zoé', 'Charlotte', 'Agathe', 'Océane', 'Amandine',
  'Lucas', 'Hugo', 'Louis', 'Gabriel', 'Arthur', 'Jules', 'Nathan', 'Léo', 'Raphaël', 'Tom', 'Théo', 'Maxime',
  'Antoine', 'Alexandre', 'Nicolas', 'Julien', 'Romain', 'Quentin', 'Guillaume', 'Baptiste', 'Benjamin', 'Clément',
  'Mehdi', 'Karim', 'Yanis', 'Samir', 'Fatima', 'Amina', 'Yasmine', 'Mamadou', 'Aïssata', 'Kevin', 'Sébastien',
  'Stéphanie', 'Nathalie', 'Isabelle', 'Sandrine', 'Christophe', 'Philippe', 'Olivier', 'Frédéric', 'Valérie',
] as const

export const lastNames = [
  'Martin', 'Bernard', 'Thomas', 'Petit', 'Robert', 'Richard', 'Durand', 'Dubois', 'Moreau', 'Laurent', 'Simon',
  'Michel', 'Lefebvre', 'Leroy', 'Roux', 'David', 'Bertrand', 'Morel', 'Fournier', 'Girard', 'Bonnet', 'Dupont',
  'Lambert', 'Fontaine', 'Rousseau', 'Vincent', 'Muller', 'Lefèvre', 'Faure', 'André', 'Mercier', 'Blanc', 'Guérin',
  'Boyer', 'Garnier', 'Chevalier', 'François', 'Legrand', 'Gauthier', 'Garcia', 'Perrin', 'Robin', 'Clément',
  'Morin', 'Nicolas', 'Henry', 'Roussel', 'Mathieu', 'Gautier', 'Masson', 'Marchand', 'Duval', 'Denis', 'Dumont',
  'Marie', 'Lemaire', 'Noël', 'Meyer', 'Dufour', 'Meunier', 'Brun', 'Blanchard', 'Giraud', 'Joly', 'Rivière',
  'Lucas', 'Brunet', 'Gaillard', 'Barbier', 'Arnaud', 'Martinez', 'Gérard', 'Roche', 'Renard', 'Schmitt', 'Roy',
  'Leroux', 'Colin', 'Vidal', 'Caron', 'Picard', 'Roger', 'Fabre', 'Aubert', 'Lemoine', 'Renaud', 'Dumas', 'Lacroix',
  'Olivier', 'Philippe', 'Bourgeois', 'Pierre', 'Benoît', 'Rey', 'Leclerc', 'Payet', 'Rolland', 'Leclercq',
  'Guillaume', 'Lecomte', 'Lopez', 'Jean', 'Dupuy', 'Guillot', 'Hubert', 'Berger', 'Carpentier', 'Sanchez',
] as const

export const departments = [
  'Finance', 'Ressources humaines', 'DSI', 'Ventes', 'Marketing', 'Achats', 'Juridique', 'Logistique', 'Production',
  'Service client', 'Recherche et développement', 'Qualité',
] as const

export const userPositions = [
  'Chargé·e d\'études', 'Analyste', 'Comptable', 'Contrôleur·se de gestion', 'Assistant·e', 'Technicien·ne support',
  'Chef·fe de projet', 'Développeur·se', 'Acheteur·se', 'Commercial·e', 'Juriste', 'Gestionnaire de paie',
  'Chargé·e de clientèle', 'Ingénieur·e', 'Consultant·e (externe)', 'Opérateur·rice logistique', 'Auditeur·rice interne',
] as const

/** The role descriptions of the review owners, the way supabase/seed.sql words them. */
export const ownerPositions = {
  bpo_metier: 'Responsable processus métier',
  bpo_groupe: 'Responsable processus groupe',
  ra: 'Responsable d\'applications',
  admin: 'Administrateur IAM',
  rssi: 'RSSI adjoint',
} as const

export const ownerDepartments = {
  bpo_metier: 'Opérations',
  bpo_groupe: 'Groupe',
  ra: 'DSI',
  admin: 'DSI',
  rssi: 'Sécurité',
} as const

/** The seed's five applications come first, so that people who know the demo find them again. */
export const demoApplications = [
  { name: 'SAP Finance', description: 'ERP comptable et financier' },
  { name: 'Salesforce CRM', description: 'Gestion de la relation client' },
  { name: 'Active Directory', description: 'Annuaire et comptes d\'accès au SI' },
  { name: 'ServiceNow', description: 'Gestion des demandes et incidents' },
  { name: 'GitLab', description: 'Forge logicielle' },
] as const

export const applicationProducts = [
  'SAP', 'Salesforce', 'Workday', 'ServiceNow', 'Oracle', 'Sage', 'Jira', 'Confluence', 'Qlik', 'Tableau', 'Coupa',
  'Concur', 'Kyriba', 'Cegid', 'Dynamics', 'Okta', 'SharePoint', 'Talend', 'Axway', 'Murex', 'Esker', 'Docuware',
  'Pega', 'Anaplan', 'Ivalua',
] as const

export const applicationDomains = [
  'Finance', 'RH', 'Achats', 'Ventes', 'Logistique', 'Production', 'Groupe', 'France', 'Europe', 'Support',
] as const

export const roleNames = [
  'Lecteur', 'Contributeur', 'Éditeur', 'Approbateur', 'Valideur', 'Administrateur fonctionnel', 'Gestionnaire',
  'Saisie', 'Consultation', 'Support N1', 'Support N2', 'Auditeur', 'Superviseur', 'Développeur', 'Comptable',
  'Responsable',
] as const

export const justifications = [
  'Nécessaire à la fonction', 'Saisie des écritures', 'Suivi des dossiers clients', 'Remplacement temporaire',
  'Projet de migration', 'Astreinte', 'Contrôle interne', 'Reporting mensuel',
] as const

export const approvalComments = [
  'Toujours nécessaire', 'Conforme à la matrice des habilitations', 'Utilisé chaque semaine', 'Validé avec l\'équipe',
] as const

export const refusalComments = [
  'Jamais utilisé', 'Plus nécessaire depuis le changement de poste', 'Droit trop large pour la fonction',
  'Prestation terminée', 'Doublon avec un autre rôle', 'Inutilisé depuis plusieurs mois',
] as const

export const treatmentComments = [
  'Accès supprimé dans l\'application', 'Droit maintenu après vérification avec le manager', 'Compte désactivé',
] as const
