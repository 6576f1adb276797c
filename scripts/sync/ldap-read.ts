import { readFile } from 'node:fs/promises'
import { Client, type Entry } from 'ldapts'
import type { SyncConfig } from './config'
import { explainLdapError } from './ldap-errors'
import { groupMembers, IncompleteGroupError } from './group-members'

/** A person as the directory import takes it (import_directory's row), with what the connector needs beside it. */
export interface DirectoryPerson {
  dn: string
  email: string
  first_name: string
  last_name: string
  position: string | null
  department: string | null
  manager_email: string | null
  disabled: boolean
}

export interface Membership {
  application: string
  role: string
  account_type?: string
  groupDn: string
  memberDn: string
  email: string
  disabled: boolean
}

export interface DirectoryRead {
  people: DirectoryPerson[]
  memberships: Membership[]
  warnings: string[]
}

/** A DN compared whatever its case and the spaces around its separators. */
export const normalDn = (dn: string) => dn.trim().replace(/\s*([,=+])\s*/g, '$1').toLowerCase()

/** Opens a bound connection: ldaps:// or StartTLS with the organisation's CA when given. */
export async function connect(config: SyncConfig['ldap'], password: string): Promise<Client> {
  const ca = config.caFile ? [await readCa(config.caFile)] : undefined
  // A fresh object each: startTLS keeps the plain socket in the options it is given. ldapts opens TLS at once when
  // the client has TLS options, so an ldap:// URL upgraded by StartTLS gets them only then.
  const tlsOptions = () => (ca ? { ca } : {})
  const implicit = config.url.startsWith('ldaps://')
  const client = new Client({ url: config.url, timeout: config.timeoutMs, connectTimeout: config.timeoutMs, ...(implicit ? { tlsOptions: tlsOptions() } : {}) })
  try {
    if (config.startTls) await client.startTLS(tlsOptions())
    await client.bind(config.bindDn, password)
  } catch (error) {
    await client.unbind().catch(() => undefined)
    throw new Error(explainLdapError(error, config), { cause: error })
  }
  return client
}

async function readCa(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    throw new Error(`Impossible de lire le certificat de l'autorité (ldap.caFile) : ${path}.`)
  }
}

/** Every value of an attribute as text, whatever its case in the entry. */
function values(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((name) => name.toLowerCase() === attribute.toLowerCase())
  if (!key) return []
  const value = entry[key]
  const list = Array.isArray(value) ? value : [value]
  return list.map((item) => (Buffer.isBuffer(item) ? item.toString('utf8') : String(item))).filter((item) => item !== '')
}

const first = (entry: Entry, attribute: string) => values(entry, attribute)[0] ?? null

function isDisabled(entry: Entry, rule: SyncConfig['people']['disabled']): boolean {
  if (!rule) return false
  if ('userAccountControl' in rule) return (Number(first(entry, 'userAccountControl') ?? 0) & 2) === 2
  const wanted = new Set(rule.values.map((value) => value.toLowerCase()))
  return values(entry, rule.attribute).some((value) => wanted.has(value.toLowerCase()))
}

/** People of the configured base, read page by page. A person without e-mail, first or last name stops the run. */
export async function readPeople(client: Client, config: SyncConfig): Promise<{ people: DirectoryPerson[]; warnings: string[] }> {
  const { attributes: names, disabled } = config.people
  const wanted = [names.email, names.firstName, names.lastName, names.department, names.title, names.manager]
  if (disabled && 'attribute' in disabled) wanted.push(disabled.attribute)
  if (disabled && 'userAccountControl' in disabled) wanted.push('userAccountControl')
  const entries: Entry[] = []
  try {
    for await (const page of client.searchPaginated(config.people.baseDn, {
      scope: 'sub',
      filter: config.people.filter,
      attributes: wanted,
      paged: { pageSize: config.ldap.pageSize },
    })) {
      entries.push(...page.searchEntries)
    }
  } catch (error) {
    throw new Error(explainLdapError(error, config.ldap, `la recherche des personnes sous ${config.people.baseDn}`), { cause: error })
  }

  const missing = new Map<string, string[]>()
  const people: DirectoryPerson[] = []
  for (const entry of entries) {
    const required = { [names.email]: first(entry, names.email), [names.firstName]: first(entry, names.firstName), [names.lastName]: first(entry, names.lastName) }
    const absent = Object.entries(required).filter(([, value]) => !value).map(([name]) => name)
    for (const name of absent) missing.set(name, [...(missing.get(name) ?? []), entry.dn])
    if (absent.length > 0) continue
    people.push({
      dn: entry.dn,
      email: required[names.email]!,
      first_name: required[names.firstName]!,
      last_name: required[names.lastName]!,
      position: first(entry, names.title),
      department: first(entry, names.department),
      manager_email: first(entry, names.manager),
      disabled: isDisabled(entry, disabled),
    })
  }
  if (missing.size > 0) {
    const lines = [...missing].map(([name, dns]) => `  attribut « ${name} » absent pour ${dns.length} personne(s) : ${dns.slice(0, 5).join(' ; ')}${dns.length > 5 ? ' ; …' : ''}`)
    throw new Error(
      `Des personnes de l'annuaire n'ont pas les attributs que Recertif exige (e-mail, prénom, nom) :\n${lines.join('\n')}\n` +
        'Complétez l\'annuaire, ou excluez ces entrées par people.filter (par exemple (mail=*)).',
    )
  }
  return resolveManagers(people)
}

/** The manager attribute holds a DN: it becomes the manager's e-mail, or nothing when the manager is not an active person read. */
function resolveManagers(people: DirectoryPerson[]): { people: DirectoryPerson[]; warnings: string[] } {
  const byDn = new Map(people.map((person) => [normalDn(person.dn), person]))
  const warnings: string[] = []
  for (const person of people) {
    if (!person.manager_email) continue
    const manager = byDn.get(normalDn(person.manager_email))
    if (!manager || manager.disabled) {
      if (!person.disabled) warnings.push(`Manager de ${person.email} ignoré (absent ou désactivé) : ${person.manager_email}`)
      person.manager_email = null
    } else {
      person.manager_email = manager.email
    }
  }
  return { people, warnings }
}

/** The memberships of every mapped group, as (application, role, person). Members that are not people read are warned of. */
export async function readMemberships(client: Client, config: SyncConfig, people: DirectoryPerson[]): Promise<{ memberships: Membership[]; warnings: string[] }> {
  const byDn = new Map(people.map((person) => [normalDn(person.dn), person]))
  const memberships: Membership[] = []
  const warnings: string[] = []
  for (const application of config.applications) {
    for (const group of application.groups) {
      let members: string[]
      try {
        members = await groupMembers(client, group.dn, config.groups.memberAttribute)
      } catch (error) {
        const during = `la lecture du groupe ${group.dn} (application « ${application.name} »)`
        const message = error instanceof IncompleteGroupError
          ? `Membres incomplets pendant ${during} : ${error.message}. Un instantané sans eux constaterait à tort leur suppression.`
          : explainLdapError(error, config.ldap, during)
        throw new Error(message, { cause: error })
      }
      if (members.length === 0) {
        warnings.push(
          `Le groupe ${group.dn} (application « ${application.name} ») n'a renvoyé aucun membre : s'il n'est pas vide, ` +
            `le compte de service ne peut pas lire son attribut ${config.groups.memberAttribute}, et ses droits comptent comme retirés.`,
        )
      }
      let strangers = 0
      for (const memberDn of members) {
        const person = byDn.get(normalDn(memberDn))
        if (!person) {
          strangers += 1
          continue
        }
        memberships.push({
          application: application.name,
          role: group.role,
          ...(group.account_type ? { account_type: group.account_type } : {}),
          groupDn: group.dn,
          memberDn,
          email: person.email,
          disabled: person.disabled,
        })
      }
      if (strangers > 0) warnings.push(`${strangers} membre(s) du groupe ${group.dn} ne sont pas des personnes lues (groupes imbriqués, comptes hors de people.baseDn) : ignorés.`)
    }
  }
  return { memberships, warnings }
}

/** Reads people and memberships in one bound session; a read that fails says that Recertif was left as it was. */
export async function readDirectory(config: SyncConfig, password: string): Promise<DirectoryRead> {
  try {
    const client = await connect(config.ldap, password)
    try {
      const { people, warnings } = await readPeople(client, config)
      const read = await readMemberships(client, config, people)
      return { people, memberships: read.memberships, warnings: [...warnings, ...read.warnings] }
    } finally {
      await client.unbind().catch(() => undefined)
    }
  } catch (error) {
    throw new Error(`${(error as Error).message}\nRien n'a été envoyé à Recertif : corrigez, puis relancez la synchronisation.`, { cause: error })
  }
}
