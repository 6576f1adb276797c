import { planRemovals } from '../../scripts/sync/apply-removals'
import { parseConfig } from '../../scripts/sync/config'
import { normalDn, type DirectoryRead } from '../../scripts/sync/ldap-read'
import { syncPayload } from '../../scripts/sync/recertif-api'

// The directory connector's pure parts: its configuration's checks, what it sends Recertif, and which memberships a
// removal means.
const CONFIG = {
  ldap: { url: 'ldaps://ad.example.org:636', bindDn: 'CN=svc,DC=example,DC=org' },
  people: { baseDn: 'OU=People,DC=example,DC=org' },
  applications: [{ name: 'SAP Finance', groups: [{ dn: 'CN=SAP-Admin,OU=Groups,DC=example,DC=org', role: 'Administrateur' }] }],
  recertif: { url: 'https://project.supabase.co', account: 'rssi@example.org' },
}

const read: DirectoryRead = {
  people: [
    { dn: 'CN=Julie,OU=People,DC=example,DC=org', email: 'julie@example.org', first_name: 'Julie', last_name: 'Martin', position: null, department: 'Finance', manager_email: null, disabled: false },
    { dn: 'CN=Paul,OU=People,DC=example,DC=org', email: 'paul@example.org', first_name: 'Paul', last_name: 'Girard', position: null, department: null, manager_email: null, disabled: true },
  ],
  memberships: [
    { application: 'SAP Finance', role: 'Administrateur', groupDn: 'CN=SAP-Admin,OU=Groups,DC=example,DC=org', memberDn: 'CN=Julie,OU=People,DC=example,DC=org', email: 'julie@example.org', disabled: false },
    { application: 'SAP Finance', role: 'Administrateur', groupDn: 'CN=SAP-Admin,OU=Groups,DC=example,DC=org', memberDn: 'CN=Paul,OU=People,DC=example,DC=org', email: 'paul@example.org', disabled: true },
  ],
  warnings: [],
}

describe('the connector’s configuration', () => {
  it('fills the defaults of Active Directory and keeps secrets out of the file', () => {
    const config = parseConfig(CONFIG)
    expect(config.ldap).toMatchObject({ startTls: false, bindPasswordEnv: 'LDAP_BIND_PASSWORD', pageSize: 500 })
    expect(config.people.attributes).toMatchObject({ email: 'mail', manager: 'manager', department: 'department' })
    expect(config.recertif.secretKeyEnv).toBe('RECERTIF_SECRET_KEY')
  })

  it('says in French where a setting is wrong', () => {
    expect(() => parseConfig({ ...CONFIG, ldap: { ...CONFIG.ldap, url: 'http://ad' }, recertif: { ...CONFIG.recertif, account: 'rssi' } })).toThrow(
      /ldap\.url : ldap:\/\/hôte:port ou ldaps:\/\/hôte:port[\s\S]*recertif\.account/,
    )
  })
})

describe('what a run sends Recertif', () => {
  it('leaves disabled people out of the directory and keeps their memberships flagged', () => {
    const payload = syncPayload(read, 'rssi@example.org')
    expect(payload.directory.map((row) => row.email)).toEqual(['julie@example.org'])
    expect([...payload.byApplication.get('SAP Finance')!.values()]).toEqual([
      { email: 'julie@example.org', role_name: 'Administrateur', disabled: false },
      { email: 'paul@example.org', role_name: 'Administrateur', disabled: true },
    ])
  })
})

describe('which memberships a removal means', () => {
  const removal = { id: 'rm-1', application_name: 'sap finance', holder_email: 'JULIE@example.org', role_name: 'administrateur' }

  it('the groups that give that role to that person, whatever the case', () => {
    const { planned, outcomes } = planRemovals(parseConfig(CONFIG), read, [removal])
    expect(outcomes).toEqual([])
    expect(planned.map((step) => normalDn(step.memberDn))).toEqual(['cn=julie,ou=people,dc=example,dc=org'])
  })

  it('already done when no group holds it any more, failed when no group gives the role', () => {
    const gone = planRemovals(parseConfig(CONFIG), { ...read, memberships: [] }, [removal])
    expect(gone.outcomes).toEqual([{ id: 'rm-1', outcome: 'already_absent', message: 'Déjà absent des groupes.' }])
    const unmapped = planRemovals(parseConfig(CONFIG), read, [{ ...removal, role_name: 'Lecteur' }])
    expect(unmapped.outcomes[0]).toMatchObject({ outcome: 'failed', message: expect.stringContaining('Aucun groupe configuré') })
    expect(unmapped.planned).toEqual([])
  })
})
