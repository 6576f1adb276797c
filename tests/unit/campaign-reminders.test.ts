// A campaign's reminder days and escalation delay in words, and the rules the form applies before the database does.
import { describe, expect, it } from 'vitest'
import {
  campaignLength,
  escalationDate,
  parseEscalationDelay,
  reminderDayProblem,
  reminderDaysError,
  remindersShortText,
  remindersSummary,
} from '@/features/campaigns/reminders-model'

describe('reminder days', () => {
  it('counts a campaign’s length in calendar days, across a change of hour, and knows nothing of dates not yet valid', () => {
    expect(campaignLength('2027-03-01', '2027-03-31')).toBe(30)
    expect(campaignLength('2027-03-20', '2027-04-02')).toBe(13)
    expect(campaignLength('2027-03-05', '2027-03-05')).toBe(0)
    expect(campaignLength('2027-03-05', '2027-03-01')).toBeNull()
    expect(campaignLength('2027-03', '2027-03-31')).toBeNull()
  })

  it('takes a day from 1 to 365, once, ten at most, within the campaign', () => {
    expect(reminderDayProblem(14, [7, 3, 1], 30)).toBeNull()
    expect(reminderDayProblem(30, [7], 30)).toBeNull()
    expect(reminderDayProblem(31, [7], 30)).toMatch(/avant le début de la campagne : 30 jours au plus/)
    expect(reminderDayProblem(7, [7, 3], null)).toBe('Un rappel 7 jours avant la fin est déjà prévu.')
    expect(reminderDayProblem(366, [], null)).toBe('Indiquez un nombre entier de jours, de 1 à 365.')
    expect(reminderDayProblem(null, [], null)).toBe('Indiquez un nombre entier de jours, de 1 à 365.')
    expect(reminderDayProblem(11, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], null)).toMatch(/^10 rappels au plus/)
    // At submit, a day longer than the campaign is kept: the pass never sends it, and a short campaign keeps the defaults.
    expect(reminderDaysError([7, 3, 1])).toBeUndefined()
    expect(reminderDaysError([7, 3, 7])).toBe('Un rappel 7 jours avant la fin est déjà prévu.')
    expect(reminderDaysError([7, 0])).toBe('Indiquez un nombre entier de jours, de 1 à 365.')
  })

  it('reads the escalation delay as whole days from 0 to 30, and says when it goes', () => {
    expect(['0', ' 30 ', '31', '-1', '2.5', ''].map(parseEscalationDelay)).toEqual([0, 30, null, null, null, null])
    expect(escalationDate('2026-12-31', 0)).toBe('1er janvier 2027')
    expect(escalationDate('2026-12-31', 3)).toBe('4 janvier 2027')
  })

  it('sums the settings up for the list', () => {
    const settings = { remindersEnabled: true, reminderDays: [1, 7, 3], escalationDelayDays: 0 }
    expect(remindersShortText(settings)).toBe('J-7 J-3 J-1')
    expect(remindersSummary(settings)).toBe('Rappels 7, 3 et 1 jours avant la fin · escalade le lendemain')
    expect(remindersSummary({ ...settings, reminderDays: [1], escalationDelayDays: 2 })).toBe('Rappels 1 jour avant la fin · escalade 3 jours après')
    expect(remindersShortText({ ...settings, remindersEnabled: false })).toBe('Sans rappel')
  })
})
