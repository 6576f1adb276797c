// The control rules form's reads through its feature's API modules, signed in as the administrator, against the local
// server and the seeded database: the role names to pick, the count of a rule being written and of saved rules, and
// the database's refusal of a rule the compliance page could not evaluate, in French.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { demo } from '../db/support/actors'
import { testBackendForFile } from './support/server'

const session = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => session.client }))
const { createControlRule, fetchRoleChoices, fetchRuleReach, fetchRulesReach } = await import('@/features/control-rules/api')

const backend = testBackendForFile()
let sap: string

beforeAll(async () => {
  session.client = await backend.signedIn(demo.admin.email)
  sap = (await backend.db.query<{ id: string }>(`select id from public.applications where name = 'SAP Finance'`)).rows[0]!.id
})

const namesOn = async (applicationId: string | null) =>
  (
    await backend.db.query<{ role_name: string }>(
      `select distinct role_name from public.user_rights where $1::uuid is null or application_id = $1 order by role_name`,
      [applicationId],
    )
  ).rows.map((row) => row.role_name)

describe('the control rule form’s reads', () => {
  it('lists the role names of one application, and of all', async () => {
    expect(await fetchRoleChoices(sap)).toEqual(await namesOn(sap))
    expect(await fetchRoleChoices(null)).toEqual(await namesOn(null))
  })

  it('counts a draft as the saved rule is counted', async () => {
    const parameters = { incompatible_roles: ['Comptable', 'Approbateur factures'], inactivity_threshold: 30 }
    const draft = await fetchRuleReach(parameters, sap)
    expect(draft).toEqual({ incompatible_roles: expect.any(Number), inactivity_threshold: expect.any(Number) })
    const { rows } = await backend.db.query<{ id: string }>(
      `insert into public.control_rules (name, global, application_id, parameters) values ('Règle comptée', false, $1, $2::jsonb) returning id`,
      [sap, JSON.stringify(parameters)],
    )
    expect(await fetchRulesReach([rows[0]!.id])).toEqual({ [rows[0]!.id]: draft })
  })

  it('shows the database’s French refusal of a rule that names the same role twice', async () => {
    const input = { name: 'Doublon', description: '', global: true, application_id: null, parameters: { incompatible_roles: ['Comptable', 'Comptable '] }, enabled: true }
    await expect(createControlRule(input)).rejects.toThrow("Un même rôle ne peut figurer qu'une fois parmi les rôles incompatibles.")
  })
})
