import { describe, expect, it } from 'vitest'
import {
  activeFilterCount,
  dashboardArgs,
  defaultFilters,
  periodWindow,
  rightsCsvRow,
  rightsExportFileName,
  RIGHTS_CSV_HEADER,
  withPeriod,
  type RightExportRow,
} from '@/features/dashboards/model'

const TODAY = new Date(2026, 10, 21, 9, 30) // 21 November 2026, local time

describe('periodWindow (SPEC §9)', () => {
  it('gives a week of 7 days, a month of 1 month and a quarter of 3 months, ending today', () => {
    expect(periodWindow('semaine', TODAY)).toEqual({ from: '2026-11-14', to: '2026-11-21' })
    expect(periodWindow('mois', TODAY)).toEqual({ from: '2026-10-21', to: '2026-11-21' })
    expect(periodWindow('trimestre', TODAY)).toEqual({ from: '2026-08-21', to: '2026-11-21' })
  })

  it('opens on Mois, a button whose window the date line shows; a custom range starts from the last 30 days', () => {
    expect(defaultFilters(TODAY)).toEqual({
      search: '',
      applicationId: '',
      accountType: '',
      from: '2026-10-21',
      to: '2026-11-21',
      period: 'mois',
    })
    expect(periodWindow('personnalisee', TODAY)).toEqual({ from: '2026-10-22', to: '2026-11-21' })
  })

  it('handles month ends (31 May minus one month is 30 April)', () => {
    expect(periodWindow('mois', new Date(2026, 4, 31))).toEqual({ from: '2026-04-30', to: '2026-05-31' })
  })

  it('keeps the other filters when a period button is pressed', () => {
    const filters = { ...defaultFilters(TODAY), search: 'dupont' }
    expect(withPeriod(filters, 'semaine', TODAY)).toMatchObject({ search: 'dupont', period: 'semaine', from: '2026-11-14' })
  })
})

describe('rightsExportFileName (SPEC §9)', () => {
  it.each([
    ['semaine', 'revue-droits-semaine-2026-11-21.csv'],
    ['mois', 'revue-droits-mois-2026-11-21.csv'],
    ['trimestre', 'revue-droits-trimestre-2026-11-21.csv'],
    ['personnalisee', 'revue-droits-personnalisee-2026-11-21.csv'],
  ] as const)('names the %s export %s', (period, name) => {
    expect(rightsExportFileName(period, TODAY)).toBe(name)
  })

  it('pads month and day', () => {
    expect(rightsExportFileName('mois', new Date(2026, 0, 5))).toBe('revue-droits-mois-2026-01-05.csv')
  })
})

describe('dashboard filters', () => {
  it('leaves empty filters out of the RPC arguments', () => {
    expect(dashboardArgs(defaultFilters(TODAY))).toEqual({
      p_search: undefined,
      p_application_id: undefined,
      p_account_type: undefined,
      p_from: '2026-10-21',
      p_to: '2026-11-21',
    })
    expect(dashboardArgs({ ...defaultFilters(TODAY), search: '  sap ', accountType: 'privileged' })).toMatchObject({
      p_search: 'sap',
      p_account_type: 'privileged',
    })
  })

  it('counts the filters set besides the dates', () => {
    expect(activeFilterCount(defaultFilters(TODAY))).toBe(0)
    expect(activeFilterCount({ ...defaultFilters(TODAY), search: 'x', applicationId: 'a' })).toBe(2)
  })
})

describe('the rights CSV', () => {
  const row: RightExportRow = {
    id: 'r1',
    application_id: 'a1',
    application_name: 'SAP',
    user_id: 'u1',
    user_name: 'Jean Dupont',
    user_email: 'jean@example.com',
    role_name: 'Administrateur',
    account_type: 'standard',
    status: 'pending',
    status_label: 'En attente',
    granted_at: '2025-03-05T10:00:00Z',
    last_used_at: null,
    validated_at: null,
    campaign_id: null,
    campaign_name: null,
  }

  it('has SPEC §9 columns', () => {
    expect(RIGHTS_CSV_HEADER).toEqual([
      'Application',
      'Utilisateur',
      'Rôle',
      'Statut',
      "Date d'attribution",
      'Dernière utilisation',
      'Campagne',
    ])
  })

  it("writes French dates and 'Jamais' for a right never used", () => {
    expect(rightsCsvRow(row)).toEqual(['SAP', 'Jean Dupont', 'Administrateur', 'En attente', '5 mars 2025', 'Jamais', ''])
    expect(rightsCsvRow({ ...row, last_used_at: '2026-01-15T12:00:00Z', campaign_name: 'Revue T1' })[5]).toBe('15 janvier 2026')
  })
})
