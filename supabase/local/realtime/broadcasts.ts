import type { Database } from '../database'

/** The NOTIFY channel on which each committed transaction that inserted into realtime.messages announces its id. */
export const BROADCASTS_CHANNEL = 'realtime_local_broadcasts'

/**
 * Broadcast from the database, owned by the local server (hosted Realtime reads realtime.messages from the WAL). A
 * statement trigger on realtime.messages queues the ids of the rows each statement inserted, in its order, in one
 * insert, and notifies the transaction id: NOTIFY is delivered only at commit, so a rolled-back message is never
 * announced, and a statement inserting 100,000 messages costs one trigger call. The queue is unlogged and emptied at
 * each start, as realtime_local.changes is; one server per database. Security definer so that an API role's insert
 * (allowed by the app's insert policies) can queue its message, while no API role can read the queue.
 */
const INSTALL_SQL = `
create schema if not exists realtime_local;
revoke all on schema realtime_local from public;

create unlogged table if not exists realtime_local.broadcasts (
  id bigserial primary key,
  txid bigint not null default (pg_current_xact_id()::text::bigint),
  message_id uuid not null,
  inserted_at timestamp not null
);
create index if not exists broadcasts_txid_idx on realtime_local.broadcasts (txid, id);

create or replace function realtime_local.queue_broadcasts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into realtime_local.broadcasts (message_id, inserted_at) select n.id, n.inserted_at from new_rows n;
  if found then
    perform pg_notify('${BROADCASTS_CHANNEL}', pg_current_xact_id()::text);
  end if;
  return null;
end
$$;
revoke all on function realtime_local.queue_broadcasts() from public;

create or replace trigger realtime_local_queue_broadcasts after insert on realtime.messages
  referencing new table as new_rows for each statement
  execute function realtime_local.queue_broadcasts();

-- What a previous run queued and did not deliver has no subscriber left to receive it.
delete from realtime.messages m using realtime_local.broadcasts b where m.id = b.message_id and m.inserted_at = b.inserted_at;
delete from realtime_local.broadcasts;
`

/** Installs the queue and its trigger; false when the database has no realtime.messages (no bootstrap). */
export async function installBroadcasts(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(`select to_regclass('realtime.messages') is not null as present`)
  if (!rows[0]?.present) return false
  await db.transaction((tx) => tx.exec(INSTALL_SQL))
  return true
}

export interface BroadcastRow {
  /** Null when the message was deleted before delivery. */
  id: string | null
  topic: string | null
  event: string | null
  payload: unknown
  private: boolean | null
}

/**
 * A committed transaction's messages, in the order they were inserted, in one read: paging by the queue's id costs
 * a sort of the whole transaction per page while the queue's statistics still say it is small.
 */
export async function readBroadcasts(db: Database, txid: string): Promise<BroadcastRow[]> {
  const { rows } = await db.query<BroadcastRow>(
    `select m.id::text as id, m.topic, m.event, m.payload, m.private
       from realtime_local.broadcasts b
       left join realtime.messages m on m.id = b.message_id and m.inserted_at = b.inserted_at
      where b.txid = $1::bigint
      order by b.id`,
    [txid],
  )
  return rows
}

/**
 * Deletes a transaction's messages once handled. Hosted keeps them a few days (partitions it drops), for replay;
 * locally nothing reads them after delivery.
 */
export async function forgetBroadcasts(db: Database, txid: string): Promise<void> {
  await db.script(
    `delete from realtime.messages m using realtime_local.broadcasts b
      where b.txid = ${BigInt(txid)} and m.id = b.message_id and m.inserted_at = b.inserted_at;
     delete from realtime_local.broadcasts where txid = ${BigInt(txid)};`,
  )
}
