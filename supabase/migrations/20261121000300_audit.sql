-- The audit trail. Rows are written only by the database (the row triggers and security-definer functions, through
-- private.write_audit in 20261121000100_types_and_helpers.sql);
-- no API role may insert, change or delete one, and a trigger refuses changes even to the owner.
--
-- The trail is sealed: each row carries the SHA-256 of its own content and of the previous row's hash, so that an
-- edit, a removal or an insertion anywhere but at the end breaks the chain at that row (public.verify_audit_chain).

create table public.audit_logs (
  -- The row's place in the chain, set by the sealing trigger below whatever the writer sends.
  id bigint primary key,
  user_id uuid,
  user_email text,
  user_name text,
  action text not null,
  resource_type text not null,
  resource_id text,
  details jsonb not null default '{}'::jsonb,
  "timestamp" timestamptz not null default private.clock(),
  ip_address inet,
  -- The hash of row id - 1; null for row 1 only.
  prev_hash bytea check (octet_length(prev_hash) = 32),
  hash bytea not null check (octet_length(hash) = 32)
);
alter table public.audit_logs enable row level security;

-- user_id is a snapshot, not a foreign key: deleting or relinking a user must never rewrite history.
create index audit_logs_timestamp_idx on public.audit_logs ("timestamp" desc, id desc);
create index audit_logs_user_id_idx on public.audit_logs (user_id, "timestamp" desc);
create index audit_logs_action_idx on public.audit_logs (action, "timestamp" desc);
create index audit_logs_resource_idx on public.audit_logs (resource_type, resource_id);
-- The audit page's search (20261121000900_reporting.sql, private.audit_matching and rssi_audit_events): the text of
-- each event. The expression must stay identical, character for character, to the one there.
select private.create_trigram_index('audit_logs_search_trgm_idx', 'public.audit_logs', $$
  coalesce(user_email, '') || chr(10) || coalesce(user_name, '') || chr(10) || action || chr(10)
  || resource_type || chr(10) || coalesce(resource_id, '') || chr(10) || details::text
$$);

create function private.refuse_audit_change() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'Le journal d''audit est en lecture seule.'
    using errcode = '42501', hint = 'Audit rows cannot be changed or deleted.';
end;
$$;

create trigger audit_logs_read_only
  before update or delete on public.audit_logs
  for each row execute function private.refuse_audit_change();

create trigger audit_logs_no_truncate
  before truncate on public.audit_logs
  for each statement execute function private.refuse_audit_change();

-- ─── The seal ────────────────────────────────────────────────────────────────────────────────────────────────────
-- hash = SHA-256( UTF-8 bytes of the row's canonical text  ||  the 32 bytes of prev_hash, or nothing for row 1 ).
--
-- The canonical text is the JSON array below, as PostgreSQL prints a jsonb value (jsonb_build_array(…)::text):
--   [id, timestamp, user_id, user_email, user_name, action, resource_type, resource_id, details, ip_address]
-- - id: a JSON number; timestamp: a string, in UTC with microseconds, "2025-10-07T08:15:00.123456Z";
-- - user_id, user_email, user_name, action, resource_type, resource_id: JSON strings (the uuid in its usual lower-case
--   form), or null, so that a missing value and an empty string differ;
-- - details: the jsonb object as PostgreSQL prints it: object keys ordered by their length in UTF-8 bytes, then
--   bytewise; ", " between elements and ": " after a key; strings escaped as JSON.stringify does (\" \\ \b \f \n \r \t,
--   other control characters as \u00xx), every other character as is; numbers as stored;
-- - ip_address: its text form ("203.0.113.9", or with "/n" for a network), or null.
-- A script recomputes every hash from the rows alone (tests/db/audit-chain.test.ts does it with node:crypto). The
-- built-in sha256() gives the same bytes as pgcrypto's digest(…, 'sha256') and needs no extension.
--
-- No search_path clause, so that the verification's query inlines them (a SET clause forbids inlining and costs a
-- configuration change per row); they run as the caller and name everything by schema.
create function private.audit_chain_text(
  p_id bigint,
  p_timestamp timestamptz,
  p_user_id uuid,
  p_user_email text,
  p_user_name text,
  p_action text,
  p_resource_type text,
  p_resource_id text,
  p_details jsonb,
  p_ip_address inet
) returns text
language sql stable
as $$
  select pg_catalog.jsonb_build_array(
    p_id,
    pg_catalog.to_char(pg_catalog.timezone('UTC', p_timestamp), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    p_user_id, p_user_email, p_user_name, p_action, p_resource_type, p_resource_id, p_details,
    pg_catalog.text(p_ip_address)
  )::text
$$;

-- Stable, not immutable, as convert_to is: a function declared more constant than its body is never inlined.
create function private.audit_chain_hash(p_text text, p_prev_hash bytea) returns bytea
language sql stable
as $$
  select pg_catalog.sha256(pg_catalog.convert_to(p_text, 'UTF8') || coalesce(p_prev_hash, '\x'::bytea))
$$;

revoke execute on function
  private.audit_chain_text(bigint, timestamptz, uuid, text, text, text, text, text, jsonb, inet),
  private.audit_chain_hash(text, bytea)
  from public;

-- One total order, the order in which the writers commit. Every append takes one transaction-level lock first, held
-- until its transaction ends, then reads the last row and takes the next id: a concurrent writer waits at the lock
-- and, once it has it, sees the committed row (READ COMMITTED reads anew at each statement). So ids follow commit
-- order with no gap (a writer that rolls back leaves its id to the next one), and the id the row gets is the one
-- whose predecessor it hashed. An identity column would not do: its values are handed out before any lock and commit
-- in any order. The primary key is the backstop: a writer that could not see its predecessor (REPEATABLE READ) takes
-- an id already used and fails rather than fork the chain.
-- The lock is taken at a transaction's first audit row and kept to its end: audited transactions commit one at a
-- time from that point, which is one short wait per decision. It is an advisory lock rather than a row of a "head"
-- table because a head row updated at every append would pile up one row version per audit row inside a long
-- transaction (200,000 when a campaign starts) and make each append slower than the last. A transaction that, once
-- it holds the lock, waits for a row lock held by another audited writer waiting for this one is a deadlock that
-- PostgreSQL breaks (40P01): the workflow locks what it changes before it writes its first audit row.
create function private.seal_audit_row() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  previous record;
begin
  perform pg_catalog.pg_advisory_xact_lock('public.audit_logs'::regclass::oid::bigint);
  select a.id, a.hash into previous from public.audit_logs a order by a.id desc limit 1;
  new.id := coalesce(previous.id, 0) + 1;
  new.prev_hash := previous.hash;
  new.hash := private.audit_chain_hash(
    private.audit_chain_text(new.id, new."timestamp", new.user_id, new.user_email, new.user_name, new.action,
                             new.resource_type, new.resource_id, new.details, new.ip_address),
    new.prev_hash);
  return new;
end;
$$;

create trigger audit_logs_seal
  before insert on public.audit_logs
  for each row execute function private.seal_audit_row();

-- rpc('verify_audit_chain') → { intact, rows_checked, head_id, head_hash, first_broken_id, reason }
-- Walks the whole chain in id order in one pass: each row must follow its predecessor's id by one (row 1 first),
-- carry its predecessor's hash as prev_hash and the hash of its own content. reason names the first failure, at
-- first_broken_id: 'missing_row' (ids jump: that row follows a removed one), 'prev_hash_mismatch' (the link was
-- changed), 'hash_mismatch' (the content or the hash was changed, or the row was not written by the sealing trigger).
-- head_hash (hex) is the last row's hash: an auditor who notes it with head_id can later check that row id still
-- carries it, which also reveals rows removed from the end. For rssi, and for the service role (an auditor's script).
create function public.verify_audit_chain() returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  result jsonb;
begin
  if auth.role() is distinct from 'service_role' and not private.is_rssi() then
    raise exception 'Réservé au RSSI.' using errcode = '42501';
  end if;

  -- One snapshot for the whole function (stable): the walk and the head agree even while rows are appended.
  with walk as (
    select a.id,
      case
        when a.id <> coalesce(lag(a.id) over chain, 0) + 1 then 'missing_row'
        when a.prev_hash is distinct from lag(a.hash) over chain then 'prev_hash_mismatch'
        when a.hash is distinct from private.audit_chain_hash(
          private.audit_chain_text(a.id, a."timestamp", a.user_id, a.user_email, a.user_name, a.action,
                                   a.resource_type, a.resource_id, a.details, a.ip_address),
          a.prev_hash) then 'hash_mismatch'
      end as reason
    from public.audit_logs a
    window chain as (order by a.id)
  ),
  summary as (
    select count(*) as rows_checked,
           min(w.id) filter (where w.reason is not null) as first_broken_id,
           (array_agg(w.reason order by w.id) filter (where w.reason is not null))[1] as reason
      from walk w
  ),
  head as (
    select a.id, a.hash from public.audit_logs a order by a.id desc limit 1
  )
  select jsonb_build_object(
    'intact', s.first_broken_id is null,
    'rows_checked', s.rows_checked,
    'head_id', h.id,
    'head_hash', pg_catalog.encode(h.hash, 'hex'),
    'first_broken_id', s.first_broken_id,
    'reason', s.reason
  )
    into result
    from summary s left join head h on true;
  return result;
end;
$$;

revoke execute on function public.verify_audit_chain() from public, anon;
grant execute on function public.verify_audit_chain() to authenticated, service_role;

-- The trail is the security officer's.
create policy audit_logs_select on public.audit_logs
  for select to authenticated
  using ((select private.is_rssi()));

revoke all on public.audit_logs from anon, authenticated, service_role;
grant select on public.audit_logs to authenticated, service_role;
