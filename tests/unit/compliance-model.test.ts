import { describe, expect, it } from 'vitest'
import { complianceCsvSections, complianceFileName, type ComplianceReport } from '@/features/compliance/model'
import { formatDateTime } from '@/lib/dates'
import { formatRate, levelOf } from '@/domain/rates'

describe('levelOf (SPEC §9 thresholds)', () => {
  it.each([
    [100, 'green'],
    [90, 'green'],
    [89, 'orange'],
    [75, 'orange'],
    [74, 'red'],
    [0, 'red'],
    [null, null],
  ] as const)('%s → %s', (rate, level) => {
    expect(levelOf(rate)).toBe(level)
  })
})

describe('formatRate', () => {
  it('writes a percentage, and a dash when there is no rate (no rights)', () => {
    expect(formatRate(85)).toBe('85%')
    expect(formatRate(0)).toBe('0%')
    expect(formatRate(null)).toBe('-')
  })
})

describe('the compliance CSV', () => {
  it('holds the summary with what the rate counts, then both tables', () => {
    const report: ComplianceReport = {
      as_of: '2026-11-21T00:00:00Z',
      cards: {
        total_rights: 10,
        compliant_rights: 8,
        non_compliant_rights: 2,
        compliance_rate: 80,
        compliance_level: 'orange',
        active_rules: 1,
        validated_rights: 5,
      },
      rules: [
        {
          id: 'r',
          name: 'Inactivité',
          description: null,
          global: true,
          application_id: null,
          application_name: null,
          parameters: { inactivity_threshold: 90 },
          enabled: true,
          state: 'evaluated',
          violations: 3,
          violations_by_parameter: { inactivity_threshold: 3 },
          ignored_parameters: [],
        },
      ],
      applications: [
        { application_id: 'a', application_name: 'SAP', total_rights: 10, compliant_rights: 8, non_compliant_rights: 2, rate: 80, level: 'orange' },
      ],
    }
    const [filters, summary, rules, apps] = complianceCsvSections(report, { applicationName: null, at: new Date(2026, 10, 24, 9, 5) })
    // Which filters produced the file, and when.
    expect(filters?.rows).toEqual([
      ['Application', 'Toutes les applications'],
      ['Extrait le', formatDateTime(new Date(2026, 10, 24, 9, 5))],
    ])
    expect(complianceCsvSections(report, { applicationName: 'SAP', at: new Date() })[0]?.rows[0]).toEqual(['Application', 'SAP'])
    // The rate with what it counts, in the page's words.
    expect(summary).toEqual({
      title: 'Synthèse',
      header: ['Indicateur', 'Valeur', 'Ce qui est compté'],
      rows: [
        ['Taux de conformité (%)', 80, 'droits ni refusés ni inactifs / tous les droits'],
        ['Droits conformes', 8, 'droits ni refusés ni inactifs'],
        ['Non conformes', 2, 'droits refusés ou inactifs'],
        ['Droits', 10, 'tous les droits'],
        ['Règles actives', 1, ''],
        ['Droits validés', 5, ''],
      ],
    })
    expect(rules?.rows).toEqual([['Inactivité', '', 'Globale', 'Évaluée', 3]])
    expect(apps?.header).toEqual(['Application', 'Total', 'Conformes', 'Non conformes', 'Taux de conformité (%)'])
    expect(apps?.rows).toEqual([['SAP', 10, 8, 2, 80]])
  })

  it('names the file after the application it was filtered to', () => {
    expect(complianceFileName(new Date(2026, 10, 24))).toBe('conformite-2026-11-24.csv')
    expect(complianceFileName(new Date(2026, 10, 24), 'Système RH (Paie)')).toBe('conformite-systeme-rh-paie-2026-11-24.csv')
  })
})
