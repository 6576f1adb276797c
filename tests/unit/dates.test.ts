import { format, startOfWeek } from 'date-fns'
import { FRENCH_DATE_OPTIONS, formatDate, formatDateTime, isoDay, lastUseText } from '@/lib/dates'

describe('French dates', () => {
  it("formats a date as 'd MMMM yyyy', the first of a month as « 1er »", () => {
    expect(formatDate('2025-03-05')).toBe('5 mars 2025')
    expect(formatDate('2025-11-01')).toBe('1er novembre 2025')
    expect(formatDate('2025-11-10')).toBe('10 novembre 2025')
    expect(formatDate(new Date(2024, 3, 15))).toBe('15 avril 2024')
  })

  it("formats a date and time as 'd MMMM yyyy à HH:mm'", () => {
    expect(formatDateTime(new Date(2025, 11, 1, 14, 7))).toBe('1er décembre 2025 à 14:07')
  })

  it('falls back when there is no valid date', () => {
    expect(formatDate(null)).toBe('-')
    expect(formatDate(undefined, 'Jamais')).toBe('Jamais')
    expect(formatDateTime('not a date', 'Jamais')).toBe('Jamais')
    expect(formatDate('')).toBe('-')
  })

  it("shows a right's last use, or 'Jamais' when it was never used", () => {
    expect(lastUseText('2026-01-05T10:00:00Z')).toBe('5 janvier 2026')
    expect(lastUseText(null)).toBe('Jamais')
  })

  it('starts weeks on Monday', () => {
    // Sunday 9 March 2025 belongs to the week that began on Monday 3 March.
    expect(startOfWeek(new Date(2025, 2, 9), FRENCH_DATE_OPTIONS)).toEqual(new Date(2025, 2, 3))
  })
})

describe.each(['Europe/Paris', 'America/New_York', 'UTC'])('French dates written in bulk, in %s', (zone) => {
  // formatDate and formatDateTime keep the text of each day they have formatted: they must still say exactly what
  // date-fns says, across months, years, daylight-saving changes and the cache's own limit. Node reads TZ anew when
  // it changes, so each zone is the browser's local time in turn.
  const previous = process.env.TZ
  beforeAll(() => {
    process.env.TZ = zone
  })
  afterAll(() => {
    process.env.TZ = previous
  })

  it('match date-fns for every hour of six years, in the local time zone', () => {
    const start = new Date(2023, 0, 1, 0, 17).getTime()
    for (let hour = 0; hour < 6 * 366 * 24; hour += 7) {
      const date = new Date(start + hour * 3_600_000)
      const day = date.getDate() === 1 ? '1er' : String(date.getDate())
      expect(formatDateTime(date)).toBe(`${day} ${format(date, "MMMM yyyy 'à' HH:mm", FRENCH_DATE_OPTIONS)}`)
      expect(formatDate(date.toISOString())).toBe(`${day} ${format(date, 'MMMM yyyy', FRENCH_DATE_OPTIONS)}`)
    }
  })

  it('read the timestamps Postgres and PostgREST write as the same instant', () => {
    const instant = new Date(Date.UTC(2025, 2, 5, 14, 30))
    for (const text of ['2025-03-05 14:30:00+00', '2025-03-05T14:30:00+00:00', '2025-03-05T15:30:00.000+01:00', '2025-03-05T14:30:00Z']) {
      expect(formatDateTime(text)).toBe(formatDateTime(instant))
    }
  })

  it('give the local calendar day of a date as the API takes it', () => {
    const start = new Date(2024, 0, 1, 0, 30).getTime()
    for (let hour = 0; hour < 2 * 366 * 24; hour += 5) {
      const date = new Date(start + hour * 3_600_000)
      expect(isoDay(date)).toBe(format(date, 'yyyy-MM-dd'))
    }
  })

  it('read a date alone as that calendar day, wherever the browser is', () => {
    expect(formatDate('2025-03-30')).toBe('30 mars 2025')
    expect(formatDate('2025-10-26')).toBe('26 octobre 2025')
  })
})
