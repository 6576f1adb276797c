// The local server's PGlite on a thread of its own (supabase/local/pglite-thread.ts): what the server sees of it is
// what it saw of PGlite in its own thread. Statements and their typed rows, database errors with their SQLSTATE and
// details, transactions that commit, roll back or fail at commit, notifications, and the order of statements around
// an open transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { openPgliteThread } from '../../supabase/local/pglite-thread'

let db: Database

beforeAll(async () => {
  db = (await openPgliteThread({ kind: 'seeded' })).db
  await db.exec(`create table public.thread_probe (id integer primary key, note text not null, at timestamptz, body jsonb);
    create function public.thread_probe_refuse() returns trigger language plpgsql as $$
    begin
      raise exception 'refusé à la validation' using errcode = '23514', detail = 'note « ' || new.note || ' »';
    end $$;
    create constraint trigger thread_probe_at_commit after insert on public.thread_probe deferrable initially deferred
      for each row when (new.note = 'late') execute function public.thread_probe_refuse();`)
})

afterAll(async () => {
  await db?.close()
})

const notes = async () => (await db.query<{ note: string }>('select note from public.thread_probe order by id')).rows.map((row) => row.note)

describe('PGlite on its own thread', () => {
  it('answers statements with their parameters and typed rows', async () => {
    const { rows } = await db.query<{ n: number; at: Date; body: unknown; email: string }>(
      `select $1::integer + 1 as n, '2026-11-20T08:00:00Z'::timestamptz as at, $2::jsonb as body,
              (select email from public.users where role = 'admin' order by email limit 1) as email`,
      [41, { a: [1, 'é'] }],
    )
    expect(rows).toEqual([{ n: 42, at: new Date('2026-11-20T08:00:00Z'), body: { a: [1, 'é'] }, email: expect.stringContaining('@') }])
  })

  it("keeps a database error's SQLSTATE, message and details", async () => {
    await db.query(`insert into public.thread_probe (id, note) values (1, 'first')`)
    const error = await db.query(`insert into public.thread_probe (id, note) values (1, 'again')`).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ code: '23505', message: expect.stringContaining('thread_probe_pkey'), detail: 'Key (id)=(1) already exists.' })
  })

  it('commits a transaction, and rolls one back when the server throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query(`insert into public.thread_probe (id, note) values ($1, $2)`, [2, 'kept'])
    })
    const thrown = await db
      .transaction(async (tx) => {
        await tx.query(`insert into public.thread_probe (id, note) values ($1, $2)`, [3, 'undone'])
        throw new Error('the server changed its mind')
      })
      .catch((caught: unknown) => caught)
    expect(thrown).toMatchObject({ message: 'the server changed its mind' })
    expect(await notes()).toEqual(['first', 'kept'])
  })

  it('fails the transaction that a deferred check refuses at commit, and keeps nothing of it', async () => {
    const refused = await db
      .transaction(async (tx) => {
        await tx.query(`insert into public.thread_probe (id, note) values (4, 'written')`)
        await tx.query(`insert into public.thread_probe (id, note) values (5, 'late')`)
      })
      .catch((caught: unknown) => caught)
    expect(refused).toMatchObject({ code: '23514', message: 'refusé à la validation', detail: 'note « late »' })
    expect(await notes()).toEqual(['first', 'kept'])
  })

  it('runs a statement sent during an open transaction after it, seeing what it committed', async () => {
    let outside: Promise<string[]> | undefined
    await db.transaction(async (tx) => {
      await tx.query(`insert into public.thread_probe (id, note) values (6, 'during')`)
      outside = notes()
      await tx.query(`update public.thread_probe set note = 'committed' where id = 6`)
    })
    expect(await outside).toEqual(['first', 'kept', 'committed'])
  })

  it("runs the background work of separate() before the API's statements waiting with it", async () => {
    const background = db.separate(1)
    const order: string[] = []
    await db.transaction(async (tx) => {
      await tx.query('select 1')
      const api = db.query('select 1').then(() => order.push('api'))
      const realtime = background.query('select 1').then(() => order.push('background'))
      await tx.query('select 2')
      void Promise.all([api, realtime])
    })
    await db.query('select 3')
    expect(order).toEqual(['background', 'api'])
  })

  it('runs background work that arrives while statements are running and waiting next, not after those waiting', async () => {
    const order: string[] = []
    const slow = 'select count(*) from generate_series(1, 200000)'
    const api = [1, 2, 3, 4].map((n) => db.query(slow).then(() => order.push(`api ${n}`)))
    const background = db.separate(1).query('select 1').then(() => order.push('background'))
    await Promise.all([...api, background])
    expect(order.indexOf('background')).toBeLessThanOrEqual(1)
  })

  it('runs a script as one transaction, undone at its first failing statement', async () => {
    const { rows } = await db.script<{ n: number }>(`insert into public.thread_probe (id, note) values (7, 'script'); select count(*)::integer as n from public.thread_probe`)
    expect(rows).toEqual([{ n: 4 }])
    await expect(db.script(`insert into public.thread_probe (id, note) values (8, 'half'); select 1 / 0`)).rejects.toMatchObject({ code: '22012' })
    expect(await notes()).not.toContain('half')
  })

  it('closes without calling it a loss, and answers nothing after', async () => {
    const losses: Error[] = []
    const other = (await openPgliteThread({ kind: 'seeded' }, { lost: (error) => losses.push(error) })).db
    expect((await other.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }])
    await other.close()
    await expect(other.query('select 1')).rejects.toThrow('The database thread stopped')
    expect(losses).toEqual([])
  })

  it('delivers notifications to their listener until it stops listening', async () => {
    const received: string[] = []
    const stop = await db.listen('thread_probe', (payload) => received.push(payload))
    await db.query(`select pg_notify('thread_probe', 'un'), pg_notify('other_channel', 'x')`)
    await db.transaction(async (tx) => {
      await tx.query(`select pg_notify('thread_probe', 'deux')`)
    })
    await db.transaction(async (tx) => {
      await tx.query(`select pg_notify('thread_probe', 'jamais')`)
      throw new Error('rolled back')
    }).catch(() => undefined)
    await stop()
    await db.query(`select pg_notify('thread_probe', 'après')`)
    expect(received).toEqual(['un', 'deux'])
  })
})
