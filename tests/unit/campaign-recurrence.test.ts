import { nextOccurrenceDate, recurrenceLines, recurrenceText, type Campaign } from '@/features/campaigns/model'

type Recurring = Pick<Campaign, 'recurrence' | 'status' | 'startDate' | 'nextOccurrence'>
const campaign = (overrides: Partial<Recurring>): Recurring => ({
  recurrence: 'quarterly',
  status: 'active',
  startDate: '2026-11-01',
  nextOccurrence: null,
  ...overrides,
})
const TODAY = new Date(2026, 10, 28)

describe('a recurring campaign’s next occurrence in the Campagnes list', () => {
  it('comes one period after the start, as the scheduled pass makes it', () => {
    expect(nextOccurrenceDate(campaign({}), TODAY)).toEqual(new Date(2027, 1, 1))
    expect(nextOccurrenceDate(campaign({ recurrence: 'semiannual' }), TODAY)).toEqual(new Date(2027, 4, 1))
    expect(nextOccurrenceDate(campaign({ recurrence: 'annual', status: 'completed' }), TODAY)).toEqual(new Date(2027, 10, 1))
    expect(recurrenceText(campaign({}), TODAY)).toBe('Trimestrielle · prochaine occurrence le 1er février 2027')
  })

  it('skips the periods that went by, as the pass does for a series it resumes', () => {
    // Started in January, April and July unmade: the pass makes the October one, the last whose period has begun.
    expect(nextOccurrenceDate(campaign({ startDate: '2026-01-15', status: 'completed' }), TODAY)).toEqual(new Date(2026, 9, 15))
  })

  it('names the occurrence once it exists', () => {
    const next = { id: 'n', name: 'Revue T1 — 2027 T1', startDate: '2027-02-01' }
    expect(nextOccurrenceDate(campaign({ nextOccurrence: next }), TODAY)).toBeNull()
    expect(recurrenceText(campaign({ nextOccurrence: next }), TODAY)).toBe('Trimestrielle · occurrence suivante : « Revue T1 — 2027 T1 »')
  })

  it('says a draft’s series begins with its start, and says nothing of a one-off', () => {
    expect(recurrenceText(campaign({ status: 'draft' }), TODAY)).toBe('Trimestrielle · prochaine occurrence un trimestre après le démarrage')
    expect(recurrenceText(campaign({ recurrence: null }), TODAY)).toBeNull()
  })

  it('fits the Statut column in two short lines, the sentence kept for screen readers', () => {
    expect(recurrenceLines(campaign({}), TODAY)).toEqual({
      label: 'Trimestrielle',
      next: 'prochaine le 01/02/2027',
      sentence: 'Trimestrielle · prochaine occurrence le 1er février 2027',
    })
    expect(recurrenceLines(campaign({ nextOccurrence: { id: 'n', name: 'Suite', startDate: '2027-02-01' } }), TODAY)?.next).toBe('suivante créée')
    expect(recurrenceLines(campaign({ status: 'draft' }), TODAY)?.next).toBe('dès le démarrage')
    expect(recurrenceLines(campaign({ recurrence: null }), TODAY)).toBeNull()
  })
})
