import { screen, waitFor, within } from '@testing-library/react'
import { queryOptions } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { ComplianceReport } from '@/features/compliance/model'

const stubs = vi.hoisted(() => ({ fetchComplianceReport: vi.fn() }))

vi.mock('@/features/compliance/api', () => ({
  useLiveCompliance: () => {},
  complianceReportQuery: (applicationId: string) =>
    queryOptions({
      queryKey: ['compliance', 'report', applicationId],
      queryFn: () => stubs.fetchComplianceReport(applicationId) as Promise<ComplianceReport>,
    }),
}))
vi.mock('@/features/rights/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/rights/api')>()),
  useApplicationOptions: () => ({ data: [{ id: 'app-sap', name: 'SAP' }] }),
}))

const REPORT: ComplianceReport = {
  as_of: '2026-11-21T08:00:00Z',
  cards: {
    total_rights: 1200,
    compliant_rights: 1100,
    non_compliant_rights: 100,
    compliance_rate: 92,
    compliance_level: 'green',
    active_rules: 2,
    validated_rights: 700,
  },
  rules: [
    {
      id: 'r1',
      name: 'Comptes inactifs',
      description: 'Aucune utilisation depuis 90 jours',
      global: true,
      application_id: null,
      application_name: null,
      parameters: { inactivity_threshold: 90 },
      enabled: true,
      state: 'evaluated',
      violations: 42,
      violations_by_parameter: { inactivity_threshold: 42 },
      ignored_parameters: [],
    },
    {
      id: 'r2',
      name: 'Règle coupée',
      description: null,
      global: false,
      application_id: 'app-sap',
      application_name: 'SAP',
      parameters: {},
      enabled: false,
      state: 'disabled',
      violations: null,
      violations_by_parameter: null,
      ignored_parameters: null,
    },
  ],
  applications: [
    { application_id: 'app-sap', application_name: 'SAP', total_rights: 1200, compliant_rights: 1100, non_compliant_rights: 100, rate: 92, level: 'green' },
  ],
}

beforeEach(() => {
  stubs.fetchComplianceReport.mockReset().mockResolvedValue(REPORT)
})

describe('Compliance page', () => {
  it('shows the cards, the rules with their violations and the per-application table, and filters by application', async () => {
    const { user } = renderApp({ path: '/app/compliance', gateway: createFakeGateway({ sessionUser: makeUser('rssi') }) })
    const rate = (await screen.findByText('Taux de conformité', { selector: 'p' }, { timeout: 10_000 })).nextSibling
    expect(rate).toHaveTextContent('92%')
    expect(rate).toHaveAttribute('data-tone', 'green')
    const nonCompliant = screen.getByText('Non conformes', { selector: 'p' }).nextSibling
    expect(nonCompliant).toHaveTextContent('100')
    expect(nonCompliant).toHaveAccessibleDescription('droits refusés ou inactifs')
    // Not the RSSI dashboard's rate (validated / all): the figure says what it counts.
    expect(rate).toHaveAccessibleDescription('droits ni refusés ni inactifs / tous les droits 1\u202f100 droits conformes sur 1\u202f200')
    expect(screen.getByText('Part des droits conformes : droits ni refusés ni inactifs / tous les droits de l’application.')).toBeInTheDocument()

    const rules = screen.getByRole('table', { name: 'Règles de contrôle' })
    const [, evaluated, disabled] = within(rules).getAllByRole('row')
    expect(evaluated).toHaveTextContent('Comptes inactifs')
    expect(evaluated).toHaveTextContent('42')
    expect(disabled).toHaveTextContent('Désactivée')

    const apps = screen.getByRole('table', { name: 'Conformité par application' })
    expect(within(apps).getByRole('progressbar', { name: 'Conformité SAP' })).toHaveAttribute('aria-valuenow', '92')

    await user.click(screen.getByRole('button', { name: 'Filtres' }))
    const dialog = screen.getByRole('dialog', { name: 'Filtres' })
    await user.selectOptions(within(dialog).getByLabelText('Application'), 'app-sap')
    await user.click(within(dialog).getByRole('button', { name: 'Appliquer' }))
    await waitFor(() => expect(stubs.fetchComplianceReport).toHaveBeenLastCalledWith('app-sap'))
    expect(screen.getByRole('button', { name: 'Filtres (1)' })).toBeInTheDocument()
  })

  it('exports a CSV that says which application it was filtered to', async () => {
    const files: { name: string; text: Promise<string> }[] = []
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      files.push({ name: '', text: (blob as Blob).text() })
      return 'blob:compliance'
    })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      files[files.length - 1]!.name = this.download
    })
    try {
      const { user } = renderApp({ path: '/app/compliance', gateway: createFakeGateway({ sessionUser: makeUser('rssi') }) })
      await screen.findByText('Taux de conformité', { selector: 'p' }, { timeout: 10_000 })
      await user.selectOptions(screen.getByLabelText('Application'), 'app-sap')
      await waitFor(() => expect(stubs.fetchComplianceReport).toHaveBeenLastCalledWith('app-sap'))
      await user.click(screen.getByRole('button', { name: 'Export' }))
      expect(files).toHaveLength(1)
      expect(files[0]!.name).toMatch(/^conformite-sap-\d{4}-\d{2}-\d{2}\.csv$/)
      const lines = (await files[0]!.text).replace(/^\uFEFF/, '').split(/\r?\n/)
      expect(lines.slice(0, 3)).toEqual(['Filtres', 'Filtre;Valeur', 'Application;SAP'])
    } finally {
      createObjectURL.mockRestore()
      click.mockRestore()
    }
  })
})

