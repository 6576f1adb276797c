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

-- What a previous run queued and did not deliver, and what was sent while no server ran (the seed's and a dataset's
-- announcements), has no subscriber left to receive it. Hosted drops its day partitions after a few days; locally a
-- message lives until it is delivered, or until the next start. The trigger above makes inserts wait for this
-- transaction, so no message committed after it escapes the queue.
delete from realtime.messages;
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
  /** The committed transaction that inserted it. */
  txid: string
  /** Its place in the queue: the order of insertion within a transaction. */
  queueId: string
  id: string
  topic: string | null
  event: string | null
  payload: unknown
  private: boolean | null
}

/**
 * Takes committed transactions' messages off the queue: their queue rows are deleted, then their rows of
 * realtime.messages, and the messages returned with their transaction and queue id (in no order: the caller orders
 * them). Hosted keeps messages a few days (partitions it drops), for replay; locally nothing reads them after
 * delivery. One statement for a batch of transactions, so one round trip and one transaction: under a burst of
 * decisions each round trip waited its turn for a pooled connection behind the requests in flight, and a failure
 * leaves both tables as they were. Each delete filters by a list of values, which PostgreSQL matches through an index
 * or a hash whatever the tables' statistics say: a join of the two tables, planned on statistics taken while they
 * were nearly empty, ran as a nested loop over 9,000 messages and took 11 s. The two lists come back as JSON and are
 * paired here. A message deleted before delivery is not returned.
 */
export async function takeBroadcasts(db: Database, txids: readonly string[]): Promise<BroadcastRow[]> {
  const { rows } = await db.query<{ queued: Array<{ txid: string; queueId: string; messageId: string }>; messages: Array<Omit<BroadcastRow, 'txid' | 'queueId'>> }>(
    `with queued as (
       delete from realtime_local.broadcasts where txid = any ($1::bigint[])
       returning txid::text as txid, id::text as "queueId", message_id::text as "messageId", message_id
     ), taken as (
       delete from realtime.messages m where m.id = any (array(select q.message_id from queued q))
       returning m.id::text as id, m.topic, m.event, m.payload, m.private
     )
     select (select coalesce(json_agg(json_build_object('txid', q.txid, 'queueId', q."queueId", 'messageId', q."messageId")), '[]') from queued q) as queued,
            (select coalesce(json_agg(t), '[]') from taken t) as messages`,
    [txids.map((txid) => BigInt(txid).toString())],
  )
  const { queued, messages } = rows[0] ?? { queued: [], messages: [] }
  const byId = new Map(messages.map((message) => [message.id, message]))
  return queued.flatMap(({ txid, queueId, messageId }) => {
    const message = byId.get(messageId)
    return message ? [{ ...message, txid, queueId }] : []
  })
}
