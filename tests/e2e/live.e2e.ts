import type { Browser, Page } from 'playwright-core'
import { serviceClient, type ApiClient } from './support/api'
import { launchBrowser, signedInSessions } from './support/browser'

// Two people at work at once, each in their own browser: every change one makes reaches the other's open screen
// through realtime, with no reload. The rights are made by this file (roles no other file uses), so the journeys
// do not depend on the order in which the e2e files run.

const ACTIVE_CAMPAIGN = '00000000-0000-4000-c000-000000000002'
const JULIE = '00000000-0000-4000-a000-000000000001'

let browser: Browser
let service: ApiClient
const { as, closeAll } = signedInSessions(() => browser)

beforeAll(async () => {
  browser = await launchBrowser()
  service = serviceClient()
})
afterAll(async () => {
  await browser?.close()
})
afterEach(closeAll)

/** A pending right of Julie's in the active campaign, as an import would create it. */
async function grantJulie(application: string, roleName: string): Promise<string> {
  const app = await service.from('applications').select('id').eq('name', application).single()
  if (app.error) throw app.error
  const { data, error } = await service
    .from('user_rights')
    .insert({
      user_id: JULIE,
      application_id: app.data.id,
      role_name: roleName,
      account_type: 'standard',
      campaign_id: ACTIVE_CAMPAIGN,
      granted_at: '2024-03-01T00:00:00Z',
      last_used_at: new Date(Date.now() - 4 * 86_400_000).toISOString(),
    })
    .select('id')
    .single()
  if (error) throw error
  return data.id
}

async function decide(page: Page, button: string, row: string, comment?: string) {
  await page.getByRole('button', { name: `${button} ${row}`, exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Revue du droit' })
  if (comment) await dialog.getByLabel('Commentaire (facultatif)').fill(comment)
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

function julieRow(page: Page, roleName: string) {
  return page.getByRole('table', { name: 'Droits à revoir' }).getByRole('row').filter({ hasText: roleName })
}

async function bellCount(page: Page): Promise<number> {
  const label = (await page.getByRole('link', { name: /^Notifications/ }).getAttribute('aria-label')) ?? ''
  return Number(/(\d+) droit/.exec(label)?.[1] ?? 0)
}

async function waitForBell(page: Page, expected: number) {
  await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe(expected)
}

describe('live updates between two browsers', () => {
  it('shows each stage of a validation on the holder’s open dashboard, and each reviewer’s queue follows', async () => {
    const role = 'Consultation temps réel'
    const julie = await as('user@example.com', '/app/dashboard')
    await julie.getByRole('table', { name: 'Droits à revoir' }).waitFor()
    const marc = await as('manager@example.com', '/app/reviews')
    await marc.getByRole('heading', { name: 'Mes revues' }).waitFor()
    const marcBell = await bellCount(marc)

    // A right imported while both screens are open appears on both.
    const rightId = await grantJulie('SAP Finance', role)
    await julieRow(julie, role).getByText('En attente').waitFor()
    const row = `SAP Finance — ${role} (Julie Martin)`
    await marc.getByRole('button', { name: `Valider ${row}`, exact: true }).waitFor()
    await waitForBell(marc, marcBell + 1)

    // Julie's decision reaches the manager's queue, and the manager's reaches Julie's dashboard.
    await decide(julie, 'Valider', 'SAP Finance — ' + role)
    await marc.getByRole('row').filter({ hasText: role }).getByText("Validé par l'utilisateur").waitFor()
    await decide(marc, 'Valider', row, 'Utile au poste, vu en direct')
    await julieRow(julie, role).getByText('Validé par le manager').waitFor()
    await waitForBell(marc, marcBell)
    // Mes revues also keeps the manager's own history, which the decision has just joined.
    await marc.getByRole('table', { name: 'Historique des décisions' }).getByRole('row').filter({ hasText: role }).getByText('Utile au poste, vu en direct').waitFor()

    const bpo = await as('bpo@example.com', '/app/reviews')
    await decide(bpo, 'Valider', row)
    await julieRow(julie, role).getByText('Validé par le BPO Métier').waitFor()

    const groupe = await as('bpo.groupe@example.com', '/app/reviews')
    await decide(groupe, 'Valider', row, 'Conforme')
    await julieRow(julie, role).getByText('Validé par le BPO Groupe').waitFor()

    // Every stage is evidence: one decision row each, by the right person, and as many audit events.
    const { data: decisions } = await service
      .from('right_decisions')
      .select('stage, decision, to_status, decided_by, comment')
      .eq('right_id', rightId)
      .order('decided_at')
    expect(decisions).toEqual([
      { stage: 'user', decision: 'approved', to_status: 'validated_user', decided_by: JULIE, comment: null },
      { stage: 'manager', decision: 'approved', to_status: 'validated_manager', decided_by: '00000000-0000-4000-a000-000000000002', comment: 'Utile au poste, vu en direct' },
      { stage: 'bpo_metier', decision: 'approved', to_status: 'validated_bpo_metier', decided_by: '00000000-0000-4000-a000-000000000003', comment: null },
      { stage: 'bpo_groupe', decision: 'approved', to_status: 'validated_bpo_groupe', decided_by: '00000000-0000-4000-a000-000000000004', comment: 'Conforme' },
    ])
    const { data: audit } = await service.from('audit_logs').select('user_email').eq('resource_id', rightId).order('id')
    expect(audit!.map((event) => event.user_email)).toEqual(
      expect.arrayContaining(['user@example.com', 'manager@example.com', 'bpo@example.com', 'bpo.groupe@example.com']),
    )
  })

  it('shows the holder a refusal and its treatment by the RA as they happen', async () => {
    const role = 'Export temps réel'
    const rightId = await grantJulie('ServiceNow', role)
    const julie = await as('user@example.com', '/app/dashboard')
    await julieRow(julie, role).getByText('En attente').waitFor()
    const ra = await as('ra@example.com', '/app/reviews')
    await ra.getByRole('heading', { name: 'Mes revues' }).waitFor()
    const raBell = await bellCount(ra)

    const marc = await as('manager@example.com', '/app/reviews')
    const row = `ServiceNow — ${role} (Julie Martin)`
    await decide(marc, 'Refuser', row, 'Plus dans ses missions')
    await julieRow(julie, role).getByText('Refusé par le manager').waitFor()
    await ra.getByRole('button', { name: `Marquer traité ${row}`, exact: true }).waitFor()
    await waitForBell(ra, raBell + 1)

    await decide(ra, 'Marquer traité', row, 'Compte supprimé')
    await julieRow(julie, role).getByText('Traité').waitFor()
    await waitForBell(ra, raBell)

    const { data: decisions } = await service.from('right_decisions').select('stage, to_status').eq('right_id', rightId).order('decided_at')
    expect(decisions).toEqual([
      { stage: 'manager', to_status: 'refused_manager' },
      { stage: 'ra', to_status: 'treated' },
    ])
  })
})
