// The control rules page's reads and the table's refusals: the role names a rule may cite, « Concerne aujourd'hui »
// computed by the same predicate as Conformité's violations, who may call them, and the French refusal of a rule the
// compliance page could not evaluate.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, type Actor } from './support/actors'
import { count, createApplication, createUser, expectRefused, one, roles, unique } from './support/fixtures'
import { generator } from './support/random'

type Reach = { inactivity_threshold?: number; incompatible_roles?: number }

let db: Database
let appA: string
let appB: string
const names = ['Saisie', 'Approbation', 'Contrôle', 'Paiement'].map((n) => unique(n))
const allowed = ['admin', 'rssi'] as const
const denied = roles.filter((r) => r !== 'admin' && r !== 'rssi')

/** Who holds which role where, and since when it was last used (days ago; null = never). */
interface Grant {
  person: number
  app: 'A' | 'B'
  role: number
  lastUsedDaysAgo: number | null
}

const people: string[] = []
const grants: Grant[] = []

beforeAll(async () => {
  db = await freshDatabase()
  appA = await createApplication(db)
  appB = await createApplication(db)
  const random = generator(31)
  for (let p = 0; p < 12; p++) people.push((await createUser(db)).id)
  const seen = new Set<string>()
  for (let i = 0; i < 40; i++) {
    const grant: Grant = {
      person: Math.floor(random.next() * people.length),
      app: random.pick(['A', 'B'] as const),
      role: Math.floor(random.next() * names.length),
      lastUsedDaysAgo: random.pick([null, 1, 20, 45, 200]),
    }
    const key = `${grant.person}/${grant.app}/${grant.role}`
    if (seen.has(key)) continue
    seen.add(key)
    grants.push(grant)
    await db.query(
      `insert into public.user_rights (user_id, application_id, role_name, last_used_at, campaign_id)
       values ($1, $2, $3, now() - $4::integer * interval '1 day', null)`,
      [people[grant.person], grant.app === 'A' ? appA : appB, names[grant.role], grant.lastUsedDaysAgo],
    )
  }
})
afterAll(() => db.close())

function rolesOf(actor: Actor, applicationId: string | null) {
  return attempt(db, actor, async (tx) => (await tx.query<{ role_name: string }>(`select role_name from public.control_rule_roles($1)`, [applicationId])).rows.map((r) => r.role_name))
}

function reachOf(actor: Actor, applicationId: string | null, parameters: unknown) {
  return attempt(db, actor, async (tx) => (await one<{ r: Reach }>(tx, `select public.control_rule_reach($1::jsonb, $2) as r`, [JSON.stringify(parameters), applicationId])).r)
}

function listReachOf(actor: Actor, ruleIds: string[]) {
  return attempt(db, actor, async (tx) => (await tx.query<{ rule_id: string; violations: Reach }>(`select * from public.control_rules_reach($1::uuid[])`, [ruleIds])).rows)
}

interface ComplianceRule {
  id: string
  violations_by_parameter: Reach
}

async function complianceRules(): Promise<ComplianceRule[]> {
  return actAs(db, 'rssi', async (tx) => (await one<{ c: { rules: ComplianceRule[] } }>(tx, `select public.rssi_compliance(null) as c`)).c.rules)
}

/** The model: the people holding two or more of the roles within the scope, and the rights not used within the days. */
function expectedReach(scope: 'A' | 'B' | null, parameters: { incompatible_roles?: number[]; inactivity_threshold?: number }): Reach {
  const inScope = grants.filter((g) => scope === null || g.app === scope)
  const reach: Reach = {}
  if (parameters.incompatible_roles) {
    const held = new Map<number, Set<number>>()
    for (const g of inScope.filter((g) => parameters.incompatible_roles?.includes(g.role))) {
      held.set(g.person, (held.get(g.person) ?? new Set()).add(g.role))
    }
    reach.incompatible_roles = [...held.values()].filter((s) => s.size >= 2).length
  }
  const threshold = parameters.inactivity_threshold
  if (threshold !== undefined) {
    reach.inactivity_threshold = inScope.filter((g) => g.lastUsedDaysAgo === null || g.lastUsedDaysAgo > threshold).length
  }
  return reach
}

describe('control_rule_roles', () => {
  it.each(allowed)('gives %s the role names held on one application, and on all of them', async (actor) => {
    const onA = [...new Set(grants.filter((g) => g.app === 'A').map((g) => names[g.role]))]
    const outcome = await rolesOf(actor, appA)
    expect(outcome.value).toEqual([...onA].sort((x, y) => (x! < y! ? -1 : 1)))
    const everywhere = await rolesOf(actor, null)
    expect(everywhere.value).toEqual(expect.arrayContaining(names))
    expect(everywhere.value).toContain('Comptable') // a seed role, on another application
    expect(new Set(everywhere.value).size).toBe(everywhere.value?.length)
  })

  it.each([...denied, 'anon'] as const)('refuses %s', async (actor) => {
    expectRefused(await rolesOf(actor, appA), '42501')
  })
})

describe('« Concerne aujourd’hui »: the compliance page’s own count', () => {
  it('equals the violations Conformité shows for the same saved rule, and the model, over random rules', async () => {
    const random = generator(2026)
    const cases: { id: string; scope: 'A' | 'B' | null; parameters: { incompatible_roles?: number[]; inactivity_threshold?: number } }[] = []
    for (let i = 0; i < 12; i++) {
      const picked = names.map((_, index) => index).filter(() => random.next() < 0.6)
      const roleIndexes = picked.length >= 2 ? picked : [0, 1]
      const scope = random.pick(['A', 'B', null] as const)
      // The model knows only this file's rights: a global inactivity rule would also count the seed's.
      const parameters = {
        ...(random.next() < 0.8 || scope === null ? { incompatible_roles: roleIndexes } : {}),
        ...(random.next() < 0.5 && scope !== null ? { inactivity_threshold: random.pick([10, 30, 100]) } : {}),
      }
      const json = {
        ...(parameters.incompatible_roles ? { incompatible_roles: parameters.incompatible_roles.map((r) => names[r]) } : {}),
        ...(parameters.inactivity_threshold ? { inactivity_threshold: parameters.inactivity_threshold } : {}),
      }
      const applicationId = scope === 'A' ? appA : scope === 'B' ? appB : null
      const { id } = await actAs(db, 'admin', (tx) =>
        one<{ id: string }>(tx, `insert into public.control_rules (name, global, application_id, parameters) values ($1, $2, $3, $4::jsonb) returning id`, [
          unique('Règle'),
          scope === null,
          applicationId,
          JSON.stringify(json),
        ]),
      )
      cases.push({ id, scope, parameters })
      const draft = await reachOf('admin', applicationId, json)
      expect(draft.value, JSON.stringify({ scope, json })).toEqual(expectedReach(scope, parameters))
    }
    const compliance = new Map((await complianceRules()).map((r) => [r.id, r.violations_by_parameter]))
    const listed = await listReachOf('rssi', cases.map((c) => c.id))
    expect(listed.value).toHaveLength(cases.length)
    for (const row of listed.value ?? []) {
      const rule = cases.find((c) => c.id === row.rule_id)!
      expect(row.violations, JSON.stringify(rule)).toEqual(compliance.get(row.rule_id))
      expect(row.violations).toEqual(expectedReach(rule.scope, rule.parameters))
    }
  })

  it('finds someone who holds the roles on two applications only under a global rule', async () => {
    const [x, y] = [unique('Rôle X'), unique('Rôle Y')]
    const person = (await createUser(db)).id
    await db.query(`insert into public.user_rights (user_id, application_id, role_name, campaign_id) values ($1, $2, $3, null), ($1, $4, $5, null)`, [person, appA, x, appB, y])
    expect((await reachOf('rssi', null, { incompatible_roles: [x, y] })).value).toEqual({ incompatible_roles: 1 })
    expect((await reachOf('rssi', appA, { incompatible_roles: [x, y] })).value).toEqual({ incompatible_roles: 0 })
  })

  it('evaluates only what a draft states fully: a single role, or a threshold out of bounds, finds nothing', async () => {
    expect((await reachOf('admin', appA, { incompatible_roles: [names[0]] })).value).toEqual({})
    expect((await reachOf('admin', appA, { inactivity_threshold: 0 })).value).toEqual({})
    expect((await reachOf('admin', appA, { inactivity_threshold: 1e300 })).value).toEqual({})
  })

  it('answers an unknown application in French', async () => {
    expectRefused(await reachOf('admin', randomUUID(), { incompatible_roles: names.slice(0, 2) }), 'P0001', /^Application introuvable\.$/)
  })

  it.each([...denied, 'anon'] as const)('refuses %s, for a draft and for saved rules', async (actor) => {
    expectRefused(await reachOf(actor, appA, { incompatible_roles: names.slice(0, 2) }), '42501')
    const { id } = await one<{ id: string }>(db, `select id from public.control_rules limit 1`)
    expectRefused(await listReachOf(actor, [id]), '42501')
  })
})

describe('the table refuses, in French, a rule the compliance page could not evaluate', () => {
  it.each([
    ['a single role', { incompatible_roles: ['Comptable'] }, /^Une règle de rôles incompatibles doit citer au moins deux rôles\.$/],
    ['the same role twice', { incompatible_roles: ['Comptable', ' Comptable '] }, /^Un même rôle ne peut figurer qu'une fois parmi les rôles incompatibles\.$/],
    ['a blank role', { incompatible_roles: ['Comptable', '  '] }, /^Chaque rôle incompatible doit être un nom de rôle non vide\.$/],
    ['a role that is not text', { incompatible_roles: ['Comptable', 3] }, /^Chaque rôle incompatible doit être un nom de rôle non vide\.$/],
    ['roles that are not a list', { incompatible_roles: 'Comptable, Approbateur' }, /^Les rôles incompatibles doivent être une liste de noms de rôles\.$/],
    ['a threshold beyond a century', { inactivity_threshold: 40000 }, /^Le seuil d'inactivité doit être un nombre de jours supérieur à zéro, cent ans/],
    ['a threshold of zero days', { inactivity_threshold: 0 }, /^Le seuil d'inactivité doit être un nombre de jours supérieur à zéro, cent ans \(36 500 jours\) au plus\.$/],
  ])('%s', async (_label, parameters, message) => {
    const name = unique('Règle')
    const outcome = await attempt(db, 'admin', (tx) => tx.query(`insert into public.control_rules (name, parameters) values ($1, $2::jsonb)`, [name, JSON.stringify(parameters)]))
    expectRefused(outcome, '23514', message)
    expect(await count(db, `select count(*) from public.control_rules where name = $1`, [name])).toBe(0)
  })

  it('a rule without a name', async () => {
    const outcome = await attempt(db, 'rssi', (tx) => tx.query(`insert into public.control_rules (name) values ('   ')`))
    expectRefused(outcome, '23514', /^Le nom de la règle est obligatoire/)
  })

  it('keeps the keys it does not know, and a valid rule’s names as written', async () => {
    const parameters = { incompatible_roles: ['Comptable', 'Approbateur factures'], note: { libre: true } }
    const { id } = await actAs(db, 'admin', (tx) => one<{ id: string }>(tx, `insert into public.control_rules (name, parameters) values ($1, $2::jsonb) returning id`, [unique('Règle'), JSON.stringify(parameters)]))
    expect(await one(db, `select parameters from public.control_rules where id = $1`, [id])).toEqual({ parameters })
  })
})
