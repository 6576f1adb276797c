import { screen, within } from '@testing-library/react'
import { useQuery } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { AuditEvent, AuditSeal } from '@/features/audit/model'
import { NO_NAMES, type AuditNames } from '@/features/audit/sentence'

// The audit page as the RSSI reads it: the actions the database writes beyond the row changes (a sign-off, a
// delegation, a deactivation), each in French, with people named and no code or id in the event's text.
const MARC = '5b0a2c1e-0000-4000-8000-000000000001'
const JULIE = '5b0a2c1e-0000-4000-8000-000000000002'
const CAMPAIGN = '5b0a2c1e-0000-4000-8000-0000000000c1'
const SAP = '5b0a2c1e-0000-4000-8000-0000000000a1'

const NAMES: AuditNames = {
  ...NO_NAMES,
  users: new Map([
    [MARC, 'Marc Dubois'],
    [JULIE, 'Julie Martin'],
  ]),
  applications: new Map([[SAP, 'SAP Finance']]),
  campaigns: new Map([[CAMPAIGN, 'Revue T4 2026']]),
  decisions: new Map([['decision-1', { role_name: 'Lecteur', holder_name: 'Julie Martin', application_name: 'SAP Finance' }]]),
}

const base = { user_id: MARC, user_email: 'manager@example.com', user_name: 'Marc Dubois', timestamp: '2026-11-20T12:00:00Z', ip_address: null }

const EVENTS: AuditEvent[] = [
  {
    ...base,
    id: 4,
    action: 'sign_off',
    resource_type: 'campaigns',
    resource_id: CAMPAIGN,
    details: { stage: 'manager', items: 12, statement: "Je certifie avoir revu l'ensemble des droits qui m'étaient confiés" },
  },
  {
    ...base,
    id: 3,
    action: 'decide',
    resource_type: 'user_rights',
    resource_id: 'right-1',
    details: { stage: 'manager', decision: 'approved', from_status: 'pending', to_status: 'validated_manager', comment: null, holder_id: JULIE, application_id: SAP, campaign_id: CAMPAIGN, decision_id: 'decision-1' },
  },
  {
    ...base,
    id: 2,
    action: 'delegate',
    resource_type: 'review_delegations',
    resource_id: 'delegation-1',
    details: { campaign_id: CAMPAIGN, delegator_id: MARC, delegator_name: 'Marc Dubois', delegate_id: JULIE, delegate_name: 'Julie Martin', stage: 'manager', items: null, reason: 'Congés', ends_on: '2026-12-31' },
  },
  {
    ...base,
    id: 1,
    action: 'update',
    resource_type: 'users',
    resource_id: JULIE,
    details: { changes: { active: { old: true, new: false }, deactivated_by: { old: null, new: MARC } } },
  },
]

vi.mock('@/features/audit/api', () => ({
  useLiveAudit: () => {},
  useAuditPage: () => useQuery({ queryKey: ['audit', 'page'], queryFn: async () => ({ events: EVENTS, names: NAMES }) }),
  useAuditCount: () => useQuery({ queryKey: ['audit', 'count'], queryFn: async () => EVENTS.length }),
  useAuditFilterOptions: () => ({ data: { actions: ['decide', 'delegate', 'invite_users', 'sign_off'], users: [] } }),
  fetchAllAuditEvents: vi.fn(),
  useAuditSeal: () =>
    useQuery({
      queryKey: ['audit-seal'],
      queryFn: async (): Promise<AuditSeal> => ({ intact: true, rows_checked: 4, head_id: 4, head_hash: 'a'.repeat(64), first_broken_id: null, reason: null }),
    }),
}))

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i
const CODE = /\b(sign_off|delegate|decide|approved|manager_id|deactivated_by|validated_manager)\b/

describe('Audit page in French', () => {
  it('tells a sign-off, a decision, a delegation and a deactivation in French, without codes or ids', async () => {
    renderApp({ path: '/app/audit', gateway: createFakeGateway({ sessionUser: makeUser('rssi') }) })
    expect(await screen.findByText('4 événements', {}, { timeout: 10_000 })).toBeInTheDocument()
    const rows = within(screen.getByRole('table', { name: "Journal d'audit" })).getAllByRole('row').slice(1)
    const [signOff, decision, delegation, deactivation] = rows as [HTMLElement, HTMLElement, HTMLElement, HTMLElement]

    expect(within(signOff).getByText('Signature de campagne')).toBeInTheDocument()
    expect(
      within(signOff).getByText(
        "Marc Dubois a signé l'étape Manager de la campagne « Revue T4 2026 » (12 éléments de revue) : « Je certifie avoir revu l'ensemble des droits qui m'étaient confiés »",
      ),
    ).toBeInTheDocument()

    expect(within(decision).getByText('Décision')).toBeInTheDocument()
    expect(within(decision).getByText('Marc Dubois a validé le droit « Lecteur » de Julie Martin sur SAP Finance')).toBeInTheDocument()
    expect(within(decision).getByText('Statut : En attente → Validé par le manager')).toBeInTheDocument()

    expect(within(delegation).getByText('Délégation de revues')).toBeInTheDocument()
    expect(within(delegation).getByText('Délégation')).toBeInTheDocument()
    expect(
      within(delegation).getByText(
        "Marc Dubois a délégué ses revues à Julie Martin jusqu'au 31 décembre 2026 (campagne « Revue T4 2026 », étape Manager) — « Congés »",
      ),
    ).toBeInTheDocument()

    expect(within(deactivation).getByText('Désactivé par : (vide) → Marc Dubois')).toBeInTheDocument()
    expect(within(deactivation).getByText('Actif : Oui → Non')).toBeInTheDocument()

    // The event's text (its sentence and changes) holds no code and no id: only the raw JSON, folded, does.
    for (const row of rows) {
      const event = row.querySelectorAll('td')[3]!
      expect(event.textContent).not.toMatch(UUID)
      expect(event.textContent).not.toMatch(CODE)
    }
  })

  it('lists the actions of the filter by their French names', async () => {
    renderApp({ path: '/app/audit', gateway: createFakeGateway({ sessionUser: makeUser('rssi') }) })
    await screen.findByText('4 événements', {}, { timeout: 10_000 })
    const select = screen.getByLabelText('Action', { selector: 'select' })
    const options = within(select).getAllByRole('option').map((option) => option.textContent)
    expect(options).toEqual(expect.arrayContaining(['Décision', 'Délégation de revues', 'Invitation de comptes', 'Signature de campagne']))
    expect(options.join(' ')).not.toMatch(CODE)
  })
})
