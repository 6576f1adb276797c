// The watchdog of the local server's PGlite thread (supabase/local/pglite-thread.ts): PGlite cannot interrupt a
// statement, so one that runs past the timeout its caller gave ends the thread, and a new thread goes on from the same
// data. What a client of the server would see: the runaway answers PostgreSQL's 57014 soon after its timeout, the
// statements queued behind it soon after that rather than at the runaway's end, every commit before the cut is kept,
// the cut transaction's writes are not, nothing runs twice, and subscriptions carry on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { openPgliteThread } from '../../supabase/local/pglite-thread'

let db: Database
const losses: Error[] = []

beforeAll(async () => {
  db = (await openPgliteThread({ kind: 'seeded' }, { lost: (error) => losses.push(error) })).db
  await db.exec(`create table public.watchdog_probe (id serial primary key, note text not null)`)
}, 60_000)

afterAll(async () => {
  await db?.close()
})

const notes = async () => (await db.query<{ note: string }>('select note from public.watchdog_probe order by id')).rows.map((row) => row.note)
const insert = (note: string) => db.query('insert into public.watchdog_probe (note) values ($1)', [note])
/** A statement that keeps PGlite's thread busy for `seconds` of CPU. */
const spin = (seconds: number) =>
  `do $$ declare stop timestamptz := clock_timestamp() + interval '${seconds} seconds'; begin while clock_timestamp() < stop loop end loop; end $$`
const since = (start: number) => performance.now() - start

describe("PGlite's thread under a statement timeout", () => {
  it('cuts a statement past its timeout with 57014 and answers the one waiting behind it soon after, not at its end', async () => {
    const start = performance.now()
    const runaway = db.script('select pg_sleep(120)', { statementTimeout: '500ms' }).then(
      () => ({ ok: true, at: since(start) }),
      (error: unknown) => ({ error, at: since(start) }),
    )
    const behind = db.query<{ n: number }>('select 1 as n').then((result) => ({ rows: result.rows, at: since(start) }))
    const [cut, next] = await Promise.all([runaway, behind])
    expect(cut).toMatchObject({ error: { code: '57014', message: 'canceling statement due to statement timeout' } })
    expect(cut.at).toBeGreaterThan(450)
    expect(next.rows).toEqual([{ n: 1 }])
    // The timeout, then a new thread on the same data: seconds on a loaded machine, never the runaway's two minutes.
    expect(next.at).toBeLessThan(20_000)
    expect(losses).toEqual([])
  }, 60_000)

  it('keeps every commit from before the cut, none of the cut transaction, and runs nothing twice', async () => {
    await insert('committed before')
    const before = insert('sent before the runaway')
    const runaway = db
      .transaction(
        async (tx) => {
          await tx.query(`insert into public.watchdog_probe (note) values ('written by the cut transaction')`)
          await tx.exec(spin(120))
        },
        { statementTimeout: '400ms' },
      )
      .catch((error: unknown) => error)
    const after = [insert('sent after 1'), db.separate(1).query(`insert into public.watchdog_probe (note) values ('background')`), insert('sent after 2')]
    expect(await runaway).toMatchObject({ code: '57014' })
    await Promise.all([before, ...after])
    expect((await notes()).sort()).toEqual(['background', 'committed before', 'sent after 1', 'sent after 2', 'sent before the runaway'])
  }, 60_000)

  it('applies the timeout to each statement, as PostgreSQL, and none to statements given none', async () => {
    await db.transaction(
      async (tx) => {
        // Longer together than the timeout, each well within it, even on a loaded machine.
        for (const n of [1, 2, 3, 4, 5]) await tx.query(`select pg_sleep(0.5), $1::integer`, [n])
        await tx.query(`insert into public.watchdog_probe (note) values ('five short statements')`)
      },
      { statementTimeout: '2s' },
    )
    await db.script('select pg_sleep(2.2)')
    expect(await notes()).toContain('five short statements')
  }, 30_000)

  it('keeps its subscriptions and takes new statements after a cut', async () => {
    const received: string[] = []
    const stop = await db.listen('watchdog_probe', (payload) => received.push(payload))
    await expect(db.script(spin(120), { statementTimeout: '300ms' })).rejects.toMatchObject({ code: '57014' })
    await db.query(`select pg_notify('watchdog_probe', 'after the cut')`)
    await db.transaction(async (tx) => {
      await tx.query(`select pg_notify('watchdog_probe', 'in a transaction')`)
    })
    await stop()
    expect(received).toEqual(['after the cut', 'in a transaction'])
  }, 60_000)
})
