import { parseConfig, type SyncConfig } from '../../../scripts/sync/config'
import { runSync, type RunResult } from '../../../scripts/sync/run'
import type { RestBackend } from '../../api/support/rest'
import { baseLdif, groupDn, groupLdif, personLdif, SUFFIX, type PersonEntry, type Slapd } from './slapd'

/**
 * A small organisation: the seed's demo accounts (so that the RA, the manager and the RSSI the connector acts as stay
 * active after a complete import), two people of the manager's team, a leaver whose account is disabled, and two
 * groups of one application.
 */
export const DEMO: PersonEntry[] = [
  { uid: 'rssi', givenName: 'Sophie', sn: 'Bernard', mail: 'rssi@example.com', title: 'RSSI', department: 'Sécurité' },
  { uid: 'admin', givenName: 'Claire', sn: 'Lefebvre', mail: 'admin@example.com', department: 'DSI' },
  { uid: 'ra', givenName: 'Nadia', sn: 'Moreau', mail: 'ra@example.com', department: 'DSI' },
  { uid: 'bpo', givenName: 'Pierre', sn: 'Durand', mail: 'bpo@example.com', department: 'Finance' },
  { uid: 'bpo-groupe', givenName: 'Hélène', sn: 'Petit', mail: 'bpo.groupe@example.com', department: 'Finance' },
  { uid: 'manager', givenName: 'Marc', sn: 'Dubois', mail: 'manager@example.com', department: 'Finance' },
  { uid: 'user', givenName: 'Julie', sn: 'Martin', mail: 'user@example.com', department: 'Finance', managerUid: 'manager' },
]

export const TEAM: PersonEntry[] = [
  { uid: 'alice', givenName: 'Alice', sn: 'Annuaire', mail: 'alice@ldap.example.org', title: 'Trésorière', department: 'Trésorerie', managerUid: 'manager' },
  { uid: 'bruno', givenName: 'Bruno', sn: 'Annuaire', mail: 'bruno@ldap.example.org', title: 'Comptable', department: 'Comptabilité', managerUid: 'manager' },
  { uid: 'carole', givenName: 'Carole', sn: 'Partie', mail: 'carole@ldap.example.org', department: 'Trésorerie', managerUid: 'manager', disabled: true },
]

export const APPLICATION = 'Trésorerie LDAP'
export const GROUPS = { payments: 'tresorerie-paiements', readers: 'tresorerie-lecteurs' }

export function organisationLdif(): string {
  return (
    baseLdif() +
    [...DEMO, ...TEAM].map(personLdif).join('') +
    groupLdif(GROUPS.payments, ['alice', 'carole']) +
    groupLdif(GROUPS.readers, ['alice', 'bruno'])
  )
}

export function connectorConfig(slapd: Slapd, backend: RestBackend, ldap: Partial<SyncConfig['ldap']> = {}): SyncConfig {
  return parseConfig({
    ldap: { url: slapd.ldapsUrl, caFile: slapd.caFile, bindDn: slapd.serviceDn, pageSize: 100, ...ldap },
    people: { baseDn: `ou=people,${SUFFIX}`, filter: '(objectClass=inetOrgPerson)', disabled: { userAccountControl: true } },
    applications: [
      {
        name: APPLICATION,
        groups: [
          { dn: groupDn(GROUPS.payments), role: 'Paiements' },
          { dn: groupDn(GROUPS.readers), role: 'Lecture' },
        ],
      },
    ],
    recertif: { url: backend.url, account: 'rssi@example.com' },
  })
}

export function connectorEnv(slapd: Slapd, backend: RestBackend, password = slapd.servicePassword): NodeJS.ProcessEnv {
  return { LDAP_BIND_PASSWORD: password, RECERTIF_SECRET_KEY: backend.server.config.serviceRoleKey }
}

/** One run of the connector in process, its lines kept. */
export async function sync(
  config: SyncConfig,
  env: NodeJS.ProcessEnv,
  options: { apply?: boolean; now?: Date } = {},
): Promise<RunResult & { lines: string[] }> {
  const lines: string[] = []
  const result = await runSync(config, { apply: options.apply ?? false, env, ...(options.now ? { now: options.now } : {}), log: (line) => lines.push(line) })
  return { ...result, lines }
}
