import type { Client, Entry } from 'ldapts'

/**
 * One answer's share of a multi-valued attribute. Active Directory sends a large one in ranges
 * (`member;range=0-1499`, then `member;range=1500-2999`, …, the last ending in `*`): `low` and `high` are the indexes
 * of the first and last values sent, `high` null for `*`. An attribute sent whole has no range.
 */
export interface ValueSlice {
  values: string[]
  range: { low: number; high: number | null } | null
}

/** A group whose members did not all arrive: the run must stop rather than push a snapshot that lacks some. */
export class IncompleteGroupError extends Error {}

const RANGED = /^(.+);range=(\d+)-(\*|\d+)$/i

const asText = (value: Entry[string]): string[] =>
  (Array.isArray(value) ? value : [value]).map((item) => (Buffer.isBuffer(item) ? item.toString('utf8') : String(item))).filter((item) => item !== '')

/**
 * The slice of `attribute` an entry holds, whatever the case of its name (`Member;Range=0-1499`). ldapts also lists
 * each attribute asked for and not sent as an empty one, so a range with values wins over an empty name.
 */
export function sliceOf(entry: Entry, attribute: string): ValueSlice {
  const wanted = attribute.toLowerCase()
  const ranged: (ValueSlice & { name: string })[] = []
  let whole: string[] = []
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn') continue
    const match = RANGED.exec(name)
    if (match && match[1]!.toLowerCase() === wanted) {
      ranged.push({ name, values: asText(value), range: { low: Number(match[2]), high: match[3] === '*' ? null : Number(match[3]) } })
    } else if (name.toLowerCase() === wanted) {
      whole = asText(value)
    }
  }
  const sent = ranged.filter((slice) => slice.values.length > 0)
  if (sent.length > 1) throw new IncompleteGroupError(`plusieurs tranches dans une même réponse (${sent.map((slice) => slice.name).join(', ')})`)
  if (sent[0]) return { values: sent[0].values, range: sent[0].range }
  if (whole.length > 0 || ranged.length === 0) return { values: whole, range: null }
  return { values: [], range: ranged[0]!.range }
}

/** Why a slice cannot follow the values read so far, or null when it continues them exactly from index `low`. */
function gapIn(slice: ValueSlice, low: number, attribute: string): string | null {
  if (!slice.range) return low === 0 ? null : `l'annuaire a cessé d'envoyer ${attribute};range=${low}-*`
  const { high } = slice.range
  const sent = `${attribute};range=${slice.range.low}-${high ?? '*'}`
  if (slice.range.low !== low) return `tranche ${sent} reçue au lieu de celle commençant à ${low}`
  if (low > 0 && slice.values.length === 0) return `tranche ${sent} vide`
  if (high !== null && slice.values.length !== high - low + 1) return `tranche ${sent} avec ${slice.values.length} valeur(s) au lieu de ${high - low + 1}`
  return null
}

/**
 * Every value of a group's member attribute, Active Directory's ranges included. A range that does not continue the
 * previous one exactly (repeated, shifted, short, missing, or values already read) stops the read with
 * IncompleteGroupError: reading on would loop or lose members, and a snapshot without them would record their
 * removal as « constatée ».
 */
export async function groupMembers(client: Pick<Client, 'search'>, dn: string, attribute: string): Promise<string[]> {
  const members: string[] = []
  const seen = new Set<string>()
  let low = 0
  for (;;) {
    const asked = low === 0 ? attribute : `${attribute};range=${low}-*`
    const { searchEntries } = await client.search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: [asked] })
    const entry = searchEntries[0]
    if (!entry) throw new IncompleteGroupError(`l'annuaire n'a pas renvoyé le groupe (droits de lecture du compte de service ?)`)
    const slice = sliceOf(entry, attribute)
    const gap = gapIn(slice, low, attribute)
    if (gap) throw new IncompleteGroupError(gap)
    for (const value of slice.values) {
      const key = value.toLowerCase()
      if (seen.has(key)) throw new IncompleteGroupError(`${value} renvoyé deux fois`)
      seen.add(key)
      members.push(value)
    }
    if (!slice.range || slice.range.high === null) return members
    low = slice.range.high + 1
  }
}
