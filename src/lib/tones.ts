/** Colour families shared by badges and bars, so that a status reads the same everywhere. */
export type Tone = 'green' | 'red' | 'amber' | 'orange' | 'blue' | 'grey'

/** SPEC §4: validated green, refused red, treatment_required amber, treated blue, anything else (pending) grey. */
export function rightStatusTone(status: string): Tone {
  if (status.includes('validated')) return 'green'
  if (status.includes('refused')) return 'red'
  if (status === 'treatment_required') return 'amber'
  if (status === 'treated') return 'blue'
  return 'grey'
}

/** SPEC §9: 90 % or more green, 75 % or more orange, otherwise red. */
export function rateTone(percent: number): Tone {
  if (percent >= 90) return 'green'
  if (percent >= 75) return 'orange'
  return 'red'
}

const CAMPAIGN_STATUS_TONES: Record<string, Tone> = { draft: 'grey', active: 'blue', completed: 'green', archived: 'amber' }

/** SPEC §4: a draft grey, an active campaign blue, a completed one green, an archived one amber. */
export function campaignStatusTone(status: string): Tone {
  return CAMPAIGN_STATUS_TONES[status] ?? 'grey'
}
