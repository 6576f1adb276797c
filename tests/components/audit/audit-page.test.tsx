import { act, screen, waitFor, within } from '@testing-library/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { AuditEvent, AuditFilters, AuditSeal } from '@/features/audit/model'
import { NO_NAMES, type AuditNames } from '@/features/audit/sentence'

const stubs = vi.hoisted(() => ({
  fetchAuditPage: vi.fn(),
  fetchAuditCount: vi.fn(),
  fetchAuditSeal: vi.fn(),
  fetchAllAuditEvents: vi.fn(),
  names: { current: undefined as AuditNames | undefined },
}))

// The api neighbour is stubbed with a server of 250 events that filters and pages like rssi_audit_events.
vi.mock('@/features/audit/api', () => ({
  useLiveAudit: () => {},
  useAuditPage: (filters: AuditFilters, page: number) =>
    useQuery({
      queryKey: ['audit', 'page', filters, page],
      queryFn: async () => ({ events: (await stubs.fetchAuditPage(filters, page)) as AuditEvent[], names: stubs.names.current! }),
      placeholderData: keepPreviousData,
    }),
  useAuditCount: (filters: AuditFilters) =>
    useQuery({ queryKey: ['audit', 'count', filters], queryFn: () => stubs.fetchAuditCount(filters) as Promise<number> }),
  useAuditFilterOptions: () => ({
    data: {
      actions: ['create', 'decide', 'import_rights'],
      users: [
        { user_id: '00000000-0000-0000-0000-000000000000', user_email: null, user_name: null },
        { user_id: 'u-marie', user_email: 'marie@example.com', user_name: 'Marie Curie' },
      ],
    },
  }),
  fetchAllAuditEvents: stubs.fetchAllAuditEvents,
  useAuditSeal: () => useQuery({ queryKey: ['audit-seal'], queryFn: () => stubs.fetchAuditSeal() as Promise<AuditSeal> }),
}))

const EVENTS: AuditEvent[] = Array.from({ length: 250 }, (_, index) => {
  const id = 250 - index
  return {
    id,
    user_id: id % 2 === 0 ? 'u-marie' : null,
    user_email: id % 2 === 0 ? 'marie@example.com' : null,
    user_name: id % 2 === 0 ? 'Marie Curie' : null,
    action: id % 5 === 0 ? 'decide' : 'create',
    resource_type: 'user_rights',
    resource_id: `res-${id}`,
    details: { n: id, html: '<b>pas du HTML</b>' },
    timestamp: new Date(Date.UTC(2026, 10, 20, 12, 0) - index * 60_000).toISOString(),
    ip_address: id === 250 ? '10.0.0.7' : null,
  }
})

function matching(filters: AuditFilters) {
  return EVENTS.filter((event) => (!filters.action || event.action === filters.action) && (!filters.userId || event.user_id === filters.userId))
}

beforeEach(() => {
  stubs.fetchAuditPage.mockReset().mockImplementation(async (filters: AuditFilters, page: number) => matching(filters).slice(page * 100, page * 100 + 100))
  stubs.fetchAuditCount.mockReset().mockImplementation(async (filters: AuditFilters) => matching(filters).length)
  stubs.fetchAuditSeal.mockReset().mockResolvedValue(INTACT)
  stubs.fetchAllAuditEvents.mockReset()
  stubs.names.current = NO_NAMES
})

const HEAD = 'a0465e'.padEnd(64, '7')
const INTACT: AuditSeal = { intact: true, rows_checked: 2109, head_id: 2109, head_hash: HEAD, first_broken_id: null, reason: null }

function renderAudit() {
  return renderApp({ path: '/app/audit', gateway: createFakeGateway({ sessionUser: makeUser('rssi') }) })
}

const bodyRows = () => within(screen.getByRole('table', { name: "Journal d'audit" })).getAllByRole('row').slice(1)

describe('Audit page', () => {
  it('shows 100 events per page, newest first, and pages with Précédent and Suivant', async () => {
    const { user } = renderAudit()
    expect(await screen.findByText('250 événements', {}, { timeout: 10_000 })).toBeInTheDocument()
    await waitFor(() => expect(bodyRows()).toHaveLength(100))
    expect(screen.getByText(/Événements 1 à 100 sur 250 · Page 1 sur 3/)).toBeInTheDocument()

    const first = bodyRows()[0]!
    expect(within(first).getByText('res-250')).toBeInTheDocument()
    expect(within(first).getByText('20 novembre 2026', { exact: false })).toBeInTheDocument()
    expect(within(first).getByText('Marie Curie')).toBeInTheDocument()
    expect(within(first).getByText('Décision')).toBeInTheDocument()
    expect(within(bodyRows()[1]!).getByText('Création')).toBeInTheDocument()
    expect(within(first).getByText('10.0.0.7')).toBeInTheDocument()
    const details = first.querySelector('pre')
    expect(details).not.toBeVisible()
    expect(details?.textContent).toBe('{\n  "n": 250,\n  "html": "<b>pas du HTML</b>"\n}')
    expect(details?.querySelector('b')).toBeNull()
    expect(within(bodyRows()[1]!).getByText('Système')).toBeInTheDocument()
    expect(within(bodyRows()[1]!).getByText('-')).toBeInTheDocument()

    expect(screen.getByRole('button', { name: 'Précédent' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Suivant' }))
    await waitFor(() => expect(within(bodyRows()[0]!).getByText('res-150')).toBeInTheDocument())
    expect(stubs.fetchAuditPage).toHaveBeenLastCalledWith(expect.anything(), 1)

    await user.click(screen.getByRole('button', { name: 'Suivant' }))
    await waitFor(() => expect(bodyRows()).toHaveLength(50))
    expect(screen.getByText(/Événements 201 à 250 sur 250 · Page 3 sur 3/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Suivant' })).toBeDisabled()

    await user.click(screen.getByRole('button', { name: 'Précédent' }))
    await waitFor(() => expect(within(bodyRows()[0]!).getByText('res-150')).toBeInTheDocument())
  })

  it('asks the server for the filtered events and goes back to the first page', async () => {
    const { user } = renderAudit()
    await screen.findByText('250 événements', {}, { timeout: 10_000 })
    await user.click(screen.getByRole('button', { name: 'Suivant' }))
    await waitFor(() => expect(screen.getByText(/Page 2 sur 3/)).toBeInTheDocument())

    expect(within(screen.getByLabelText('Action')).getByRole('option', { name: 'Décision' })).toBeInTheDocument()
    expect(within(screen.getByLabelText('Action')).getByRole('option', { name: 'import_rights' })).toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Action'), 'decide')
    expect(await screen.findByText('50 événements')).toBeInTheDocument()
    expect(stubs.fetchAuditPage).toHaveBeenLastCalledWith(expect.objectContaining({ action: 'decide' }), 0)
    await waitFor(() => expect(bodyRows()).toHaveLength(50))
    expect(screen.getByRole('button', { name: 'Suivant' })).toBeDisabled()

    await user.selectOptions(screen.getByLabelText('Utilisateur'), 'u-marie')
    expect(await screen.findByText('25 événements')).toBeInTheDocument()
    expect(stubs.fetchAuditCount).toHaveBeenLastCalledWith(expect.objectContaining({ action: 'decide', userId: 'u-marie' }))
  })

  it('sends the search to the server once typing pauses', async () => {
    const { user } = renderAudit()
    await screen.findByText('250 événements', {}, { timeout: 10_000 })
    await user.type(screen.getByLabelText('Recherche'), 'res-42')
    await waitFor(() => expect(stubs.fetchAuditCount).toHaveBeenLastCalledWith(expect.objectContaining({ search: 'res-42' })))
    expect(stubs.fetchAuditCount).not.toHaveBeenCalledWith(expect.objectContaining({ search: 'r' }))
  })

  it('opens Filtres on the filters in use, refuses a start after the end, and applies every filter at once', async () => {
    const { user } = renderAudit()
    await screen.findByText('250 événements', {}, { timeout: 10_000 })
    await user.selectOptions(screen.getByLabelText('Action'), 'decide')
    await user.type(screen.getByLabelText('Recherche'), 'res')

    await user.click(screen.getByRole('button', { name: 'Filtres' }))
    const dialog = screen.getByRole('dialog', { name: 'Filtres' })
    expect(within(dialog).getByLabelText('Recherche dans le journal')).toHaveValue('res')
    expect(within(dialog).getByLabelText('Action du journal')).toHaveValue('decide')

    await user.type(within(dialog).getByLabelText('Date de début'), '2026-11-21')
    await user.type(within(dialog).getByLabelText('Date de fin'), '2026-11-20')
    expect(within(dialog).getByRole('button', { name: 'Appliquer' })).toBeDisabled()
    await user.clear(within(dialog).getByLabelText('Date de début'))
    await user.type(within(dialog).getByLabelText('Date de début'), '2026-11-19')
    await user.clear(within(dialog).getByLabelText('Recherche dans le journal'))
    await user.type(within(dialog).getByLabelText('Recherche dans le journal'), 'res-10')
    await user.click(within(dialog).getByRole('button', { name: 'Appliquer' }))

    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByLabelText('Recherche')).toHaveValue('res-10')
    await waitFor(() =>
      expect(stubs.fetchAuditPage).toHaveBeenLastCalledWith({ search: 'res-10', userId: '', action: 'decide', from: '2026-11-19', to: '2026-11-20' }, 0),
    )

    await user.click(screen.getByRole('button', { name: 'Filtres' }))
    await user.click(within(screen.getByRole('dialog', { name: 'Filtres' })).getByRole('button', { name: 'Réinitialiser' }))
    expect(within(screen.getByRole('dialog', { name: 'Filtres' })).getByLabelText('Action du journal')).toHaveValue('')
  })

  it('counts the events read while the CSV export runs, agreed with the number', async () => {
    const pending = { progress: (_fetched: number) => {}, fail: (_error: Error) => {} }
    stubs.fetchAllAuditEvents.mockImplementation(
      (_filters: AuditFilters, onProgress: (fetched: number) => void) =>
        new Promise((_resolve, reject) => {
          pending.progress = onProgress
          pending.fail = reject
        }),
    )
    const { user } = renderAudit()
    await screen.findByText('250 événements', {}, { timeout: 10_000 })
    await user.click(screen.getByRole('button', { name: 'Exporter CSV' }))
    const button = screen.getByRole('button', { name: /^Export en cours/ })
    expect(button).toHaveTextContent(/Export en cours… \(0 événement\)$/)
    act(() => pending.progress(1))
    expect(button).toHaveTextContent(/Export en cours… \(1 événement\)$/)
    act(() => pending.progress(2))
    expect(button).toHaveTextContent(/Export en cours… \(2 événements\)$/)
    await act(async () => pending.fail(new Error('Lecture interrompue.')))
    expect(await screen.findByRole('button', { name: 'Exporter CSV' })).toBeInTheDocument()
  })

  it('shows the seal of the trail with its head hash, and checks it again on request', async () => {
    const { user } = renderAudit()
    const seal = await screen.findByTestId('audit-seal')
    expect(await within(seal).findByRole('heading', { name: 'Journal scellé' })).toBeInTheDocument()
    expect(within(seal).getByText(/Les 2\s?109 entrées du journal forment une chaîne intacte/)).toBeInTheDocument()
    expect(within(seal).getByTestId('audit-seal-head')).toHaveTextContent(HEAD)
    expect(stubs.fetchAuditSeal).toHaveBeenCalledTimes(1)

    stubs.fetchAuditSeal.mockResolvedValue({ ...INTACT, intact: false, first_broken_id: 42, reason: 'hash_mismatch' })
    await user.click(within(seal).getByRole('button', { name: 'Vérifier à nouveau' }))
    expect(await within(seal).findByRole('heading', { name: 'Journal altéré' })).toBeInTheDocument()
    expect(within(seal).getByText("L'entrée n° 42 a été modifiée.")).toBeInTheDocument()
    expect(stubs.fetchAuditSeal).toHaveBeenCalledTimes(2)
  })

  it('names a missing row and a broken link', async () => {
    stubs.fetchAuditSeal.mockResolvedValue({ ...INTACT, intact: false, first_broken_id: 7, reason: 'missing_row' })
    renderAudit()
    const seal = await screen.findByTestId('audit-seal')
    expect(await within(seal).findByText("Une entrée manque avant l'entrée n° 7.")).toBeInTheDocument()
  })

  it('tells each event as a sentence and opens its raw JSON from the keyboard', async () => {
    stubs.names.current = {
      ...NO_NAMES,
      decisions: new Map([['d-1', { role_name: 'Lecteur', holder_name: 'Julie Martin', application_name: '<b>SAP</b> Finance' }]]),
    }
    const decision: AuditEvent = {
      id: 9,
      user_id: 'u-marc',
      user_email: 'manager@example.com',
      user_name: 'Marc Dubois',
      action: 'decide',
      resource_type: 'user_rights',
      resource_id: 'r-1',
      details: { stage: 'manager', decision: 'refused', from_status: 'pending', to_status: 'refused_manager', comment: 'Jamais utilisé', decision_id: 'd-1' },
      timestamp: '2026-11-20T12:00:00Z',
      ip_address: null,
    }
    stubs.fetchAuditPage.mockResolvedValue([decision])
    stubs.fetchAuditCount.mockResolvedValue(1)
    const { user } = renderAudit()
    await screen.findByText('1 événement', {}, { timeout: 10_000 })
    const row = bodyRows()[0]!
    expect(within(row).getByText('Marc Dubois a refusé le droit « Lecteur » de Julie Martin sur <b>SAP</b> Finance — « Jamais utilisé »')).toBeInTheDocument()
    expect(row.querySelector('b')).toBeNull()
    expect(within(row).getByText('Statut : En attente → Refusé par le manager')).toBeInTheDocument()
    expect(within(row).getByText('Droit')).toBeInTheDocument()

    const toggle = within(row).getByRole('button', { name: 'Détails (JSON)' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const json = document.getElementById(toggle.getAttribute('aria-controls')!)!
    expect(json).not.toBeVisible()
    // Tab through the page's controls until the toggle has the focus: it is reachable without a mouse.
    for (let presses = 0; presses < 50 && document.activeElement !== toggle; presses += 1) await user.tab()
    expect(toggle).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(json).toBeVisible()
    expect(json.textContent).toContain('"decision_id": "d-1"')
    await user.keyboard(' ')
    expect(json).not.toBeVisible()
  })
})
