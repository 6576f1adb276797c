/** The demo block of the login page (SPEC §2): one shared password, one account per role. */
export const DEMO_PASSWORD = 'Demo1234!'

export const DEMO_ACCOUNTS = [
  { email: 'user@example.com', label: 'Utilisateur' },
  { email: 'manager@example.com', label: 'Manager' },
  { email: 'bpo@example.com', label: 'BPO Métier' },
  { email: 'bpo.groupe@example.com', label: 'BPO Groupe' },
  { email: 'ra@example.com', label: "Responsable d'Application" },
  { email: 'admin@example.com', label: 'Administrateur' },
  { email: 'rssi@example.com', label: 'RSSI' },
] as const
