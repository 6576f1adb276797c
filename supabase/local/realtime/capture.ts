import type { Database } from '../database'
import type { ChangeEvent, Channel } from './channel'

/** The NOTIFY channel on which each committed transaction that changed a published table announces its id. */
export const CHANGES_CHANNEL = 'realtime_local_changes'

/** One trigger per operation: PostgreSQL allows transition tables only on a trigger for a single event. */
const TRIGGERS = {
  INSERT: { name: 'realtime_local_capture_insert', tables: 'new table as new_rows' },
  UPDATE: { name: 'realtime_local_capture_update', tables: 'old table as old_rows new table as new_rows' },
  DELETE: { name: 'realtime_local_capture_delete', tables: 'old table as old_rows' },
} as const

/**
 * Change capture owned by the local server, not by the migrations (on a hosted project the platform decodes
 * the WAL instead). Statement triggers store each changed row that some channel listens to (realtime_local.listened,
 * kept by CaptureScope) in realtime_local.changes, in the order the
 * statement changed them, and notify the transaction id: NOTIFY is delivered only at commit (a rolled-back
 * change is never announced), identical notifications of one transaction collapse into one, and the payload
 * stays far below NOTIFY's 8000-byte limit whatever the row's size. One insert per statement rather than one
 * per row: a campaign's start or completion changes hundreds of thousands of rights in one statement, and a
 * row trigger cost them seconds. An update's old and new rows are paired by their place in the transition
 * tables, which PostgreSQL fills together, row by row, and only the old row's primary key is kept: it is all
 * that is sent of it, as Supabase does for tables under row-level security. The function is security definer so that any API
 * role's write can record its change, while no API role can read the schema.
 */
const INSTALL_SQL = `
create schema if not exists realtime_local;
revoke all on schema realtime_local from public;

-- Unlogged: a queue of what is still to deliver, emptied at each start (below), so it is spared writing each change
-- twice (the WAL): a campaign's start queues 200,000 of them.
create unlogged table if not exists realtime_local.changes (
  id bigserial primary key,
  txid bigint not null default (pg_current_xact_id()::text::bigint),
  schema_name text not null,
  table_name text not null,
  op text not null,
  record jsonb,
  old_record jsonb,
  captured_at timestamptz not null default clock_timestamp()
);
create index if not exists changes_txid_idx on realtime_local.changes (txid, id);
do $$ begin
  if (select c.relpersistence from pg_class c where c.oid = 'realtime_local.changes'::regclass) = 'p' then
    alter table realtime_local.changes set unlogged;
  end if;
end $$;

-- What some open channel listens to, by table and operation, kept by the server (CaptureScope below): the capture
-- writes nothing else. A campaign's start changes two million rights at ten times the large dataset, and capturing
-- them cost about a fifth of its time when nobody was subscribed.
create unlogged table if not exists realtime_local.listened (
  schema_name text not null,
  table_name text not null,
  op text not null,
  primary key (schema_name, table_name, op)
);

-- The row trigger of earlier versions goes with its function, wherever a database still has it.
drop function if exists realtime_local.capture() cascade;
create or replace function realtime_local.capture_statement() returns trigger
language plpgsql
security definer
set search_path = ''
-- Pairing the old and new rows of a 200,000-row statement: a merge join sorted the whole new rows and spilled about
-- 120 MB to disk at a campaign's start; a hash join builds its table from the old rows' keys only, in memory.
set work_mem = '64MB'
set enable_mergejoin = off
as $$
declare
  captured bigint;
begin
  -- Nobody listens to this table's changes of this kind: writing them would only have the dispatcher delete them.
  if not exists (
    select 1 from realtime_local.listened l
     where l.schema_name = tg_table_schema and l.table_name = tg_table_name and l.op = tg_op
  ) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    insert into realtime_local.changes (schema_name, table_name, op, record)
    select tg_table_schema, tg_table_name, tg_op, to_jsonb(n) from new_rows n;
  elsif tg_op = 'UPDATE' then
    -- Of the old row, only what the delivery sends: its primary key, as an expression over r that installCapture
    -- writes from the catalog (the whole row for a table without one).
    execute format(
      'insert into realtime_local.changes (schema_name, table_name, op, record, old_record)
       select $1, $2, ''UPDATE'', n.row, o.key
         from (select row_number() over () as place, to_jsonb(r) as row from new_rows r) n
         join (select row_number() over () as place, %s as key from old_rows r) o using (place)',
      tg_argv[0]
    ) using tg_table_schema, tg_table_name;
  else
    insert into realtime_local.changes (schema_name, table_name, op, old_record)
    select tg_table_schema, tg_table_name, tg_op, to_jsonb(o) from old_rows o;
  end if;
  get diagnostics captured = row_count;
  if captured > 0 then
    perform pg_notify('${CHANGES_CHANNEL}', pg_current_xact_id()::text);
  end if;
  return null;
end
$$;
revoke all on function realtime_local.capture_statement() from public;

-- Changes left by a previous run were either delivered or have no subscriber left to receive them, and its
-- subscribers are gone with it.
delete from realtime_local.changes;
delete from realtime_local.listened;
`

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`
export const qualified = (schema: string, table: string) => `${ident(schema)}.${ident(table)}`

export interface PublishedTable {
  schema: string
  table: string
}

/**
 * Installs the capture and puts its triggers on every table of the supabase_realtime publication (and takes
 * them off tables that left the publication). Returns the captured tables.
 */
export async function installCapture(db: Database): Promise<PublishedTable[]> {
  return db.transaction(async (tx) => {
    await tx.exec(INSTALL_SQL)
    const { rows: published } = await tx.query<{ schemaname: string; tablename: string; key: string[] | null }>(
      `select p.schemaname, p.tablename,
              (select array_agg(a.attname::text order by k.place)
                 from pg_index i
                 cross join unnest(i.indkey) with ordinality as k(attnum, place)
                 join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                where i.indrelid = format('%I.%I', p.schemaname, p.tablename)::regclass and i.indisprimary) as key
         from pg_publication_tables p where p.pubname = 'supabase_realtime' order by 1, 2`,
    )
    const names = Object.values(TRIGGERS).map((trigger) => trigger.name)
    const { rows: stale } = await tx.query<{ schema: string; table: string; trigger: string }>(
      `select n.nspname as schema, c.relname as table, t.tgname as trigger
         from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where t.tgname = any($1::text[])
          and not exists (select 1 from pg_publication_tables p
                           where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname)`,
      [names],
    )
    for (const { schema, table, trigger } of stale) await tx.exec(`drop trigger ${ident(trigger)} on ${qualified(schema, table)}`)
    for (const { schemaname, tablename, key } of published) {
      const oldKey = key?.length ? `jsonb_build_object(${key.map((column) => `${literal(column)}, r.${ident(column)}`).join(', ')})` : 'to_jsonb(r)'
      for (const [op, trigger] of Object.entries(TRIGGERS)) {
        await tx.exec(
          `create or replace trigger ${trigger.name} after ${op.toLowerCase()} on ${qualified(schemaname, tablename)}
             referencing ${trigger.tables} for each statement
             execute function realtime_local.capture_statement(${op === 'UPDATE' ? literal(oldKey) : ''})`,
        )
      }
    }
    return published.map(({ schemaname, tablename }) => ({ schema: schemaname, table: tablename }))
  })
}

const OPERATIONS: readonly ChangeEvent[] = ['INSERT', 'UPDATE', 'DELETE']

/**
 * Keeps realtime_local.listened equal to what the open channels' bindings ask for, so that the capture writes only
 * changes someone may receive. Writes run one at a time, each with the channels as they are when its turn comes, so
 * the last leaves the table as the channels are. One server per database, as for the changes queue: the table is
 * the server's, emptied when it starts.
 */
export class CaptureScope {
  private queue: Promise<void> = Promise.resolve()
  private written = ''

  constructor(
    private readonly db: Database,
    private readonly published: readonly PublishedTable[],
    private readonly channels: () => readonly Channel[],
  ) {}

  /**
   * Resolves once the table covers the channels as they are now: a join is answered only then, so a subscriber
   * told SUBSCRIBED misses no change made after. Rejects if the write failed (it is logged here too).
   */
  refresh(): Promise<void> {
    const write = this.queue.then(() => this.write())
    this.queue = write.catch((error: unknown) => console.error('[realtime] recording the subscriptions failed:', error))
    return write
  }

  drained(): Promise<void> {
    return this.queue
  }

  private async write(): Promise<void> {
    const wanted = new Set<string>()
    for (const binding of this.channels().flatMap((channel) => channel.bindings)) {
      for (const { schema, table } of this.published) {
        if ((binding.schema !== '*' && binding.schema !== schema) || (binding.table !== undefined && binding.table !== table)) continue
        for (const op of binding.event === '*' ? OPERATIONS : [binding.event]) wanted.add(JSON.stringify([schema, table, op]))
      }
    }
    const rows = [...wanted].sort()
    const key = rows.join()
    if (key === this.written) return
    await this.db.transaction(async (tx) => {
      await tx.query('delete from realtime_local.listened')
      await tx.query(
        `insert into realtime_local.listened (schema_name, table_name, op)
         select r->>0, r->>1, r->>2 from jsonb_array_elements($1::jsonb) as r`,
        [`[${key}]`],
      )
    })
    this.written = key
  }
}

export interface ChangeRow {
  id: string
  schema: string
  table: string
  op: 'INSERT' | 'UPDATE' | 'DELETE'
  record: Record<string, unknown> | null
  oldRecord: Record<string, unknown> | null
  capturedAt: Date
}

/** One page of a committed transaction's changes, in the order they were made. */
export async function readChanges(db: Database, txid: string, afterId: string, limit: number): Promise<ChangeRow[]> {
  const { rows } = await db.query<ChangeRow>(
    `select id::text as id, schema_name as schema, table_name as table, op, record, old_record as "oldRecord",
            captured_at as "capturedAt"
       from realtime_local.changes
      where txid = $1::bigint and id > $2::bigint
      order by id
      limit $3`,
    [txid, afterId, limit],
  )
  return rows
}

export async function forgetChanges(db: Database, txid: string): Promise<void> {
  await db.query('delete from realtime_local.changes where txid = $1::bigint', [txid])
}
