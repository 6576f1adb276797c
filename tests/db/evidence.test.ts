// Decisions are evidence for the auditor: they outlive what they were about, and what they were about cannot be
// relabelled after the fact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, demo } from './support/actors'
import { applicationId, bringTo, count, createRight, expectRefused, one, unique } from './support/fixtures'

let db: Database
let sap: string
beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
})
afterAll(() => db.close())

describe('decisions outlive their right', () => {
  it('keeps every decision, with what was decided on, after the right is deleted', async () => {
    const roleName = unique('Rôle supprimé')
    const rightId = await createRight(db, { applicationId: sap, roleName })
    await bringTo(db, rightId, 'validated_bpo_metier')

    const deleted = await actAs(db, 'admin', (tx) => tx.query(`delete from public.user_rights where id = $1 returning id`, [rightId]))
    expect(deleted.rows).toHaveLength(1)

    const kept = await actAs(db, 'rssi', (tx) =>
      tx.query<{ right_id: string | null; holder_email: string; application_name: string; role_name: string; stage: string }>(
        `select right_id, holder_email, application_name, role_name, stage::text from public.right_decisions
          where role_name = $1 order by decided_at, stage`,
        [roleName],
      ),
    )
    expect(kept.rows.map((r) => r.stage).sort()).toEqual(['bpo_metier', 'manager'])
    for (const row of kept.rows) {
      expect(row).toMatchObject({ right_id: null, holder_email: demo.user.email, application_name: 'SAP Finance', role_name: roleName })
    }
  })

  it('still shows a reviewer their own decision once the right is gone, and hides it from people without a stake', async () => {
    const roleName = unique('Rôle')
    const rightId = await createRight(db, { applicationId: sap, roleName })
    await bringTo(db, rightId, 'validated_manager')
    await actAs(db, 'admin', (tx) => tx.query(`delete from public.user_rights where id = $1`, [rightId]))

    const sql = `select count(*)::int as n from public.right_decisions where role_name = $1`
    expect((await actAs(db, 'manager', (tx) => one<{ n: number }>(tx, sql, [roleName]))).n).toBe(1)
    expect((await actAs(db, 'bpo_groupe', (tx) => one<{ n: number }>(tx, sql, [roleName]))).n).toBe(0)
  })
})

describe('a reviewed right keeps its identity', () => {
  it('lets an administrator correct a right nobody has decided on yet', async () => {
    const rightId = await createRight(db, { applicationId: sap })
    const renamed = unique('Rôle corrigé')
    const result = await actAs(db, 'admin', (tx) =>
      tx.query(`update public.user_rights set role_name = $2, account_type = 'privileged' where id = $1 returning id`, [rightId, renamed]),
    )
    expect(result.rows).toHaveLength(1)
    expect(await count(db, `select count(*) from public.user_rights where id = $1 and role_name = $2`, [rightId, renamed])).toBe(1)
  })

  it('refuses to change the role or account type of a right once someone has decided on it', async () => {
    const rightId = await createRight(db, { applicationId: sap })
    await bringTo(db, rightId, 'validated_manager')
    for (const change of [`role_name = 'Autre rôle'`, `account_type = 'privileged'`]) {
      const outcome = await attempt(db, 'admin', (tx) => tx.query(`update public.user_rights set ${change} where id = $1`, [rightId]))
      expectRefused(outcome, '23514', /déjà été revu/)
    }
    const outcome = await attempt(db, 'admin', (tx) =>
      tx.query(`update public.user_rights set justification = 'Précision' where id = $1 returning id`, [rightId]),
    )
    expect(outcome.ok).toBe(true)
  })
})
