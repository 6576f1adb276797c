import { Attribute, Client, SearchEntry, type Entry, type SearchOptions, type SearchResult } from 'ldapts'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../../scripts/sync/config'
import { groupMembers, IncompleteGroupError } from '../../scripts/sync/group-members'
import { readMemberships, type DirectoryPerson } from '../../scripts/sync/ldap-read'
import { runSync } from '../../scripts/sync/run'

// Active Directory's ranged values (member;range=0-1499, …, the last ending in *), which OpenLDAP never sends: the
// ldapts client's search is stubbed with AD's answers, turned into entries by ldapts' own SearchEntry.

const GROUP = 'CN=Grand groupe,OU=Groupes,DC=exemple,DC=fr'
const personDn = (n: number) => `CN=Personne ${n},OU=Personnes,DC=exemple,DC=fr`
const dns = (count: number) => Array.from({ length: count }, (_, n) => personDn(n))

/** One answer of the directory: the attribute's name as sent and its values, or no entry at all. */
type Answer = { type: string; values: string[] } | { type: null; values: [] } | null

/** What ldapts gives for an answer to `asked`: it also lists an attribute asked and not sent, empty. */
function entryFor(answer: { type: string | null; values: string[] }, asked: string): Entry {
  const attributes = answer.type ? [new Attribute({ type: answer.type, values: answer.values })] : []
  return new SearchEntry({ messageId: 1, name: GROUP, attributes }).toObject([asked], [])
}

/** A client whose search gives these answers in turn, and fails loudly when asked once more. */
function scripted(answers: Answer[]) {
  const asked: string[] = []
  const search = vi.fn(async (_dn: string, options: SearchOptions): Promise<SearchResult> => {
    const attribute = options.attributes![0]!
    asked.push(attribute)
    if (asked.length > answers.length) throw new Error(`question de trop : ${attribute}`)
    const answer = answers[asked.length - 1]!
    return { searchEntries: answer ? [entryFor(answer, attribute)] : [], searchReferences: [] }
  })
  return { client: { search } as unknown as Pick<Client, 'search'>, asked }
}

/** Active Directory's answers for a group, MaxValRange values at a time (1500 by default). */
function adAnswers(members: string[], { maxValRange = 1500, name = 'member' } = {}): Answer[] {
  if (members.length <= maxValRange) return [{ type: name, values: members }]
  const answers: Answer[] = []
  for (let low = 0; low < members.length; low += maxValRange) {
    const last = Math.min(low + maxValRange, members.length) - 1
    const high = last === members.length - 1 ? '*' : String(last)
    answers.push({ type: `${name};${name === 'member' ? 'range' : 'Range'}=${low}-${high}`, values: members.slice(low, last + 1) })
  }
  return answers
}

describe('a group read in Active Directory’s ranges', () => {
  it('reads 3,700 members over three ranges, asking each next range from the last index received', async () => {
    const members = dns(3700)
    const answers = adAnswers(members)
    expect(answers.map((answer) => answer?.type)).toEqual(['member;range=0-1499', 'member;range=1500-2999', 'member;range=3000-*'])
    const { client, asked } = scripted(answers)
    expect(await groupMembers(client, GROUP, 'member')).toEqual(members)
    expect(asked).toEqual(['member', 'member;range=1500-*', 'member;range=3000-*'])
  })

  it('takes a small group’s members from its first answer, which has no range', async () => {
    const { client, asked } = scripted(adAnswers(dns(12)))
    expect(await groupMembers(client, GROUP, 'member')).toEqual(dns(12))
    expect(asked).toEqual(['member'])
  })

  it('reads an empty group as empty', async () => {
    const { client } = scripted([{ type: null, values: [] }])
    expect(await groupMembers(client, GROUP, 'member')).toEqual([])
  })

  it('understands the attribute named in another case (Member;Range=0-1499)', async () => {
    const members = dns(2000)
    const { client, asked } = scripted(adAnswers(members, { name: 'Member' }))
    expect(await groupMembers(client, GROUP, 'member')).toEqual(members)
    expect(asked).toEqual(['member', 'member;range=1500-*'])
  })

  const first = { type: 'member;range=0-1499', values: dns(1500) }
  const anomalies: [string, Answer[], RegExp][] = [
    ['the same range again', [first, first], /member;range=0-1499 reçue au lieu de celle commençant à 1500/],
    ['a range that ends before its values do', [first, { type: 'member;range=1500-2999', values: dns(2500).slice(1500) }], /1000 valeur\(s\) au lieu de 1500/],
    ['a next range that is not sent', [first, { type: null, values: [] }], /member;range=1500-\* vide/],
    ['a next range that holds the first one’s values again', [first, { type: 'member;range=1500-*', values: dns(1500) }], /renvoyé deux fois/],
    ['a next answer without the group', [first, null], /n'a pas renvoyé le groupe/],
    ['a first range that does not start at 0', [{ type: 'member;range=1500-*', values: dns(10) }], /commençant à 0/],
  ]
  it.each(anomalies)('stops, neither looping nor losing members, on %s', async (_what, answers, message) => {
    const { client } = scripted(answers)
    const read = groupMembers(client, GROUP, 'member')
    await expect(read).rejects.toThrow(IncompleteGroupError)
    await expect(read).rejects.toThrow(message)
  })

  // Every way one answer can go wrong, at every step of a 3,700-member read: all of the members, or an error. What
  // cannot be checked is the directory's own word on where the attribute ends: a first answer without it (an empty
  // group), a range ending in *, and how many values that last range holds.
  const mutations: Record<string, (answers: Answer[], at: number) => Answer[]> = {
    'drops the last value': (answers, at) => answers.map((a, i) => (i === at && a?.type ? { ...a, values: a.values.slice(0, -1) } : a)),
    'drops the first value': (answers, at) => answers.map((a, i) => (i === at && a?.type ? { ...a, values: a.values.slice(1) } : a)),
    'is missing': (answers, at) => answers.map((a, i) => (i === at ? { type: null, values: [] } : a)),
    'has no entry': (answers, at) => answers.map((a, i) => (i === at ? null : a)),
    'repeats the previous one': (answers, at) => answers.map((a, i) => (i === at && at > 0 ? answers[at - 1]! : a)),
    'is shifted by one': (answers, at) =>
      answers.map((a, i) => (i === at && a?.type ? { ...a, type: a.type.replace(/=(\d+)-/, (_m, low: string) => `=${Number(low) + 1}-`) } : a)),
    'ends the attribute': (answers, at) => answers.slice(0, at + 1).map((a, i) => (i === at && a?.type ? { ...a, type: a.type.replace(/-\d+$/, '-*') } : a)),
  }
  const directorysWord = (mutation: string, at: number) =>
    mutation === 'ends the attribute' || (mutation === 'is missing' && at === 0) || (at === 2 && /value/.test(mutation))
  /** The values the answers say the attribute holds: up to the first that ends it (unranged, or a range ending in *). */
  function claimed(answers: Answer[]): string[] {
    const values: string[] = []
    for (const answer of answers) {
      values.push(...(answer?.values ?? []))
      if (!answer?.type || !/;range=\d+-\d+$/i.test(answer.type)) break
    }
    return values
  }
  const cases = Object.keys(mutations).flatMap((mutation) => [0, 1, 2].map((at) => [mutation, at] as const))
  it.each(cases)('answer that %s (step %i): all of the members or an error', async (mutation, at) => {
    const members = dns(3700)
    const answers = mutations[mutation]!(adAnswers(members), at)
    const { client } = scripted(answers)
    const outcome = await groupMembers(client, GROUP, 'member').then(
      (read) => ({ read }),
      (error: unknown) => ({ error }),
    )
    if ('error' in outcome) expect(outcome.error).toBeInstanceOf(IncompleteGroupError)
    else expect(outcome.read).toEqual(directorysWord(mutation, at) ? claimed(answers) : members)
  })
})

describe('a mapped group as a run reads it', () => {
  const config = parseConfig({
    ldap: { url: 'ldaps://ad.exemple.fr:636', bindDn: 'CN=svc,DC=exemple,DC=fr' },
    people: { baseDn: 'OU=Personnes,DC=exemple,DC=fr' },
    applications: [{ name: 'SAP Finance', groups: [{ dn: GROUP, role: 'Administrateur' }] }],
    recertif: { url: 'https://projet.supabase.co', account: 'rssi@exemple.fr' },
  })
  const people: DirectoryPerson[] = dns(3000).map((dn, n) => ({
    dn, email: `p${n}@exemple.fr`, first_name: 'Prénom', last_name: `Nom ${n}`, position: null, department: null, manager_email: null, disabled: false,
  }))
  const truncated: Answer[] = [{ type: 'member;range=0-1499', values: dns(1500) }, { type: null, values: [] }]

  afterEach(() => {
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })

  it('says in French which group of which application could not be read whole', async () => {
    const { client } = scripted(truncated)
    await expect(readMemberships(client as Client, config, people)).rejects.toThrow(
      `Membres incomplets pendant la lecture du groupe ${GROUP} (application « SAP Finance ») : tranche member;range=1500-* vide. ` +
        'Un instantané sans eux constaterait à tort leur suppression.',
    )
  })

  it('reads a complete group, and warns of one that answers no member, which may be a group it cannot read', async () => {
    const whole = await readMemberships(scripted(adAnswers(dns(3000))).client as Client, config, people)
    expect(whole.memberships.map((m) => m.email)).toEqual(people.map((person) => person.email))
    expect(whole.warnings).toEqual([])
    const empty = await readMemberships(scripted([{ type: null, values: [] }]).client as Client, config, people)
    expect(empty.memberships).toEqual([])
    expect(empty.warnings).toEqual([expect.stringMatching(/^Le groupe CN=Grand groupe.* n'a renvoyé aucun membre : .* lire son attribut member/)])
  })

  it('sends nothing to Recertif, so no removal is recorded as « constatée »', async () => {
    const { client } = scripted(truncated)
    const entries = people.map((person) => ({ dn: person.dn, mail: person.email, givenName: person.first_name, sn: person.last_name }))
    vi.spyOn(Client.prototype, 'bind').mockResolvedValue(undefined)
    vi.spyOn(Client.prototype, 'unbind').mockResolvedValue(undefined)
    vi.spyOn(Client.prototype, 'searchPaginated').mockImplementation(async function* () {
      yield { searchEntries: entries, searchReferences: [] }
    })
    vi.spyOn(Client.prototype, 'search').mockImplementation(client.search)
    const recertif = vi.fn<typeof fetch>()
    vi.stubGlobal('fetch', recertif)

    const log = vi.fn()
    const env = { LDAP_BIND_PASSWORD: 'secret', RECERTIF_SECRET_KEY: 'sb_secret_test' }
    await expect(runSync(config, { apply: true, env, log })).rejects.toThrow(
      /Membres incomplets pendant la lecture du groupe .*\nRien n'a été envoyé à Recertif : corrigez, puis relancez la synchronisation\./,
    )
    expect(recertif).not.toHaveBeenCalled()
    expect(log).not.toHaveBeenCalled()
  })
})
