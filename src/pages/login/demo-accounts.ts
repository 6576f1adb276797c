/** The demo block of the login page (SPEC §2): one shared password, one account per role. */
export const DEMO_PASSWORD = 'Demo1234!'

/**
 * The TOTP secrets of the demo accounts that need a second factor, the ones supabase/seed.sql enrols (and `npm start`
 * prints): public, for the demo only, so that anyone can sign in with an authenticator app or the code shown here.
 */
export const DEMO_TOTP_SECRETS = {
  'admin@example.com': 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  'rssi@example.com': 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BA',
} as const

export const DEMO_ACCOUNTS = [
  { email: 'user@example.com', label: 'Utilisateur' },
  { email: 'manager@example.com', label: 'Manager' },
  { email: 'bpo@example.com', label: 'BPO Métier' },
  { email: 'bpo.groupe@example.com', label: 'BPO Groupe' },
  { email: 'ra@example.com', label: "Responsable d'Application" },
  { email: 'admin@example.com', label: 'Administrateur' },
  { email: 'rssi@example.com', label: 'RSSI' },
] as const
