// The directory connector against a real OpenLDAP and the real local backend: it reads people, managers, leavers and
// group memberships over TLS, pushes them to Recertif through its API with the secret key, and carries out the removals
// the RA asked of it; the next read settles them. Failures say what is wrong and change nothing.
import { Client } from 'ldapts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRestBackend, type RestBackend } from '../api/support/rest'
import { actAs } from '../db/support/actors'
import { decide, one } from '../db/support/fixtures'
import { groupDn, personDn, startSlapd, type Slapd } from './support/slapd'
import { APPLICATION, GROUPS, connectorConfig, connectorEnv, organisationLdif, sync } from './support/organisation'

let slapd: Slapd
let backend: RestBackend

beforeAll(async () => {
  ;[slapd, backend] = await Promise.all([startSlapd(organisationLdif()), startRestBackend()])
  await backend.db.query(
    `insert into public.applications (name, ra_id, bpo_metier_id) values ($1, '00000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000003')`,
    [APPLICATION],
  )
})
afterAll(async () => {
  await Promise.all([slapd?.stop(), backend?.close()])
})

const person = (email: string) =>
  backend.db
    .query<{ active: boolean; first_name: string; department: string | null; position: string | null; manager: string | null }>(
      `select u.active, u.first_name, u.department, u.position, m.email as manager
         from public.users u left join public.users m on m.id = u.manager_id where lower(u.email) = lower($1)`,
      [email],
    )
    .then((r) => r.rows[0])

const rightsOf = (email: string) =>
  backend.db
    .query<{ id: string; role_name: string }>(
      `select ur.id, ur.role_name from public.user_rights ur join public.users u on u.id = ur.user_id
         join public.applications a on a.id = ur.application_id where a.name = $1 and lower(u.email) = lower($2) order by ur.role_name`,
      [APPLICATION, email],
    )
    .then((r) => r.rows)

const removal = (rightId: string) =>
  backend.db
    .query<{ state: string; verified_source: string | null; apply_outcome: string | null; unverified_at: string | null }>(
      `select state, verified_source, apply_outcome, unverified_at from public.right_removals where right_id = $1`,
      [rightId],
    )
    .then((r) => r.rows[0])

async function membersOf(cn: string): Promise<string[]> {
  const client = new Client({ url: slapd.ldapUrl })
  try {
    await client.bind(slapd.adminDn, slapd.adminPassword)
    const { searchEntries } = await client.search(groupDn(cn), { scope: 'base', attributes: ['member'] })
    const members = searchEntries[0]?.member ?? []
    return (Array.isArray(members) ? members : [members]).map(String)
  } finally {
    await client.unbind()
  }
}

/** A campaign over the application, started, in which Marc refuses the rights named, then closed. */
async function refuseInCampaign(rightIds: string[]): Promise<void> {
  const { id: applicationId } = await one<{ id: string }>(backend.db, `select id from public.applications where name = $1`, [APPLICATION])
  const { id: campaign } = await one<{ id: string }>(
    backend.db,
    `insert into public.campaigns (name, application_id, start_date, end_date) values ('Revue LDAP ' || gen_random_uuid(), $1, current_date, current_date + 30) returning id`,
    [applicationId],
  )
  await actAs(backend.db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
  for (const id of rightIds) {
    const outcome = await decide(backend.db, 'manager', id, 'refused_manager')
    expect(outcome.ok, outcome.message).toBe(true)
  }
  await actAs(backend.db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign]))
}

describe('a run of the connector', () => {
  it('imports the directory (managers, leavers) and each mapped group as the application’s rights', async () => {
    const run = await sync(connectorConfig(slapd, backend), connectorEnv(slapd, backend))
    expect(run.people).toBe(10)
    expect(run.lines.join('\n')).toMatch(/membre\(s\) du groupe .* ignorés/)
    expect(await person('alice@ldap.example.org')).toMatchObject({
      active: true, first_name: 'Alice', department: 'Trésorerie', position: 'Trésorière', manager: 'manager@example.com',
    })
    // Disabled in the directory, never known to Recertif: not imported, nor her membership.
    expect(await person('carole@ldap.example.org')).toBeUndefined()
    // A seeded person the directory does not hold is a leaver.
    expect((await backend.db.query<{ active: boolean }>(`select active from public.users where id = '00000000-0000-4000-b000-000000000002'`)).rows[0]?.active).toBe(false)
    expect((await rightsOf('alice@ldap.example.org')).map((r) => r.role_name)).toEqual(['Lecture', 'Paiements'])
    expect((await rightsOf('bruno@ldap.example.org')).map((r) => r.role_name)).toEqual(['Lecture'])

    const again = await sync(connectorConfig(slapd, backend), connectorEnv(slapd, backend))
    expect(again.report.directory).toMatchObject({ created: 0, updated: 0, leaving: 0 })
    expect(again.report.applications[0]).toMatchObject({ created: 0, present: 3, ignored: 1 })
  })

  it('reads over StartTLS with the organisation’s CA too', async () => {
    const run = await sync(connectorConfig(slapd, backend, { url: slapd.ldapUrl, startTls: true }), connectorEnv(slapd, backend))
    expect(run.people).toBe(10)
  })
})

describe('a removal the RA asks of the connector', () => {
  it('is only printed without --apply, carried out with it, and constatée at the next run', async () => {
    const config = connectorConfig(slapd, backend)
    const env = connectorEnv(slapd, backend)
    const payments = (await rightsOf('alice@ldap.example.org')).find((r) => r.role_name === 'Paiements')!
    await refuseInCampaign([payments.id])
    const ra = await backend.as('ra')
    const asked = await ra.rpc('request_right_removal', { p_right_id: payments.id, p_method: 'connector' })
    expect(asked.error).toBeNull()

    const dry = await sync(config, env)
    expect(dry.wouldRemove).toEqual([{ email: 'alice@ldap.example.org', groupDn: groupDn(GROUPS.payments), application: APPLICATION, role: 'Paiements' }])
    expect(dry.lines.join('\n')).toContain('À retirer (relancez avec --apply) : alice@ldap.example.org')
    expect(await membersOf(GROUPS.payments)).toContain(personDn('alice'))
    expect(await removal(payments.id)).toMatchObject({ state: 'requested', apply_outcome: null })

    const applied = await sync(config, env, { apply: true })
    expect(applied.removals).toEqual([expect.objectContaining({ outcome: 'removed' })])
    expect(await membersOf(GROUPS.payments)).not.toContain(personDn('alice'))
    // Alice's other role, never refused, is untouched.
    expect(await membersOf(GROUPS.readers)).toContain(personDn('alice'))
    expect(await removal(payments.id)).toMatchObject({ state: 'requested', apply_outcome: 'removed' })

    await sync(config, env, { apply: true })
    expect(await removal(payments.id)).toMatchObject({ state: 'verified', verified_source: 'connector' })
    const trail = await backend.db.query<{ user_email: string }>(
      `select user_email from public.audit_logs where resource_type = 'right_removals' and details -> 'changes' -> 'state' ->> 'new' = 'verified' order by id desc limit 1`,
    )
    expect(trail.rows[0]?.user_email).toBe('rssi@example.com')
  })

  it('removes only what was asked of it, and a removal by ticket left undone is non constatée after the delay', async () => {
    const config = connectorConfig(slapd, backend)
    const env = connectorEnv(slapd, backend)
    // Undecided when the first review closed, Bruno's right awaits the RA's treatment.
    const reading = (await rightsOf('bruno@ldap.example.org'))[0]!
    expect((await one<{ status: string }>(backend.db, `select status::text from public.user_rights where id = $1`, [reading.id])).status).toBe('treatment_required')
    const ra = await backend.as('ra')
    expect((await ra.rpc('request_right_removal', { p_right_id: reading.id, p_method: 'ticket', p_ticket: 'CHG-42' })).error).toBeNull()

    const applied = await sync(config, env, { apply: true })
    expect(applied.removals).toEqual([])
    expect(await membersOf(GROUPS.readers)).toEqual(expect.arrayContaining([personDn('alice'), personDn('bruno')]))
    expect((await removal(reading.id))?.state).toBe('requested')

    const later = new Date(Date.now() + 31 * 24 * 3600 * 1000)
    const run = await sync(config, env, { apply: true, now: later })
    expect(run.report.applications[0]).toMatchObject({ unverified: 1 })
    expect((await removal(reading.id))?.state).toBe('unverified')
  })
})

describe('failures are explained and change nothing', () => {
  const directory = () => backend.db.query(`select email, active, manager_id, department from public.users order by email`).then((r) => r.rows)

  it('a wrong bind password', async () => {
    await expect(sync(connectorConfig(slapd, backend), connectorEnv(slapd, backend, 'wrong'))).rejects.toThrow(
      /refuse la connexion du compte de service .*mot de passe incorrect/,
    )
  })

  it('an unreachable server', async () => {
    const closed = connectorConfig(slapd, backend, { url: 'ldap://127.0.0.1:1', timeoutMs: 5000 })
    await expect(sync(closed, connectorEnv(slapd, backend))).rejects.toThrow(/Annuaire injoignable à ldap:\/\/127.0.0.1:1 \(ECONNREFUSED\)/)
  })

  it('a certificate of an unknown authority', async () => {
    const config = connectorConfig(slapd, backend)
    delete config.ldap.caFile
    await expect(sync(config, connectorEnv(slapd, backend))).rejects.toThrow(/certificat TLS de l'annuaire n'est pas reconnu/)
  })

  it('a person without e-mail, and a group Recertif does not know: nothing is imported', async () => {
    const before = await directory()
    await slapd.modify(`dn: ${personDn('bruno')}\nchangetype: modify\nreplace: department\ndepartment: Audit\n`)
    const unknown = connectorConfig(slapd, backend)
    unknown.applications.push({ name: 'Application inconnue', groups: [{ dn: groupDn(GROUPS.readers), role: 'Lecture' }] })
    await expect(sync(unknown, connectorEnv(slapd, backend))).rejects.toThrow(/« Application inconnue » sont refusés|Application inconnue : Application inconnue/)
    expect(await directory()).toEqual(before)

    await slapd.modify(`dn: ${personDn('bruno')}\nchangetype: modify\ndelete: mail\n`)
    await expect(sync(connectorConfig(slapd, backend), connectorEnv(slapd, backend))).rejects.toThrow(
      /attribut « mail » absent pour 1 personne\(s\) : uid=bruno/,
    )
    expect(await directory()).toEqual(before)
  })
})
