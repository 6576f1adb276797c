/** French agreement of a noun (and its adjectives) with a count. */

const numberFr = new Intl.NumberFormat('fr-FR')

/**
 * The form a count takes in French: the singular for 0 and 1 (« 0 droit validé », « 1 droit validé »), the plural from
 * 2 (« 2 droits validés »). Decimals below 2 stay singular too (« 1,5 jour »), as French grammar has it.
 */
export function plural(count: number, singular: string, several: string): string {
  return Math.abs(count) < 2 ? singular : several
}

/** The count written the French way (« 1 500 ») followed by its noun, agreed: « 1 droit validé », « 1 500 droits ». */
export function countText(count: number, singular: string, several: string): string {
  return `${numberFr.format(count)} ${plural(count, singular, several)}`
}

/** A part of a whole, agreed with the part: « 1 droit validé sur 4 », « 1 275 droits validés sur 1 500 ». */
export function shareText(count: number, total: number, singular: string, several: string): string {
  return `${countText(count, singular, several)} sur ${numberFr.format(total)}`
}
