// The sealed audit trail: every row carries the SHA-256 of its content and of the previous row's hash, written by the
// database. A script recomputes the chain from the rows alone; an insider who bypasses the read-only trigger to edit,
// remove or forge a row is named by verify_audit_chain; concurrent writers make one chain; only rssi and the service
// role may run the verification.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { chainHashes, type SealedRow } from '../support/audit-chain'
import { freshDatabase } from '../support/database'
import { actAs, attempt, type DemoRole } from './support/actors'
import { count, expectRefused, one } from './support/fixtures'

interface Verdict {
  intact: boolean
  rows_checked: number
  head_id: number | null
  head_hash: string | null
  first_broken_id: number | null
  reason: string | null
}

const verify = (db: Database) => actAs(db, 'service_role', (tx) => one<{ v: Verdict }>(tx, 'select public.verify_audit_chain() as v')).then((r) => r.v)

async function sealedRows(db: Sql): Promise<(SealedRow & { prev_hash: string | null; hash: string })[]> {
  const { rows } = await db.query<SealedRow & { prev_hash: string | null; hash: string }>(
    `select a.id::text as id, a."timestamp"::text as "timestamp", a.user_id::text as user_id, a.user_email, a.user_name,
            a.action, a.resource_type, a.resource_id, a.details, a.ip_address::text as ip_address,
            encode(a.prev_hash, 'hex') as prev_hash, encode(a.hash, 'hex') as hash
       from public.audit_logs a order by a.id`,
  )
  return rows
}

/** Runs the insider's statements as the database owner with the given triggers of audit_logs off, then on again. */
async function asInsider(db: Database, triggers: string[], statements: (tx: Sql) => Promise<unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    for (const trigger of triggers) await tx.exec(`alter table public.audit_logs disable trigger ${trigger}`)
    await statements(tx)
    for (const trigger of triggers) await tx.exec(`alter table public.audit_logs enable trigger ${trigger}`)
  })
}

async function rowCount(db: Sql): Promise<number> {
  return count(db, 'select count(*) from public.audit_logs')
}

describe('the seeded trail', () => {
  let db: Database
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(() => db.close())

  it('verifies intact over every row, and a script recomputes the same head from the rows alone', async () => {
    const rows = await sealedRows(db)
    expect(rows.length).toBeGreaterThan(50)
    const recomputed = chainHashes(rows)
    expect(await verify(db)).toEqual({
      intact: true,
      rows_checked: rows.length,
      head_id: rows.length,
      head_hash: recomputed.at(-1),
      first_broken_id: null,
      reason: null,
    })
    // Each row as stored: its own hash, and its predecessor's as prev_hash.
    expect(rows.map((r) => r.hash)).toEqual(recomputed)
    expect(rows.map((r) => r.prev_hash)).toEqual([null, ...recomputed.slice(0, -1)])
    expect(rows.map((r) => Number(r.id))).toEqual(rows.map((_, i) => i + 1))
  })

  it('seals what the writers send, whatever id or hash they claim', async () => {
    const forged = randomBytes(32)
    const before = await rowCount(db)
    await db.query(
      `insert into public.audit_logs (id, action, resource_type, details, "timestamp", ip_address, prev_hash, hash)
       values (1, 'test', 'test', '{"note": "Dépôt « manuel »\\n", "n": 1.5}', '2025-10-07 10:15:00.5+02', '10.1.0.0/16', $1, $1)`,
      [forged],
    )
    const rows = await sealedRows(db)
    expect(rows).toHaveLength(before + 1)
    const added = rows.at(-1)!
    expect(Number(added.id)).toBe(before + 1)
    expect(added.hash).not.toBe(forged.toString('hex'))
    expect(added.hash).toBe(chainHashes(rows).at(-1))
    expect(await verify(db)).toMatchObject({ intact: true, rows_checked: before + 1, head_hash: added.hash })
  })

  it('uses the same SHA-256 as pgcrypto', async () => {
    expect(await one(db, `select extensions.digest('recertif', 'sha256') = sha256(convert_to('recertif', 'UTF8')) as same`)).toEqual({ same: true })
  })
})

describe('an insider who bypasses the read-only trigger', () => {
  let db: Database
  let rows: number
  let middle: number
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(() => db.close())

  // Each case tampers with its own copy: a broken chain stays broken.
  async function fresh() {
    await db.close()
    db = await freshDatabase()
    rows = await rowCount(db)
    middle = Math.floor(rows / 2)
    expect(await verify(db)).toMatchObject({ intact: true, rows_checked: rows })
  }

  it('edits one row’s details: that row is named', async () => {
    await fresh()
    await asInsider(db, ['audit_logs_read_only'], (tx) =>
      tx.query(`update public.audit_logs set details = details || '{"comment": "Tout va bien"}' where id = $1`, [middle]),
    )
    expect(await verify(db)).toMatchObject({ intact: false, rows_checked: rows, head_id: rows, first_broken_id: middle, reason: 'hash_mismatch' })
  })

  it('edits one row and rewrites its hash to match: the next row is named', async () => {
    await fresh()
    await asInsider(db, ['audit_logs_read_only'], (tx) =>
      tx.query(
        `update public.audit_logs a
            set user_email = 'quelquun@example.com',
                hash = private.audit_chain_hash(a.id, a."timestamp", a.user_id, 'quelquun@example.com', a.user_name,
                         a.action, a.resource_type, a.resource_id, a.details, a.ip_address, a.prev_hash)
          where id = $1`,
        [middle],
      ),
    )
    expect(await verify(db)).toMatchObject({ intact: false, first_broken_id: middle + 1, reason: 'prev_hash_mismatch' })
  })

  it('deletes a row in the middle: the row after the gap is named', async () => {
    await fresh()
    await asInsider(db, ['audit_logs_read_only'], (tx) => tx.query(`delete from public.audit_logs where id = $1`, [middle]))
    expect(await verify(db)).toMatchObject({ intact: false, rows_checked: rows - 1, first_broken_id: middle + 1, reason: 'missing_row' })
  })

  it('deletes the first row: the new first row is named', async () => {
    await fresh()
    await asInsider(db, ['audit_logs_read_only'], (tx) => tx.query(`delete from public.audit_logs where id = 1`))
    expect(await verify(db)).toMatchObject({ intact: false, first_broken_id: 2, reason: 'missing_row' })
  })

  it('appends a row with a made-up hash: that row is named', async () => {
    await fresh()
    await asInsider(db, ['audit_logs_seal'], (tx) =>
      tx.query(
        `insert into public.audit_logs (id, action, resource_type, details, prev_hash, hash)
         select a.id + 1, 'delete', 'user_rights', '{}', a.hash, $1 from public.audit_logs a order by a.id desc limit 1`,
        [randomBytes(32)],
      ),
    )
    expect(await verify(db)).toMatchObject({ intact: false, rows_checked: rows + 1, head_id: rows + 1, first_broken_id: rows + 1, reason: 'hash_mismatch' })
  })
})

describe('concurrent writers', () => {
  let db: Database
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(() => db.close())

  it('make one chain in commit order, without gaps, even when some roll back', async () => {
    const before = await rowCount(db)
    const writers = 8
    const rounds = 5
    const { rows: people } = await db.query<{ id: string }>(`select id from public.users order by id limit ${writers}`)
    expect(people).toHaveLength(writers)
    // Each transaction writes two audited changes with a round trip between them, so that writers interleave;
    // every third one then fails and rolls back its rows.
    const attempts = people.flatMap((person, w) =>
      Array.from({ length: rounds }, (_, round) =>
        attempt(db, 'admin', async (tx) => {
          await tx.query(`update public.users set department = $2 where id = $1`, [person.id, `Service ${w}-${round}-a`])
          await tx.query(`update public.users set position = $2 where id = $1`, [person.id, `Poste ${w}-${round}`])
          if ((w + round) % 3 === 0) throw new Error('abandon')
        }),
      ),
    )
    const outcomes = await Promise.all(attempts)
    const committed = outcomes.filter((o) => o.ok).length
    expect(outcomes.filter((o) => !o.ok).every((o) => o.message === 'abandon')).toBe(true)

    const verdict = await verify(db)
    expect(verdict).toMatchObject({ intact: true, rows_checked: before + 2 * committed, head_id: before + 2 * committed })
    expect(await count(db, `select count(*) from (select prev_hash from public.audit_logs group by prev_hash having count(*) > 1) d`)).toBe(0)
    // The two rows of one transaction are next to each other: the lock is held from its first row to its commit.
    const { rows: written } = await db.query<{ id: string; resource_id: string }>(
      `select a.id::text as id, a.resource_id from public.audit_logs a where a.id > $1 order by a.id`,
      [before],
    )
    for (let i = 0; i < written.length; i += 2) expect(written[i]!.resource_id).toBe(written[i + 1]!.resource_id)
  })
})

describe('who may verify', () => {
  let db: Database
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(() => db.close())

  const call = (tx: Sql) => one<{ v: Verdict }>(tx, 'select public.verify_audit_chain() as v')

  it('rssi and the service role', async () => {
    for (const actor of ['rssi', 'service_role'] as const) {
      const outcome = await attempt(db, actor, call)
      expect(outcome.ok, actor).toBe(true)
      expect(outcome.value!.v.intact, actor).toBe(true)
    }
  })

  it('nobody else signed in: « Réservé au RSSI. »', async () => {
    for (const role of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin'] as DemoRole[]) {
      expectRefused(await attempt(db, role, call), '42501', /^Réservé au RSSI\.$/)
    }
  })

  it('not the anonymous key, which cannot execute it', async () => {
    expectRefused(await attempt(db, 'anon', call), '42501', /permission denied/)
  })
})
