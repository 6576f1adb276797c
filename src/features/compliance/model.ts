/** The compliance page's data and pure rules (SPEC §2, §9). */
import { format } from 'date-fns'
import { formatDateTime } from '@/lib/dates'
import type { Level } from '@/domain/rates'

const isoDay = (date: Date) => format(date, 'yyyy-MM-dd')
/** An application's name as a file name can carry it: letters and digits, accents dropped, the rest as dashes. */
const fileNamePart = (name: string) =>
  name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase()

export interface ComplianceCards {
  total_rights: number
  compliant_rights: number
  non_compliant_rights: number
  compliance_rate: number | null
  compliance_level: Level | null
  active_rules: number
  validated_rights: number
}

export interface ComplianceRule {
  id: string
  name: string
  description: string | null
  global: boolean
  application_id: string | null
  application_name: string | null
  parameters: Record<string, unknown> | null
  enabled: boolean
  state: 'evaluated' | 'disabled' | 'unsupported'
  violations: number | null
  violations_by_parameter: Record<string, number> | null
  ignored_parameters: string[] | null
}

export interface ApplicationConformity {
  application_id: string
  application_name: string
  total_rights: number
  compliant_rights: number
  non_compliant_rights: number
  rate: number | null
  level: Level | null
}

export interface ComplianceReport {
  as_of: string
  cards: ComplianceCards
  rules: ComplianceRule[]
  applications: ApplicationConformity[]
}

/**
 * What the compliance page's Taux de conformité counts (SPEC §9: not refused, and used within the last 90 days), said
 * under the figure and in the CSV: the RSSI dashboard's rate, under the same label, counts validated rights instead.
 */
export const COMPLIANT_RIGHTS = 'droits ni refusés ni inactifs'
export const COMPLIANCE_RATE_BASIS = `${COMPLIANT_RIGHTS} / tous les droits`
export const NON_COMPLIANT_RIGHTS = 'droits refusés ou inactifs'

export const RULE_STATE_LABELS: Record<ComplianceRule['state'], string> = {
  evaluated: 'Évaluée',
  disabled: 'Désactivée',
  unsupported: 'Non évaluable',
}

/** What the violations column shows: a count only when the rule was evaluated. */
export function ruleViolationsText(rule: ComplianceRule): string {
  if (rule.state !== 'evaluated' || rule.violations === null) return '-'
  return String(rule.violations)
}

export function ruleScopeText(rule: ComplianceRule): string {
  return rule.global ? 'Globale' : (rule.application_name ?? '-')
}

export function complianceFileName(today: Date, applicationName: string | null = null): string {
  const scope = applicationName ? `-${fileNamePart(applicationName)}` : ''
  return `conformite${scope}-${isoDay(today)}.csv`
}

/** What the export was made from: the page's filter and the moment, so that a file read later says what it counts. */
export interface ComplianceExportContext {
  /** The filtered application's name, or null for every application. */
  applicationName: string | null
  at: Date
}

export function complianceCsvSections(report: ComplianceReport, context: ComplianceExportContext) {
  const { cards } = report
  return [
    {
      title: 'Filtres',
      header: ['Filtre', 'Valeur'],
      rows: [
        ['Application', context.applicationName ?? 'Toutes les applications'],
        ['Extrait le', formatDateTime(context.at)],
      ],
    },
    {
      title: 'Synthèse',
      header: ['Indicateur', 'Valeur', 'Ce qui est compté'],
      rows: [
        ['Taux de conformité (%)', cards.compliance_rate, COMPLIANCE_RATE_BASIS],
        ['Droits conformes', cards.compliant_rights, COMPLIANT_RIGHTS],
        ['Non conformes', cards.non_compliant_rights, NON_COMPLIANT_RIGHTS],
        ['Droits', cards.total_rights, 'tous les droits'],
        ['Règles actives', cards.active_rules, ''],
        ['Droits validés', cards.validated_rights, ''],
      ],
    },
    {
      title: 'Règles de contrôle',
      header: ['Règle', 'Description', 'Portée', 'État', 'Violations'],
      rows: report.rules.map((rule) => [
        rule.name,
        rule.description ?? '',
        ruleScopeText(rule),
        RULE_STATE_LABELS[rule.state] ?? rule.state,
        rule.state === 'evaluated' ? rule.violations : '',
      ]),
    },
    {
      title: 'Conformité par application',
      header: ['Application', 'Total', 'Conformes', 'Non conformes', 'Taux de conformité (%)'],
      rows: report.applications.map((app) => [
        app.application_name,
        app.total_rights,
        app.compliant_rights,
        app.non_compliant_rights,
        app.rate,
      ]),
    },
  ]
}
