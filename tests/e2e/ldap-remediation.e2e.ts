import { readFile } from 'node:fs/promises'
import { Client } from 'ldapts'
import type { Browser } from 'playwright-core'
import { inject } from 'vitest'
import * as XLSX from 'xlsx'
import { DEV_SECRET_KEY } from '../../supabase/local/keys'
import { parseConfig, type SyncConfig } from '../../scripts/sync/config'
import { runSync } from '../../scripts/sync/run'
import { baseLdif, groupDn, groupLdif, personDn, personLdif, startSlapd, SUFFIX, type PersonEntry, type Slapd } from '../ldap/support/slapd'
import { serviceClient, signedInClient, type ApiClient } from './support/api'
import { launchBrowser, signedInSessions } from './support/browser'
import { createJourneyApplication, createJourneyCampaign, rpc, setCampaignStatus } from './support/journey-data'

// A refusal carried out in the directory: Julie Martin holds two roles of an application through two groups of a real
// OpenLDAP; Marc refuses both in a campaign; the RA asks the connector to remove one and a ticket for the other. The
// connector removes the first from its group, its next run sees it gone (« constatée »); the ticket is never done, and a
// run past the delay finds it still there (« non constatée »): the RSSI's tile lists it, and the campaign's evidence
// pack says both. The directory holds every active person of the backend, so that its complete import changes nobody.
const RUN = Date.now().toString(36)
const APPLICATION = `Annuaire ${RUN}`
const ROLES = { connector: `Paiements ${RUN}`, ticket: `Lecture ${RUN}` }
const GROUPS = { connector: `paiements-${RUN}`, ticket: `lecture-${RUN}` }
const CAMPAIGN = `Revue annuaire ${RUN}`

let browser: Browser
const { as, closeAll } = signedInSessions(() => browser)
let slapd: Slapd
let admin: ApiClient
let config: SyncConfig
let julieId: string

interface Person {
  id: string
  email: string
  first_name: string
  last_name: string
  position: string | null
  department: string | null
  manager_id: string | null
}

async function activePeople(): Promise<Person[]> {
  const people: Person[] = []
  for (let from = 0; ; from += 1000) {
    const { data, error } = await serviceClient()
      .from('users')
      .select('id, email, first_name, last_name, position, department, manager_id')
      .eq('active', true)
      .order('id')
      .range(from, from + 999)
    if (error) throw error
    people.push(...data)
    if (data.length < 1000) return people
  }
}

function directoryOf(people: Person[]): string {
  const active = new Set(people.map((p) => p.id))
  const entries = people.map((p): PersonEntry => ({
    uid: p.id,
    givenName: p.first_name,
    sn: p.last_name,
    mail: p.email,
    ...(p.position ? { title: p.position } : {}),
    ...(p.department ? { department: p.department } : {}),
    ...(p.manager_id && active.has(p.manager_id) ? { managerUid: p.manager_id } : {}),
  }))
  julieId = people.find((p) => p.email === 'user@example.com')!.id
  return baseLdif() + entries.map(personLdif).join('') + groupLdif(GROUPS.connector, [julieId]) + groupLdif(GROUPS.ticket, [julieId])
}

const sync = (options: { apply?: boolean; now?: Date } = {}) =>
  runSync(config, { apply: options.apply ?? false, env: { LDAP_BIND_PASSWORD: slapd.servicePassword, RECERTIF_SECRET_KEY: DEV_SECRET_KEY }, log: () => {}, ...options })

/** Whether Julie is a member of the group, as the directory's administrator reads it. */
async function julieInGroup(group: string): Promise<boolean> {
  const client = new Client({ url: slapd.ldapUrl })
  try {
    await client.bind(slapd.adminDn, slapd.adminPassword)
    const { searchEntries } = await client.search(groupDn(group), { scope: 'base', attributes: ['member'] })
    return [searchEntries[0]?.member ?? []].flat().map(String).includes(personDn(julieId))
  } finally {
    await client.unbind()
  }
}

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  await createJourneyApplication(admin, APPLICATION, 'Application du parcours annuaire')
  slapd = await startSlapd(directoryOf(await activePeople()))
  config = parseConfig({
    ldap: { url: slapd.ldapsUrl, caFile: slapd.caFile, bindDn: slapd.serviceDn },
    people: { baseDn: `ou=people,${SUFFIX}`, filter: '(objectClass=inetOrgPerson)', disabled: { userAccountControl: true } },
    applications: [{ name: APPLICATION, groups: [{ dn: groupDn(GROUPS.connector), role: ROLES.connector }, { dn: groupDn(GROUPS.ticket), role: ROLES.ticket }] }],
    recertif: { url: inject('backendUrl'), account: 'rssi@example.com' },
  })
})
afterAll(async () => {
  await closeAll()
  await browser?.close()
  await slapd?.stop()
})

it('an RA asks for removals, the connector carries one out and sees it gone, the other is reported; the RSSI and the evidence pack show them', async () => {
  const first = await sync()
  expect(first.report.directory).toMatchObject({ leaving: 0 })
  expect(first.report.applications[0]).toMatchObject({ created: 2 })

  const { data: app } = await admin.from('applications').select('id').eq('name', APPLICATION).single()
  const campaign = await createJourneyCampaign(admin, CAMPAIGN, app!.id)
  await setCampaignStatus(admin, campaign, 'active')
  const { data: rights } = await admin.from('user_rights').select('id, role_name').eq('campaign_id', campaign)
  const marc = await signedInClient('manager@example.com')
  for (const right of rights!) await rpc(marc, 'validate_user_right', { right_id: right.id, new_status: 'refused_manager' })
  await setCampaignStatus(admin, campaign, 'completed')

  const ra = await as('ra@example.com')
  await ra.goto('/app/reviews')
  await ra.getByRole('heading', { name: 'Mes revues' }).waitFor()
  for (const [role, how] of [[ROLES.connector, 'connector'], [ROLES.ticket, 'ticket']] as const) {
    await ra.getByRole('button', { name: `Demander la suppression ${APPLICATION} — ${role} (Julie Martin)`, exact: true }).click()
    const dialog = ra.getByRole('dialog', { name: 'Demander la suppression' })
    if (how === 'connector') await dialog.getByRole('radio', { name: 'Par le connecteur d’annuaire' }).check()
    else await dialog.getByRole('textbox', { name: 'Référence du ticket' }).fill(`CHG-${RUN}`)
    await dialog.getByRole('button', { name: 'Demander la suppression', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
  }

  expect((await sync()).wouldRemove).toEqual([expect.objectContaining({ email: 'user@example.com', groupDn: groupDn(GROUPS.connector) })])
  expect(await julieInGroup(GROUPS.connector)).toBe(true)
  expect((await sync({ apply: true })).removals).toEqual([expect.objectContaining({ outcome: 'removed' })])
  expect(await julieInGroup(GROUPS.connector)).toBe(false)
  expect(await julieInGroup(GROUPS.ticket)).toBe(true)
  expect((await sync({ apply: true })).report.applications[0]).toMatchObject({ verified: 1, unverified: 0 })
  expect((await sync({ apply: true, now: new Date(Date.now() + 31 * 86_400_000) })).report.applications[0]).toMatchObject({ unverified: 1 })

  const rssi = await as('rssi@example.com')
  await rssi.goto('/app/dashboard')
  await rssi.getByRole('button', { name: /^Suppressions non constatées \d+, voir la liste$/ }).click()
  const list = rssi.getByRole('dialog', { name: 'Suppressions non constatées' })
  const row = list.getByRole('row').filter({ hasText: APPLICATION })
  await row.getByText(ROLES.ticket).waitFor()
  await row.getByText(`Ticket CHG-${RUN}`).waitFor()
  await rssi.keyboard.press('Escape')

  await rssi.goto('/app/campaigns')
  const campaignRow = rssi.getByRole('row').filter({ hasText: CAMPAIGN })
  const [download] = await Promise.all([
    rssi.waitForEvent('download'),
    campaignRow.getByRole('button', { name: `Rapport de campagne de ${CAMPAIGN}` }).click(),
  ])
  const workbook = XLSX.read(await readFile((await download.path())!), { type: 'buffer' })
  const [header, ...treatments] = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets['Traitements RA']!, { header: 1, defval: '' })
  const cell = (role: string, column: string) => treatments.find((line) => line[3] === role)?.[header!.indexOf(column)]
  expect(cell(ROLES.connector, 'Suppression')).toBe('Suppression constatée')
  expect(cell(ROLES.connector, 'Source du constat')).toBe('Connecteur d’annuaire')
  expect(cell(ROLES.connector, 'Moyen')).toBe('Connecteur d’annuaire, retiré de l’annuaire')
  expect(cell(ROLES.ticket, 'Suppression')).toBe('Suppression non constatée')
  expect(cell(ROLES.ticket, 'Moyen')).toBe(`Ticket CHG-${RUN}`)
})
