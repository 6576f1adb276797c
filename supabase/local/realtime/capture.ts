import type { Database } from '../database'

/** The NOTIFY channel on which each committed transaction that changed a published table announces its id. */
export const CHANGES_CHANNEL = 'realtime_local_changes'

const TRIGGER = 'realtime_local_capture'

/**
 * Change capture owned by the local server, not by the migrations (on a hosted project the platform decodes
 * the WAL instead). A row trigger stores each change in realtime_local.changes and notifies the transaction
 * id: NOTIFY is delivered only at commit (a rolled-back change is never announced), identical notifications
 * of one transaction collapse into one, and the payload stays far below NOTIFY's 8000-byte limit whatever
 * the row's size. The function is security definer so that any API role's write can record its change,
 * while no API role can read the schema.
 */
const INSTALL_SQL = `
create schema if not exists realtime_local;
revoke all on schema realtime_local from public;

create table if not exists realtime_local.changes (
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

create or replace function realtime_local.capture() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into realtime_local.changes (schema_name, table_name, op, record, old_record)
  values (
    tg_table_schema,
    tg_table_name,
    tg_op,
    case when tg_op <> 'DELETE' then to_jsonb(new) end,
    case when tg_op <> 'INSERT' then to_jsonb(old) end
  );
  perform pg_notify('${CHANGES_CHANNEL}', pg_current_xact_id()::text);
  return null;
end
$$;
revoke all on function realtime_local.capture() from public;

-- Changes left by a previous run were either delivered or have no subscriber left to receive them.
delete from realtime_local.changes;
`

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`
export const qualified = (schema: string, table: string) => `${ident(schema)}.${ident(table)}`

/**
 * Installs the capture and puts its trigger on every table of the supabase_realtime publication (and takes
 * it off tables that left the publication). Returns the captured tables as "schema.table".
 */
export async function installCapture(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.exec(INSTALL_SQL)
    const { rows: published } = await tx.query<{ schemaname: string; tablename: string }>(
      `select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime' order by 1, 2`,
    )
    const { rows: stale } = await tx.query<{ schema: string; table: string }>(
      `select n.nspname as schema, c.relname as table
         from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where t.tgname = $1
          and not exists (select 1 from pg_publication_tables p
                           where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname)`,
      [TRIGGER],
    )
    for (const { schema, table } of stale) await tx.exec(`drop trigger ${TRIGGER} on ${qualified(schema, table)}`)
    for (const { schemaname, tablename } of published) {
      await tx.exec(
        `create or replace trigger ${TRIGGER} after insert or update or delete on ${qualified(schemaname, tablename)}
           for each row execute function realtime_local.capture()`,
      )
    }
    return published.map(({ schemaname, tablename }) => `${schemaname}.${tablename}`)
  })
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
