import type { ApplicationChoice } from '@/domain/applications'
import { lazy, Suspense, useId, useState, type ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { AlertTriangle, CheckCircle2, Clock, Download, Filter, Gavel, ListChecks, ShieldCheck } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { downloadCsv, toCsv } from '@/lib/csv'
import { formatDate } from '@/lib/dates'
import { cn } from '@/lib/cn'
import { reviewedText } from '@/domain/campaign-figures'
import { countText, shareText } from '@/domain/plural'
import { formatRate, levelOf, type Level } from '@/domain/rates'
import { fetchAllRightsForExport, rssiDashboardQuery, useLiveRssiDashboard } from '../api'
import { ApplicationComplianceList } from './ApplicationComplianceList'
import { RssiTrends } from './charts/RssiTrends'
import {
  activeFilterCount,
  defaultFilters,
  AT_RISK_BASIS,
  ignoredFiltersText,
  RISK_BASIS,
  PERIOD_BUTTONS,
  periodText,
  RIGHTS_CSV_HEADER,
  rightsCsvRow,
  rightsExportFileName,
  VALIDATION_RATE_BASIS,
  withPeriod,
  type DashboardFilters,
  type Risk,
} from '../model'
import { UnverifiedRemovalsTile } from '../removals/UnverifiedRemovalsTile'

// Loaded when first opened: its date fields bring date-fns's parser, which the dashboard's first paint does not need.
const DashboardFiltersDialog = lazy(() => import('./DashboardFiltersDialog').then((m) => ({ default: m.DashboardFiltersDialog })))
// Loaded when a risk is opened, as the filters are.
const RiskListDialog = lazy(() => import('./RiskListDialog').then((m) => ({ default: m.RiskListDialog })))

const levelText: Record<Level, string> = { green: 'text-green-700', orange: 'text-orange-600', red: 'text-red-700' }

interface CounterProps {
  label: string
  value: ReactNode
  icon: ReactNode
  tone?: Level | null
  /** What the figure counts, under it and as its description, when the label alone could be read two ways. */
  hint?: readonly string[]
}

function Counter({ label, value, icon, tone, hint = [] }: CounterProps) {
  const hintId = useId()
  return (
    <Card>
      <CardContent className="flex items-center gap-4">
        <span aria-hidden="true" className="text-primary-600">
          {icon}
        </span>
        <div>
          <p className="text-sm text-gray-600">{label}</p>
          <p
            className={cn('text-2xl font-bold text-gray-900', tone && levelText[tone])}
            data-testid={`counter-${label}`}
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
        </div>
      </CardContent>
    </Card>
  )
}

/** A risk, what it counts, and the way to the list behind its figure. */
function RiskTile({ risk, onOpen }: { risk: Risk; onOpen: () => void }) {
  const hintId = useId()
  const ignored = ignoredFiltersText(risk.ignored_filters)
  return (
    <li className="py-2">
      <button
        type="button"
        aria-haspopup="dialog"
        aria-label={`${risk.label} ${risk.count}, voir la liste`}
        aria-describedby={hintId}
        onClick={onOpen}
        className="flex w-full items-center justify-between gap-3 rounded-md text-left text-sm hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
      >
        {/* The space makes the visible text « label figure », which the name begins with. */}
        <span className="font-medium text-primary-700">{risk.label}</span>{' '}
        <Badge tone={risk.count > 0 ? 'red' : 'green'}>{risk.count}</Badge>
      </button>
      {/* Beside the button rather than in it, so that its visible text stays its label and figure. */}
      <p id={hintId} className="mt-0.5 text-xs text-gray-600">
        {RISK_BASIS[risk.key]}
        {ignored && ` ${ignored}`}
      </p>
    </li>
  )
}

interface RssiDashboardProps {
  title: string
  /** The applications the filters offer. */
  applications: readonly ApplicationChoice[]
  /** Fixed 'today' for tests. */
  today?: Date
}

/** SPEC §2 RSSI view: every figure comes from rssi_dashboard, computed in Postgres. */
export function RssiDashboard({ title, applications, today }: RssiDashboardProps) {
  const [filters, setFilters] = useState<DashboardFilters>(() => defaultFilters(today))
  const [filtersOpen, setFiltersOpen] = useState(false)
  const [openRisk, setOpenRisk] = useState<Risk | null>(null)
  const [exporting, setExporting] = useState<number | null>(null)
  const [exportError, setExportError] = useState<string | null>(null)
  useLiveRssiDashboard()
  const dashboard = useQuery({ ...rssiDashboardQuery(filters), placeholderData: keepPreviousData })
  const filterCount = activeFilterCount(filters)
  const applicationsTitleId = useId()
  const nowTitleId = useId()
  const periodTitleId = useId()
  const periodLine = periodText(filters)

  async function exportCsv() {
    setExportError(null)
    setExporting(0)
    try {
      const rows = await fetchAllRightsForExport(filters, setExporting)
      downloadCsv(rightsExportFileName(filters.period, today), toCsv(RIGHTS_CSV_HEADER, rows.map(rightsCsvRow)))
    } catch (error) {
      setExportError(error instanceof Error ? error.message : null)
    } finally {
      setExporting(null)
    }
  }

  const data = dashboard.data
  const counters = data?.counters
  return (
    <div>
      <PageHeader
        title={title}
        description="Vue RSSI : conformité, risques et campagnes en cours."
        actions={
          <>
            <Button variant="outline" leftIcon={<Filter aria-hidden="true" className="h-4 w-4" />} onClick={() => setFiltersOpen(true)}>
              {filterCount > 0 ? `Filtres (${filterCount})` : 'Filtres'}
            </Button>
            <Button
              variant="outline"
              leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
              loading={exporting !== null}
              onClick={() => void exportCsv()}
            >
              {exporting !== null ? `Export en cours… (${countText(exporting, 'ligne', 'lignes')})` : 'Exporter CSV'}
            </Button>
            <Link to="/app/campaigns" className={buttonClasses({ variant: 'primary' })}>
              Voir les campagnes
            </Link>
          </>
        }
      />

      <div role="group" aria-label="Période" className="mb-4 flex flex-wrap items-center gap-2">
        {PERIOD_BUTTONS.map(({ period, label }) => (
          <Button
            key={period}
            size="sm"
            variant={filters.period === period ? 'primary' : 'outline'}
            aria-pressed={filters.period === period}
            onClick={() => setFilters((current) => withPeriod(current, period, today))}
          >
            {label}
          </Button>
        ))}
        <span className="text-sm text-gray-600" data-testid="period-dates">
          {periodLine}
        </span>
      </div>

      {exportError !== null && <ErrorBox className="mb-4" title="L'export a échoué" message={exportError} />}

      {dashboard.isPending ? (
        <Spinner />
      ) : dashboard.isError ? (
        <ErrorBox message={dashboard.error.message} />
      ) : (
        counters &&
        data && (
          <div className="space-y-6" aria-busy={dashboard.isFetching || undefined}>
            <div className="space-y-4">
              <section aria-labelledby={nowTitleId}>
                <h2 id={nowTitleId} className="mb-2 text-sm font-semibold uppercase tracking-wide text-gray-600">
                  À ce jour
                </h2>
                <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  <Counter
                    label="Taux de conformité"
                    value={formatRate(counters.validation_rate)}
                    tone={counters.validation_level ?? levelOf(counters.validation_rate)}
                    icon={<ShieldCheck className="h-8 w-8" />}
                    hint={[
                      VALIDATION_RATE_BASIS,
                      shareText(counters.validated_rights, counters.total_rights, 'droit validé', 'droits validés'),
                    ]}
                  />
                  <Counter label="Comptes à risque" value={counters.at_risk_rights} icon={<AlertTriangle className="h-8 w-8" />} hint={[AT_RISK_BASIS]} />
                  <Counter label="Revues en cours" value={counters.reviews_in_progress} icon={<Clock className="h-8 w-8" />} hint={['campagnes actives']} />
                </div>
              </section>
              <section aria-labelledby={periodTitleId}>
                <h2 id={periodTitleId} className="mb-2 text-sm font-semibold uppercase tracking-wide text-gray-600">
                  Sur la période <span className="font-normal normal-case tracking-normal">({periodLine.toLowerCase()})</span>
                </h2>
                <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  <Counter
                    label="Revues complétées"
                    value={counters.reviews_completed}
                    icon={<CheckCircle2 className="h-8 w-8" />}
                    hint={['campagnes terminées menées sur la période']}
                  />
                  <Counter
                    label="Décisions"
                    value={data.activity?.decisions ?? 0}
                    icon={<Gavel className="h-8 w-8" />}
                    hint={[
                      `${countText(data.activity?.approved ?? 0, 'validation', 'validations')}, ${countText(data.activity?.refused ?? 0, 'refus', 'refus')}`,
                    ]}
                  />
                </div>
              </section>
            </div>

            <div className="grid gap-6 lg:grid-cols-2">
              <Card role="region" aria-labelledby={applicationsTitleId}>
                <CardHeader>
                  <CardTitle id={applicationsTitleId}>Conformité par application</CardTitle>
                  <CardDescription>À ce jour, part des droits validés : {VALIDATION_RATE_BASIS} de l’application.</CardDescription>
                </CardHeader>
                <CardContent className="space-y-3">
                  <ApplicationComplianceList key={JSON.stringify(filters)} applications={data.compliance_by_application} />
                </CardContent>
              </Card>

              <Card>
                <CardHeader>
                  <CardTitle>Risques détectés</CardTitle>
                  <CardDescription>À ce jour. Chaque risque ouvre la liste de ce qu’il compte.</CardDescription>
                </CardHeader>
                <CardContent>
                  <ul className="divide-y divide-gray-100" aria-label="Risques détectés">
                    {data.risks.map((risk) => (
                      <RiskTile key={risk.key} risk={risk} onOpen={() => setOpenRisk(risk)} />
                    ))}
                    <UnverifiedRemovalsTile today={today} />
                  </ul>
                </CardContent>
              </Card>
            </div>

            <Card>
              <CardHeader className="flex items-center justify-between">
                <CardTitle>Campagnes actives</CardTitle>
                <ListChecks aria-hidden="true" className="h-5 w-5 text-gray-400" />
              </CardHeader>
              <Table caption="Campagnes actives">
                <TableHead>
                  <tr>
                    <TableHeaderCell>Campagne</TableHeaderCell>
                    {/* On a phone these go under the name, so that the progress stays in view without scrolling sideways. */}
                    <TableHeaderCell className="max-md:hidden">Application</TableHeaderCell>
                    <TableHeaderCell className="max-md:hidden">Début</TableHeaderCell>
                    <TableHeaderCell className="max-md:hidden">Fin</TableHeaderCell>
                    <TableHeaderCell className="max-md:hidden">Droits revus</TableHeaderCell>
                    <TableHeaderCell>Progression</TableHeaderCell>
                  </tr>
                </TableHead>
                <TableBody>
                  {data.active_campaigns.length === 0 ? (
                    <TableEmptyRow colSpan={6} message="Aucune campagne active." />
                  ) : (
                    data.active_campaigns.map((campaign) => (
                      <TableRow key={campaign.id}>
                        <TableCell className="font-medium">
                          {campaign.name}
                          <span className="block text-xs font-normal text-gray-600 md:hidden">
                            {campaign.application_name ?? 'Toutes applications'}, jusqu’au {formatDate(campaign.end_date)} ;{' '}
                            {reviewedText(campaign.reviewed_rights, campaign.total_rights)}
                          </span>
                        </TableCell>
                        <TableCell className="max-md:hidden">{campaign.application_name ?? 'Toutes'}</TableCell>
                        <TableCell className="max-md:hidden">{formatDate(campaign.start_date)}</TableCell>
                        <TableCell className="max-md:hidden">{formatDate(campaign.end_date)}</TableCell>
                        <TableCell className="max-md:hidden">
                          {campaign.reviewed_rights}/{campaign.total_rights}
                        </TableCell>
                        <TableCell className="min-w-24 md:min-w-40">
                          <ProgressBar kind="progress" value={campaign.progress ?? 0} label={`Progression ${campaign.name}`} />
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </Card>

            <RssiTrends filters={filters} />
          </div>
        )
      )}

      {openRisk && (
        <Suspense fallback={null}>
          <RiskListDialog risk={openRisk} filters={filters} onClose={() => setOpenRisk(null)} />
        </Suspense>
      )}

      {filtersOpen && (
        <Suspense fallback={null}>
          <DashboardFiltersDialog
            open={filtersOpen}
            filters={filters}
            applications={applications}
            onApply={setFilters}
            onClose={() => setFiltersOpen(false)}
          />
        </Suspense>
      )}
    </div>
  )
}
