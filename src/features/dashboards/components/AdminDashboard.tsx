import { useState, type ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { AppWindow, FileClock, PlayCircle, Plus, Upload, Users } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { campaignFigureLines } from '@/domain/campaign-figures'
import { formatDate } from '@/lib/dates'
import { campaignStatusLabel, roleLabel, type CampaignStatus } from '@/domain/labels'
import { campaignStatusTone } from '@/lib/tones'
import { useAdminCounters, useApplicationSummaries, useDirectoryUsers } from '../api'

type Tab = 'campaigns' | 'users' | 'applications'
const TABS: { key: Tab; label: string }[] = [
  { key: 'campaigns', label: 'Campagnes' },
  { key: 'users', label: 'Utilisateurs' },
  { key: 'applications', label: 'Applications' },
]

function Counter({ label, value, icon }: { label: string; value: number | undefined; icon: ReactNode }) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <span className="rounded-full bg-primary-50 p-3 text-primary-700">{icon}</span>
      <div>
        <p className="text-sm text-gray-600">{label}</p>
        <p className="text-2xl font-semibold text-gray-900">{value ?? '…'}</p>
      </div>
    </Card>
  )
}

function Details({ to, name }: { to: string; name: string }) {
  return (
    <Link to={to} className={buttonClasses({ size: 'sm', variant: 'outline' })} aria-label={`Détails de ${name}`}>
      Détails
    </Link>
  )
}

interface QueryState<T> {
  isPending: boolean
  error: Error | null
  data: T | undefined
}

/** A campaign as the admin dashboard lists it; the campaigns feature's list, passed by the route, fits it. */
export interface AdminCampaign {
  id: string
  name: string
  status: CampaignStatus
  endDate: string
  /** The review rate: rights reviewed (« revus ») / all its rights. */
  progress: number | null
  rightsCount: number
  reviewedCount: number
  /** Sent to the RA undecided when the campaign closed. */
  undecidedCount: number
}

interface TabTableProps<Row> {
  query: QueryState<readonly Row[]>
  caption: string
  headings: string[]
  /** What the table says when the list is empty. */
  empty: string
  /** A row's cells. */
  cells: (row: Row) => ReactNode
}

/** A tab's list: a spinner while it loads, its error if it failed, else its table, saying so when it is empty. */
function TabTable<Row extends { id: string }>({ query, caption, headings, empty, cells }: TabTableProps<Row>) {
  if (query.isPending) return <Spinner className="py-10" />
  if (query.error) return <ErrorBox message={query.error.message} className="m-4" />
  const rows = query.data ?? []
  return (
    <Table caption={caption}>
      <TableHead>
        <tr>
          {headings.map((heading) => (
            <TableHeaderCell key={heading}>{heading}</TableHeaderCell>
          ))}
        </tr>
      </TableHead>
      <TableBody>
        {rows.length === 0 && <TableEmptyRow colSpan={headings.length} message={empty} />}
        {rows.map((row) => (
          <TableRow key={row.id}>{cells(row)}</TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

interface AdminDashboardProps {
  title: string
  /** The campaigns feature's list, read by the route. */
  campaigns: QueryState<readonly AdminCampaign[]>
  /** Where a campaign's Détails leads. */
  campaignHref: (campaignId: string) => string
  /** Open the campaigns feature's dialogs, which the route renders. */
  onImport: () => void
  onCreateCampaign: () => void
}

/** The admin's dashboard on live data (ARCHITECTURE §6): counters, then campaigns, people and applications by tab. */
export function AdminDashboard({ title, campaigns, campaignHref, onImport, onCreateCampaign }: AdminDashboardProps) {
  const counters = useAdminCounters()
  const users = useDirectoryUsers()
  const applications = useApplicationSummaries()
  const [tab, setTab] = useState<Tab>('campaigns')

  return (
    <>
      <PageHeader
        title={title}
        description="Administration des campagnes de revue"
        actions={
          <>
            <Button variant="outline" leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />} onClick={onImport}>
              Import CSV
            </Button>
            <Button
              leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />}
              onClick={onCreateCampaign}
            >
              Nouvelle campagne
            </Button>
          </>
        }
      />
      {counters.error && <ErrorBox message={counters.error.message} className="mb-4" />}
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Counter label="Campagnes actives" value={counters.data?.active_campaigns} icon={<PlayCircle aria-hidden="true" className="h-6 w-6" />} />
        <Counter label="Utilisateurs" value={counters.data?.users} icon={<Users aria-hidden="true" className="h-6 w-6" />} />
        <Counter label="Applications" value={counters.data?.applications} icon={<AppWindow aria-hidden="true" className="h-6 w-6" />} />
        <Counter label="Brouillons" value={counters.data?.draft_campaigns} icon={<FileClock aria-hidden="true" className="h-6 w-6" />} />
      </div>
      <Card>
        <div role="tablist" aria-label="Administration" className="flex gap-2 border-b border-gray-100 px-4 pt-3">
          {TABS.map(({ key, label }) => (
            <button
              key={key}
              type="button"
              role="tab"
              id={`admin-tab-${key}`}
              aria-selected={tab === key}
              aria-controls={`admin-panel-${key}`}
              onClick={() => setTab(key)}
              className={
                tab === key
                  ? 'border-b-2 border-primary-600 px-3 pb-2 text-sm font-medium text-primary-700'
                  : 'border-b-2 border-transparent px-3 pb-2 text-sm text-gray-600 hover:text-gray-900'
              }
            >
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
          {tab === 'campaigns' && (
            <TabTable
              query={campaigns}
              caption="Campagnes"
              headings={['Nom', 'Statut', 'Fin', 'Progression', 'Actions']}
              empty="Aucune campagne."
              cells={(campaign) => (
                <>
                  <TableCell className="font-medium">{campaign.name}</TableCell>
                  <TableCell>
                    <Badge tone={campaignStatusTone(campaign.status)}>{campaignStatusLabel(campaign.status)}</Badge>
                  </TableCell>
                  <TableCell>{formatDate(campaign.endDate)}</TableCell>
                  <TableCell className="min-w-[140px]">
                    <ProgressBar kind="progress" value={campaign.progress ?? 0} label={`Progression de ${campaign.name}`} />
                    {campaignFigureLines(campaign).map((line) => (
                      <p key={line} className="mt-1 text-xs text-gray-500">
                        {line}
                      </p>
                    ))}
                  </TableCell>
                  <TableCell>
                    <Details to={campaignHref(campaign.id)} name={campaign.name} />
                  </TableCell>
                </>
              )}
            />
          )}
          {tab === 'users' && (
            <TabTable
              query={users}
              caption="Utilisateurs"
              headings={['Nom', 'E-mail', 'Rôle', 'Département', 'Actions']}
              empty="Aucun utilisateur."
              cells={(row) => {
                const name = `${row.first_name} ${row.last_name}`
                return (
                  <>
                    <TableCell className="font-medium">{name}</TableCell>
                    <TableCell>{row.email}</TableCell>
                    <TableCell>
                      <Badge>{roleLabel(row.role)}</Badge>
                    </TableCell>
                    <TableCell>{row.department || '-'}</TableCell>
                    <TableCell>
                      <Details to={`/app/users?utilisateur=${row.id}`} name={name} />
                    </TableCell>
                  </>
                )
              }}
            />
          )}
          {tab === 'applications' && (
            <TabTable
              query={applications}
              caption="Applications"
              headings={['Nom', 'Description', 'Création', 'Actions']}
              empty="Aucune application."
              cells={(row) => (
                <>
                  <TableCell className="font-medium">{row.name}</TableCell>
                  <TableCell>{row.description || '-'}</TableCell>
                  <TableCell>{formatDate(row.created_at)}</TableCell>
                  <TableCell>
                    <Details to={`/app/applications?application=${row.id}`} name={row.name} />
                  </TableCell>
                </>
              )}
            />
          )}
        </div>
      </Card>
    </>
  )
}
