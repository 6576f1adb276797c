import { secretFrom, type SyncConfig } from './config'
import { applyRemovals, planRemovals } from './apply-removals'
import { connect, readDirectory } from './ldap-read'
import { pendingRemovals, pushSnapshot, recertifClient, recordRemovals, syncPayload, updateBans, type RemovalOutcome, type SyncReport } from './recertif-api'

export interface RunOptions {
  apply: boolean
  env: NodeJS.ProcessEnv
  /** The run's clock, for the « non constatée » delays; Recertif's own when absent. */
  now?: Date
  log: (line: string) => void
}

export interface RunResult {
  report: SyncReport
  people: number
  memberships: number
  removals: RemovalOutcome[]
  wouldRemove: { email: string; groupDn: string; application: string; role: string }[]
  warnings: string[]
}

/**
 * One run: read the directory, push it and every mapped application's rights to Recertif in one transaction (which
 * settles the removals asked earlier), then carry out, with --apply, the removals the RA asked of the connector.
 */
export async function runSync(config: SyncConfig, options: RunOptions): Promise<RunResult> {
  const password = secretFrom(options.env, config.ldap.bindPasswordEnv, 'Mot de passe du compte de service')
  const secretKey = secretFrom(options.env, config.recertif.secretKeyEnv, 'Clé secrète de Recertif')
  const read = await readDirectory(config, password)
  const { log } = options
  log(`Annuaire lu : ${read.people.length} personne(s), ${read.memberships.length} appartenance(s) à des groupes suivis.`)

  const api = recertifClient(config.recertif.url, secretKey)
  const report = await pushSnapshot(api, syncPayload(read, config.recertif.account, options.now), config.applications.map((app) => app.name))
  const d = report.directory
  log(`Recertif : ${d.created} personne(s) créée(s), ${d.updated} mise(s) à jour, ${d.leaving} désactivée(s).`)
  for (const app of report.applications) {
    log(`  ${app.application} : ${app.created} droit(s) ajouté(s), ${app.verified} suppression(s) constatée(s), ${app.unverified} non constatée(s).`)
  }
  const warnings = [...read.warnings, ...(await updateBans(api, report))]
  for (const warning of warnings) log(`Attention : ${warning}`)

  const pending = await pendingRemovals(api)
  const { planned, outcomes } = planRemovals(config, read, pending)
  const wouldRemove = planned.map((step) => ({ email: step.removal.holder_email, groupDn: step.groupDn, application: step.removal.application_name, role: step.removal.role_name }))
  if (!options.apply) {
    for (const step of wouldRemove) log(`À retirer (relancez avec --apply) : ${step.email} du groupe ${step.groupDn} (${step.application}, ${step.role})`)
    if (wouldRemove.length === 0) log('Aucune suppression demandée au connecteur.')
    return { report, people: read.people.length, memberships: read.memberships.length, removals: [], wouldRemove, warnings }
  }

  const client = await connect(config.ldap, password)
  let applied: RemovalOutcome[]
  try {
    applied = await applyRemovals(client, config.ldap, config.groups.memberAttribute, planned)
  } finally {
    await client.unbind().catch(() => undefined)
  }
  const removals = [...outcomes, ...applied]
  await recordRemovals(api, config.recertif.account, removals)
  for (const outcome of removals) log(`Suppression ${outcome.outcome === 'removed' ? 'faite' : outcome.outcome === 'already_absent' ? 'déjà faite' : 'échouée'} : ${outcome.message ?? ''}`)
  return { report, people: read.people.length, memberships: read.memberships.length, removals, wouldRemove, warnings }
}
