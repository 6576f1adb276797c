import { parseConfig } from '../../scripts/sync/config'
import { readDirectory } from '../../scripts/sync/ldap-read'
import { baseLdif, groupDn, groupLdif, personLdif, startSlapd, SUFFIX } from './support/slapd'

/**
 * `npm run bench:ldap`: the connector's read of a large directory against a real slapd, timed against its budget (one
 * minute for 10,000 people and 100,000 memberships), as a measure rather than a test that could flake. Prints the
 * figures and exits 1 when over budget. PEOPLE and GROUPS in the environment change the size.
 */
const PEOPLE = Number(process.env.PEOPLE ?? 10_000)
const GROUPS = Number(process.env.GROUPS ?? 100)
const MEMBERS_PER_GROUP = Math.round((PEOPLE * 10) / GROUPS)
const BUDGET_MS = 60_000

function organisation(): string {
  const parts = [baseLdif()]
  for (let i = 0; i < PEOPLE; i++) {
    parts.push(personLdif({ uid: `p${i}`, givenName: `Prénom${i}`, sn: `Nom${i}`, mail: `p${i}@scale.example.org`, department: `Service ${i % 50}`, title: 'Agent', ...(i > 0 ? { managerUid: `p${Math.floor(i / 10)}` } : {}) }))
  }
  for (let g = 0; g < GROUPS; g++) {
    const members = Array.from({ length: MEMBERS_PER_GROUP }, (_, k) => `p${(g * 97 + k) % PEOPLE}`)
    parts.push(groupLdif(`g${g}`, [...new Set(members)]))
  }
  return parts.join('')
}

async function main(): Promise<number> {
  const loading = Date.now()
  const slapd = await startSlapd(organisation())
  console.info(`slapd loaded with ${PEOPLE} people and ${GROUPS} groups of ${MEMBERS_PER_GROUP} members in ${((Date.now() - loading) / 1000).toFixed(1)} s`)
  try {
    const config = parseConfig({
      ldap: { url: slapd.ldapsUrl, caFile: slapd.caFile, bindDn: slapd.serviceDn, pageSize: 500 },
      people: { baseDn: `ou=people,${SUFFIX}`, filter: '(objectClass=inetOrgPerson)', disabled: { userAccountControl: true } },
      applications: Array.from({ length: GROUPS }, (_, g) => ({ name: `Application ${g}`, groups: [{ dn: groupDn(`g${g}`), role: 'Utilisateur' }] })),
      recertif: { url: 'https://recertif.invalid', account: 'rssi@example.com' },
    })
    const started = Date.now()
    const read = await readDirectory(config, slapd.servicePassword)
    const elapsed = Date.now() - started
    const verdict = elapsed <= BUDGET_MS ? 'within' : 'OVER'
    console.info(`read ${read.people.length} people and ${read.memberships.length} memberships in ${(elapsed / 1000).toFixed(1)} s (${verdict} the ${BUDGET_MS / 1000} s budget)`)
    return elapsed <= BUDGET_MS && read.people.length === PEOPLE ? 0 : 1
  } finally {
    await slapd.stop()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
