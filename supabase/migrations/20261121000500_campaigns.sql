-- Review campaigns: draft → active → completed → archived. Only drafts are edited or deleted. Starting and completing
-- a campaign act on its rights (below); once completed or archived, a campaign's rights and decisions are frozen
-- (20261121000600_rights_and_decisions.sql).

create table public.campaigns (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  description text not null default '',
  application_id uuid references public.applications (id) on delete restrict,
  account_type public.account_type,
  start_date date not null,
  end_date date not null,
  status public.campaign_status not null default 'draft',
  created_by uuid default auth.uid() references public.users (id) on update cascade on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint campaigns_name_present check (char_length(btrim(name)) between 1 and 200),
  constraint campaigns_description_length check (char_length(description) <= 2000),
  constraint campaigns_dates_ordered check (end_date >= start_date)
);
alter table public.campaigns enable row level security;

create index campaigns_application_id_idx on public.campaigns (application_id);
create index campaigns_created_by_idx on public.campaigns (created_by);
create index campaigns_status_idx on public.campaigns (status);
create index campaigns_created_at_idx on public.campaigns (created_at desc);

create trigger campaigns_set_updated_at
  before update on public.campaigns
  for each row execute function private.set_updated_at();

create trigger campaigns_audit
  after insert or update or delete on public.campaigns
  for each row execute function private.audit_row_change();

create function private.campaign_status_label(p_status public.campaign_status) returns text
language sql immutable
set search_path = ''
as $$
  select case p_status
    when 'draft' then 'Brouillon'
    when 'active' then 'Active'
    when 'completed' then 'Terminée'
    when 'archived' then 'Archivée'
  end
$$;

-- The guards below run as the caller, and name statuses in their messages.
grant execute on function private.campaign_status_label(public.campaign_status) to authenticated, service_role;

create function private.guard_campaign_insert() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status <> 'draft' then
    raise exception 'Une nouvelle campagne est toujours créée en brouillon.' using errcode = '23514';
  end if;
  if auth.uid() is not null then
    new.created_by := auth.uid();
  end if;
  return new;
end;
$$;

create trigger campaigns_guard_insert
  before insert on public.campaigns
  for each row execute function private.guard_campaign_insert();

create function private.guard_campaign_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- The creator never changes, except that the foreign key clears it once that person's profile is deleted.
  if new.created_by is distinct from old.created_by
     and current_setting('recertif.relinking_user', true) is distinct from 'on'
     and not (new.created_by is null and not exists (select 1 from public.users u where u.id = old.created_by)) then
    raise exception 'Le créateur d''une campagne ne peut pas être modifié.' using errcode = '42501';
  end if;

  if new.status is distinct from old.status then
    if not ((old.status, new.status) in (('draft', 'active'), ('active', 'completed'), ('completed', 'archived'))) then
      raise exception 'Passage impossible du statut « % » au statut « % ».',
        private.campaign_status_label(old.status), private.campaign_status_label(new.status)
        using errcode = '23514';
    end if;
  end if;

  if old.status <> 'draft' and (
    new.name, new.description, new.application_id, new.account_type, new.start_date, new.end_date
  ) is distinct from (
    old.name, old.description, old.application_id, old.account_type, old.start_date, old.end_date
  ) then
    raise exception 'Seule une campagne en brouillon peut être modifiée.' using errcode = '23514';
  end if;
  return new;
end;
$$;

create trigger campaigns_guard_update
  before update on public.campaigns
  for each row execute function private.guard_campaign_update();

create function private.guard_campaign_delete() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status <> 'draft' then
    raise exception 'Seule une campagne en brouillon peut être supprimée.' using errcode = '23514';
  end if;
  return old;
end;
$$;

create trigger campaigns_guard_delete
  before delete on public.campaigns
  for each row execute function private.guard_campaign_delete();

create policy campaigns_select on public.campaigns
  for select to authenticated
  using (true);

create policy campaigns_insert on public.campaigns
  for insert to authenticated
  with check ((select private.is_admin_or_rssi()));

create policy campaigns_update on public.campaigns
  for update to authenticated
  using ((select private.is_admin_or_rssi()))
  with check ((select private.is_admin_or_rssi()));

create policy campaigns_delete on public.campaigns
  for delete to authenticated
  using ((select private.is_admin_or_rssi()));

revoke all on public.campaigns from anon, authenticated, service_role;
grant select, insert, delete on public.campaigns to authenticated;
grant update (name, description, application_id, account_type, start_date, end_date, status, updated_at) on public.campaigns to authenticated;
grant select, insert, update, delete on public.campaigns to service_role;

-- Starting a campaign attaches every in-scope right not held by another active campaign and resets it to
-- pending; completing it sends what is still undecided to the RA (ARCHITECTURE §3). Defined before user_rights
-- (20261121000600_rights_and_decisions.sql): a PL/pgSQL body is bound at its first call, not when it is created.
create function private.apply_campaign_transition() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  affected bigint;
begin
  if old.status = 'draft' and new.status = 'active' then
    update public.user_rights ur
       set campaign_id = new.id,
           status = 'pending',
           validated_at = null,
           validated_by = null,
           review_comment = null
     where (new.application_id is null or ur.application_id = new.application_id)
       and (new.account_type is null or ur.account_type = new.account_type)
       and not exists (
         select 1 from public.campaigns c
          where c.id = ur.campaign_id and c.status = 'active' and c.id <> new.id
       );
    get diagnostics affected = row_count;
    perform private.write_audit('start_campaign', 'campaigns', new.id::text, jsonb_build_object('rights_attached', affected));
  elsif old.status = 'active' and new.status = 'completed' then
    update public.user_rights ur
       set status = 'treatment_required'
     where ur.campaign_id = new.id
       and (
         ur.status in ('pending', 'validated_user', 'validated_manager')
         or (
           ur.status = 'validated_bpo_metier'
           and exists (select 1 from public.applications a where a.id = ur.application_id and a.bpo_groupe_id is not null)
         )
       );
    get diagnostics affected = row_count;
    perform private.write_audit('complete_campaign', 'campaigns', new.id::text, jsonb_build_object('rights_sent_to_ra', affected));
  end if;
  return null;
end;
$$;

create trigger campaigns_apply_transition
  after update of status on public.campaigns
  for each row
  when (old.status is distinct from new.status)
  execute function private.apply_campaign_transition();
