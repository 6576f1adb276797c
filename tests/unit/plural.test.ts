import { countText, plural, shareText } from '@/domain/plural'

describe('plural', () => {
  it('keeps the singular for 0 and 1, as French does, and the plural from 2', () => {
    expect(plural(0, 'droit validé', 'droits validés')).toBe('droit validé')
    expect(plural(1, 'droit validé', 'droits validés')).toBe('droit validé')
    expect(plural(2, 'droit validé', 'droits validés')).toBe('droits validés')
    expect(plural(1000, 'décision', 'décisions')).toBe('décisions')
  })

  it('keeps the singular below 2, decimals included', () => {
    expect(plural(1.5, 'jour', 'jours')).toBe('jour')
    expect(plural(2.5, 'jour', 'jours')).toBe('jours')
    expect(plural(-1, 'jour', 'jours')).toBe('jour')
  })
})

describe('countText', () => {
  it('writes the count the French way before its agreed noun', () => {
    expect(countText(1, 'droit validé', 'droits validés')).toBe('1 droit validé')
    expect(countText(0, 'décision sur la période', 'décisions sur la période')).toBe('0 décision sur la période')
    expect(countText(4, 'droit', 'droits')).toBe('4 droits')
    expect(countText(1500, 'utilisateur', 'utilisateurs')).toBe('1\u202f500 utilisateurs')
  })
})

describe('shareText', () => {
  it('agrees the noun with the part, not with the whole', () => {
    expect(shareText(1, 4, 'droit validé', 'droits validés')).toBe('1 droit validé sur 4')
    expect(shareText(0, 1, 'droit conforme', 'droits conformes')).toBe('0 droit conforme sur 1')
    expect(shareText(1275, 1500, 'droit validé', 'droits validés')).toBe('1\u202f275 droits validés sur 1\u202f500')
  })
})
