-- The audit trail. Rows are written only by the database (the row triggers and security-definer functions, through
-- private.write_audit in 20261121000100_types_and_helpers.sql);
-- no API role may insert, change or delete one, and a trigger refuses changes even to the owner.

create table public.audit_logs (
  id bigint generated always as identity primary key,
  user_id uuid,
  user_email text,
  user_name text,
  action text not null,
  resource_type text not null,
  resource_id text,
  details jsonb not null default '{}'::jsonb,
  "timestamp" timestamptz not null default now(),
  ip_address inet
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

-- The trail is the security officer's.
create policy audit_logs_select on public.audit_logs
  for select to authenticated
  using ((select private.is_rssi()));

revoke all on public.audit_logs from anon, authenticated, service_role;
grant select on public.audit_logs to authenticated, service_role;
