-- The audit trail. Rows are written only by the database (triggers and security-definer functions);
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

-- Appends one audit row for the current caller. The actor's e-mail and name are copied so that the row
-- still says who acted after that person's profile is gone.
create function private.write_audit(
  p_action text,
  p_resource_type text,
  p_resource_id text,
  p_details jsonb
) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  actor_id uuid := auth.uid();
  actor_email text := auth.email();
  actor_name text;
begin
  if actor_id is not null then
    select u.email, u.first_name || ' ' || u.last_name
      into actor_email, actor_name
      from public.users u
     where u.id = actor_id;
    actor_email := coalesce(actor_email, auth.email());
  end if;

  insert into public.audit_logs (user_id, user_email, user_name, action, resource_type, resource_id, details, ip_address)
  values (
    actor_id,
    actor_email,
    coalesce(actor_name, case when actor_id is null then 'Système' end),
    p_action,
    p_resource_type,
    p_resource_id,
    coalesce(p_details, '{}'::jsonb),
    private.request_ip()
  );
end;
$$;

-- Only the owner's triggers and functions append to the trail: no API role may call this to forge an entry,
-- whatever the default privileges in force when the migration runs.
revoke execute on function private.write_audit(text, text, text, jsonb) from public;

-- Row trigger for every audited table: inserts keep the new row, deletes the old one, updates only the
-- fields that changed (before and after). A function that writes a richer entry of its own (a review
-- decision) sets recertif.audit_suppressed for its transaction so the same change is not logged twice.
create function private.audit_row_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  old_row jsonb;
  new_row jsonb;
  changes jsonb := '{}'::jsonb;
  field text;
  details jsonb;
begin
  if current_setting('recertif.audit_suppressed', true) = 'on' then
    return null;
  end if;

  if tg_op <> 'INSERT' then
    old_row := to_jsonb(old);
  end if;
  if tg_op <> 'DELETE' then
    new_row := to_jsonb(new);
  end if;

  if tg_op = 'UPDATE' then
    for field in select jsonb_object_keys(new_row) loop
      if field <> 'updated_at' and (new_row -> field) is distinct from (old_row -> field) then
        changes := changes || jsonb_build_object(field, jsonb_build_object('old', old_row -> field, 'new', new_row -> field));
      end if;
    end loop;
    if changes = '{}'::jsonb then
      return null;
    end if;
    details := jsonb_build_object('changes', changes);
  elsif tg_op = 'INSERT' then
    details := jsonb_build_object('new', new_row);
  else
    details := jsonb_build_object('old', old_row);
  end if;

  perform private.write_audit(
    case tg_op when 'INSERT' then 'create' when 'UPDATE' then 'update' else 'delete' end,
    tg_table_name,
    coalesce(new_row, old_row) ->> 'id',
    details
  );
  return null;
end;
$$;

revoke all on public.audit_logs from anon, authenticated, service_role;
grant select on public.audit_logs to authenticated, service_role;
