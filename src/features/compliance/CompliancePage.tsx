import type { ApplicationChoice } from '@/domain/applications'
import { useId, useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Download, Filter } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { downloadCsv, toCsvSections } from '@/lib/csv'
import { cn } from '@/lib/cn'
import { shareText } from '@/domain/plural'
import { formatRate, levelOf, type Level } from '@/domain/rates'
import { complianceReportQuery, useLiveCompliance } from './api'
import {
  COMPLIANCE_RATE_BASIS,
  complianceCsvSections,
  complianceFileName,
  NON_COMPLIANT_RIGHTS,
  RULE_STATE_LABELS,
  ruleScopeText,
  ruleViolationsText,
} from './model'

const levelText: Record<Level, string> = { green: 'text-green-700', orange: 'text-orange-600', red: 'text-red-700' }
const selectClasses =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500'

function ApplicationSelect({ id, value, options, onChange }: { id: string; value: string; options: readonly ApplicationChoice[]; onChange: (value: string) => void }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-gray-700">
        Application
      </label>
      <select id={id} className={selectClasses} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">Toutes les applications</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  )
}

interface StatProps {
  label: string
  value: string | number
  tone?: Level | null
  /** What the figure counts, under it and as its description, when the label alone could be read two ways. */
  hint?: readonly string[]
}

function Stat({ label, value, tone, hint = [] }: StatProps) {
  const hintId = useId()
  return (
    <Card>
      <CardContent>
        <p className="text-sm text-gray-600">{label}</p>
        <p
          className={cn('text-2xl font-bold text-gray-900', tone && levelText[tone])}
          data-tone={tone ?? undefined}
          aria-describedby={hint.length > 0 ? hint.map((_, index) => `${hintId}-${index}`).join(' ') : undefined}
        >
          {value}
        </p>
        {hint.map((line, index) => (
          <p key={line} id={`${hintId}-${index}`} className="text-xs text-gray-600">
            {line}
          </p>
        ))}
      </CardContent>
    </Card>
  )
}

interface CompliancePageProps {
  title: string
  /** The applications the filter offers. */
  applications: readonly ApplicationChoice[]
}

/** SPEC §2 compliance page; ARCHITECTURE §6: Filtres and Export work. Every figure comes from rssi_compliance. */
export function CompliancePage({ title, applications: options }: CompliancePageProps) {
  const [applicationId, setApplicationId] = useState('')
  const [filtersOpen, setFiltersOpen] = useState(false)
  const [draft, setDraft] = useState('')
  useLiveCompliance()
  const report = useQuery({ ...complianceReportQuery(applicationId), placeholderData: keepPreviousData })

  const data = report.data
  return (
    <div>
      <PageHeader
        title={title}
        description="Conformité des droits : un droit est conforme s'il n'est pas refusé et a été utilisé dans les 90 derniers jours."
        actions={
          <>
            <Button
              variant="outline"
              leftIcon={<Filter aria-hidden="true" className="h-4 w-4" />}
              onClick={() => {
                setDraft(applicationId)
                setFiltersOpen(true)
              }}
            >
              {applicationId ? 'Filtres (1)' : 'Filtres'}
            </Button>
            <Button
              variant="outline"
              leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
              disabled={!data}
              onClick={() => {
                if (!data) return
                const at = new Date()
                const applicationName = options.find((option) => option.id === applicationId)?.name ?? null
                downloadCsv(complianceFileName(at, applicationName), toCsvSections(complianceCsvSections(data, { applicationName, at })))
              }}
            >
              Export
            </Button>
          </>
        }
      />

      <div className="mb-6 max-w-sm">
        <ApplicationSelect id="compliance-application" value={applicationId} options={options} onChange={setApplicationId} />
      </div>

      {report.isPending ? (
        <Spinner />
      ) : report.isError ? (
        <ErrorBox message={report.error.message} />
      ) : (
        data && (
          <div className="space-y-6">
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <Stat
                label="Taux de conformité"
                value={formatRate(data.cards.compliance_rate)}
                tone={data.cards.compliance_level ?? levelOf(data.cards.compliance_rate)}
                hint={[
                  COMPLIANCE_RATE_BASIS,
                  shareText(data.cards.compliant_rights, data.cards.total_rights, 'droit conforme', 'droits conformes'),
                ]}
              />
              <Stat label="Non conformes" value={data.cards.non_compliant_rights} hint={[NON_COMPLIANT_RIGHTS]} />
              <Stat label="Règles actives" value={data.cards.active_rules} />
              <Stat label="Droits validés" value={data.cards.validated_rights} />
            </div>

            <Card>
              <CardHeader>
                <CardTitle>Règles de contrôle</CardTitle>
              </CardHeader>
              <Table caption="Règles de contrôle">
                <TableHead>
                  <tr>
                    <TableHeaderCell>Règle</TableHeaderCell>
                    <TableHeaderCell>Portée</TableHeaderCell>
                    <TableHeaderCell>État</TableHeaderCell>
                    <TableHeaderCell>Violations</TableHeaderCell>
                  </tr>
                </TableHead>
                <TableBody>
                  {data.rules.length === 0 ? (
                    <TableEmptyRow colSpan={4} message="Aucune règle de contrôle." />
                  ) : (
                    data.rules.map((rule) => (
                      <TableRow key={rule.id}>
                        <TableCell>
                          <p className="font-medium">{rule.name}</p>
                          {rule.description && <p className="text-xs text-gray-500">{rule.description}</p>}
                          {rule.ignored_parameters && rule.ignored_parameters.length > 0 && (
                            <p className="text-xs text-gray-500">Paramètres non évalués : {rule.ignored_parameters.join(', ')}</p>
                          )}
                        </TableCell>
                        <TableCell>{ruleScopeText(rule)}</TableCell>
                        <TableCell>
                          <Badge tone={rule.state === 'evaluated' ? 'blue' : 'grey'}>{RULE_STATE_LABELS[rule.state] ?? rule.state}</Badge>
                        </TableCell>
                        <TableCell>
                          {rule.state === 'evaluated' ? (
                            <Badge tone={(rule.violations ?? 0) > 0 ? 'red' : 'green'}>{ruleViolationsText(rule)}</Badge>
                          ) : (
                            '-'
                          )}
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </Card>

            <Card>
              <CardHeader>
                <CardTitle>Conformité par application</CardTitle>
                <CardDescription>Part des droits conformes : {COMPLIANCE_RATE_BASIS} de l’application.</CardDescription>
              </CardHeader>
              <Table caption="Conformité par application">
                <TableHead>
                  <tr>
                    <TableHeaderCell>Application</TableHeaderCell>
                    <TableHeaderCell>Total</TableHeaderCell>
                    <TableHeaderCell>Conformes</TableHeaderCell>
                    <TableHeaderCell>Non conformes</TableHeaderCell>
                    <TableHeaderCell>Taux</TableHeaderCell>
                  </tr>
                </TableHead>
                <TableBody>
                  {data.applications.length === 0 ? (
                    <TableEmptyRow colSpan={5} message="Aucune application." />
                  ) : (
                    data.applications.map((app) => (
                      <TableRow key={app.application_id}>
                        <TableCell className="font-medium">{app.application_name}</TableCell>
                        <TableCell>{app.total_rights}</TableCell>
                        <TableCell>{app.compliant_rights}</TableCell>
                        <TableCell>{app.non_compliant_rights}</TableCell>
                        <TableCell className="min-w-40">
                          {app.rate === null ? '-' : <ProgressBar value={app.rate} label={`Conformité ${app.application_name}`} />}
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </Card>
          </div>
        )
      )}

      <Dialog
        open={filtersOpen}
        onClose={() => setFiltersOpen(false)}
        title="Filtres"
        footer={
          <>
            <Button variant="outline" onClick={() => setDraft('')}>
              Réinitialiser
            </Button>
            <Button
              onClick={() => {
                setApplicationId(draft)
                setFiltersOpen(false)
              }}
            >
              Appliquer
            </Button>
          </>
        }
      >
        <ApplicationSelect id="compliance-filter-application" value={draft} options={options} onChange={setDraft} />
      </Dialog>
    </div>
  )
}
