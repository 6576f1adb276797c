/** A rule's parameters read as the compliance page evaluates them, and said in French. Pure: no Supabase here. */
import { countText } from '@/domain/plural'

export type JsonObject = { [key: string]: unknown }

/** What a rule finds today, by parameter (rpc control_rule_reach): people for roles, rights for inactivity. */
export interface RuleReach {
  incompatible_roles?: number
  inactivity_threshold?: number
}

export interface ReadParameters {
  /** The role names, trimmed, blanks and repeats left out; null when the rule has no list of roles. */
  roles: string[] | null
  /** Days; null when the rule has no usable threshold. */
  threshold: number | null
  /** Every other key, and a key kept as it was because it could not be read. */
  other: JsonObject
  /** In French, what the form cannot show as it was saved. */
  notes: string[]
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

function readRoles(value: unknown[]): { roles: string[]; dropped: boolean } {
  const names = value.filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.trim())
  const roles = [...new Set(names.filter((name) => name !== ''))]
  return { roles, dropped: roles.length !== value.length }
}

/** Splits saved parameters into what the form edits and what it keeps aside, explaining the latter. */
export function readRuleParameters(parameters: unknown): ReadParameters {
  const read: ReadParameters = { roles: null, threshold: null, other: {}, notes: [] }
  if (!isObject(parameters)) {
    read.notes.push("Les paramètres enregistrés n'étaient pas un objet JSON : le formulaire repart de zéro.")
    return read
  }
  for (const [key, value] of Object.entries(parameters)) {
    if (key === 'incompatible_roles' && Array.isArray(value)) {
      const { roles, dropped } = readRoles(value)
      read.roles = roles
      if (dropped) read.notes.push('Des entrées vides, répétées ou qui ne sont pas des noms de rôle ont été écartées de la liste des rôles.')
    } else if (key === 'inactivity_threshold' && typeof value === 'number' && value > 0) {
      read.threshold = value
    } else {
      read.other[key] = value
    }
  }
  const kept = Object.keys(read.other)
  if (kept.length === 1) {
    read.notes.push(
      `Cette règle porte aussi un paramètre que ce formulaire ne sait pas modifier (${kept[0]}) : il est conservé tel quel, et la page Conformité ne l'évalue pas.`,
    )
  } else if (kept.length > 1) {
    read.notes.push(
      `Cette règle porte aussi des paramètres que ce formulaire ne sait pas modifier (${kept.join(', ')}) : ils sont conservés tels quels, et la page Conformité ne les évalue pas.`,
    )
  }
  return read
}

/** « a, b et c ». */
function listText(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} et ${items.at(-1)}`
}

function rolesSentence(roles: string[], applicationName: string | null): string {
  const labels = roles.map((role) => (applicationName ? `${applicationName} — ${role}` : role))
  const base =
    labels.length === 2
      ? `Une même personne ne peut pas détenir à la fois ${labels[0]} et ${labels[1]}`
      : `Une même personne ne peut pas détenir plus d'un de ces rôles : ${listText(labels)}`
  return applicationName ? `${base}.` : `${base}, sur une même application ou sur des applications différentes.`
}

function inactivitySentence(days: number, applicationName: string | null): string {
  const where = applicationName ? `sur ${applicationName}` : 'sur toute application'
  return `Tout droit ${where} non utilisé depuis plus de ${countText(days, 'jour', 'jours')}, ou jamais utilisé, est signalé.`
}

/**
 * The rule in words, one sentence per control it makes, as the compliance page evaluates it: a list of at least two
 * roles, a threshold above zero. `applicationName` null for a global rule.
 */
export function ruleSentences(parameters: unknown, applicationName: string | null): string[] {
  const read = readRuleParameters(parameters)
  const sentences: string[] = []
  if (read.roles !== null && read.roles.length >= 2) sentences.push(rolesSentence(read.roles, applicationName))
  if (read.threshold !== null) sentences.push(inactivitySentence(read.threshold, applicationName))
  const ignored = Object.keys(read.other)
  if (ignored.length > 0) sentences.push(`Paramètres non évalués : ${ignored.join(', ')}.`)
  return sentences
}

/** « Concerne aujourd'hui 2 personnes et 14 droits inutilisés », or null when the rule evaluates nothing. */
export function reachText(reach: RuleReach): string | null {
  const parts: string[] = []
  if (reach.incompatible_roles !== undefined) parts.push(countText(reach.incompatible_roles, 'personne', 'personnes'))
  if (reach.inactivity_threshold !== undefined) parts.push(countText(reach.inactivity_threshold, 'droit inutilisé', 'droits inutilisés'))
  return parts.length > 0 ? `Concerne aujourd'hui ${parts.join(' et ')}` : null
}
