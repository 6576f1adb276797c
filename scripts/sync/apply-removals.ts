import { Attribute, Change, NoSuchAttributeError, type Client } from 'ldapts'
import type { SyncConfig } from './config'
import { explainLdapError } from './ldap-errors'
import { normalDn, type DirectoryRead } from './ldap-read'
import type { PendingRemoval, RemovalOutcome } from './recertif-api'

/** One membership to take out: which member, from which group, for which removal. */
export interface PlannedRemoval {
  removal: PendingRemoval
  groupDn: string
  memberDn: string
}

/**
 * What the removals asked of the connector mean in the directory: the memberships read that give that person that role
 * in that application. A removal with no such membership is already done; one whose role no group gives is an error.
 */
export function planRemovals(config: SyncConfig, read: DirectoryRead, removals: PendingRemoval[]) {
  const planned: PlannedRemoval[] = []
  const outcomes: RemovalOutcome[] = []
  for (const removal of removals) {
    const application = config.applications.find((app) => app.name.toLowerCase() === removal.application_name.toLowerCase())
    const groups = application?.groups.filter((group) => group.role.toLowerCase() === removal.role_name.toLowerCase()) ?? []
    if (groups.length === 0) {
      outcomes.push({ id: removal.id, outcome: 'failed', message: `Aucun groupe configuré ne donne le rôle « ${removal.role_name} » de « ${removal.application_name} ».` })
      continue
    }
    const wanted = new Set(groups.map((group) => normalDn(group.dn)))
    const held = read.memberships.filter(
      (m) => wanted.has(normalDn(m.groupDn)) && m.email.toLowerCase() === removal.holder_email.toLowerCase(),
    )
    if (held.length === 0) outcomes.push({ id: removal.id, outcome: 'already_absent', message: 'Déjà absent des groupes.' })
    for (const membership of held) planned.push({ removal, groupDn: membership.groupDn, memberDn: membership.memberDn })
  }
  return { planned, outcomes }
}

/** Removes each planned membership; the outcome of each removal says what happened to all of its memberships. */
export async function applyRemovals(client: Client, ldap: SyncConfig['ldap'], memberAttribute: string, planned: PlannedRemoval[]): Promise<RemovalOutcome[]> {
  const byRemoval = new Map<string, RemovalOutcome>()
  for (const step of planned) {
    let outcome: RemovalOutcome
    try {
      await client.modify(step.groupDn, new Change({ operation: 'delete', modification: new Attribute({ type: memberAttribute, values: [step.memberDn] }) }))
      outcome = { id: step.removal.id, outcome: 'removed', message: `Retiré de ${step.groupDn}.` }
    } catch (error) {
      outcome = error instanceof NoSuchAttributeError
        ? { id: step.removal.id, outcome: 'already_absent', message: `Déjà absent de ${step.groupDn}.` }
        : { id: step.removal.id, outcome: 'failed', message: explainLdapError(error, ldap, `le retrait de ${step.memberDn} de ${step.groupDn}`).slice(0, 500) }
    }
    const earlier = byRemoval.get(step.removal.id)
    // A failure anywhere wins; then a removal; already absent only when nothing was removed.
    if (!earlier || outcome.outcome === 'failed' || (outcome.outcome === 'removed' && earlier.outcome === 'already_absent')) {
      byRemoval.set(step.removal.id, outcome)
    }
  }
  return [...byRemoval.values()]
}
