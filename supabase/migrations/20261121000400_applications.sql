-- Applications and their owners: RA, BPO Métier (required), BPO Groupe and RSSI (optional).

create table public.applications (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  description text not null default '',
  ra_id uuid not null references public.users (id) on update cascade on delete restrict,
  bpo_metier_id uuid not null references public.users (id) on update cascade on delete restrict,
  bpo_groupe_id uuid references public.users (id) on update cascade on delete set null,
  rssi_id uuid references public.users (id) on update cascade on delete set null,
  created_at timestamptz not null default private.clock(),
  updated_at timestamptz not null default private.clock(),
  constraint applications_name_present check (char_length(btrim(name)) between 1 and 200),
  constraint applications_description_length check (char_length(description) <= 2000)
);
alter table public.applications enable row level security;

create unique index applications_name_lower_key on public.applications (lower(name));
create index applications_ra_id_idx on public.applications (ra_id);
create index applications_bpo_metier_id_idx on public.applications (bpo_metier_id);
create index applications_bpo_groupe_id_idx on public.applications (bpo_groupe_id);
create index applications_rssi_id_idx on public.applications (rssi_id);
-- The applications page's search (src/features/applications/api.ts): each word in the name or the description.
select private.create_trigram_index('applications_name_trgm_idx', 'public.applications', 'name');
select private.create_trigram_index('applications_description_trgm_idx', 'public.applications', 'description');

create trigger applications_set_updated_at
  before update on public.applications
  for each row execute function private.set_updated_at();

create trigger applications_audit
  after insert or update or delete on public.applications
  for each row execute function private.audit_row_change();

-- The applications the caller owns in any capacity.
create function private.my_applications() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select a.id
    from public.applications a
   where auth.uid() in (a.ra_id, a.bpo_metier_id, a.bpo_groupe_id, a.rssi_id)
$$;

grant execute on function private.my_applications() to authenticated, service_role;

-- Each owner must hold the matching role (SPEC §5: the choices are users of that role).
create function private.check_application_owners() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  expected record;
begin
  for expected in
    select * from (values
      (new.ra_id, 'ra'::public.user_role, 'Le Responsable d''Application'),
      (new.bpo_metier_id, 'bpo_metier'::public.user_role, 'Le BPO Métier'),
      (new.bpo_groupe_id, 'bpo_groupe'::public.user_role, 'Le BPO Groupe'),
      (new.rssi_id, 'rssi'::public.user_role, 'Le RSSI')
    ) as owners (user_id, role, label)
    where owners.user_id is not null
  loop
    if not exists (select 1 from public.users u where u.id = expected.user_id and u.role = expected.role) then
      raise exception '% choisi n''existe pas ou n''a pas ce rôle.', expected.label using errcode = '23514';
    end if;
  end loop;
  return new;
end;
$$;

create trigger applications_check_owners
  before insert or update of ra_id, bpo_metier_id, bpo_groupe_id, rssi_id on public.applications
  for each row execute function private.check_application_owners();

-- A person who is the RA or BPO Métier of an application cannot be deleted before being replaced there.
create function private.guard_application_owner_delete() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  owned text;
begin
  select string_agg(a.name, ', ' order by a.name)
    into owned
    from public.applications a
   where old.id in (a.ra_id, a.bpo_metier_id);
  if owned is not null then
    raise exception 'Impossible de supprimer cet utilisateur : il est RA ou BPO Métier de %. Désignez d''abord un remplaçant.', owned
      using errcode = '23503';
  end if;
  return old;
end;
$$;


create policy "Signed-in people may read applications" on public.applications
  for select to authenticated
  using (true);

create policy "Admins and the RSSI may add applications" on public.applications
  for insert to authenticated
  with check ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may update applications" on public.applications
  for update to authenticated
  using ((select private.is_admin_or_rssi()))
  with check ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may delete applications" on public.applications
  for delete to authenticated
  using ((select private.is_admin_or_rssi()));

revoke all on public.applications from anon, authenticated, service_role;
grant select, insert, update, delete on public.applications to authenticated, service_role;

-- The RPCs of SPEC §7. They run as the caller, so row-level security applies as well as the checks here.
create function public.create_application(
  name text,
  ra_id uuid,
  bpo_metier_id uuid,
  description text default '',
  bpo_groupe_id uuid default null,
  rssi_id uuid default null
) returns public.applications
language plpgsql
set search_path = ''
as $$
declare
  created public.applications;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent créer une application.');
  if nullif(btrim(create_application.name), '') is null then
    raise exception 'Le nom de l''application est obligatoire.' using errcode = '23514';
  end if;
  if create_application.ra_id is null or create_application.bpo_metier_id is null then
    raise exception 'Le RA et le BPO Métier sont obligatoires.' using errcode = '23514';
  end if;
  if exists (select 1 from public.applications a where lower(a.name) = lower(btrim(create_application.name))) then
    raise exception 'Une application nommée « % » existe déjà.', btrim(create_application.name) using errcode = '23505';
  end if;

  insert into public.applications (name, description, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id)
  values (
    btrim(create_application.name),
    coalesce(create_application.description, ''),
    create_application.ra_id,
    create_application.bpo_metier_id,
    create_application.bpo_groupe_id,
    create_application.rssi_id
  )
  returning * into created;
  return created;
end;
$$;

create function public.update_application(
  application_id uuid,
  name text,
  ra_id uuid,
  bpo_metier_id uuid,
  description text default '',
  bpo_groupe_id uuid default null,
  rssi_id uuid default null
) returns public.applications
language plpgsql
set search_path = ''
as $$
declare
  updated public.applications;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent modifier une application.');
  if nullif(btrim(update_application.name), '') is null then
    raise exception 'Le nom de l''application est obligatoire.' using errcode = '23514';
  end if;
  if update_application.ra_id is null or update_application.bpo_metier_id is null then
    raise exception 'Le RA et le BPO Métier sont obligatoires.' using errcode = '23514';
  end if;
  if exists (
    select 1 from public.applications a
     where lower(a.name) = lower(btrim(update_application.name)) and a.id <> update_application.application_id
  ) then
    raise exception 'Une application nommée « % » existe déjà.', btrim(update_application.name) using errcode = '23505';
  end if;

  update public.applications a
     set name = btrim(update_application.name),
         description = coalesce(update_application.description, ''),
         ra_id = update_application.ra_id,
         bpo_metier_id = update_application.bpo_metier_id,
         bpo_groupe_id = update_application.bpo_groupe_id,
         rssi_id = update_application.rssi_id
   where a.id = update_application.application_id
  returning * into updated;

  if updated.id is null then
    raise exception 'Application introuvable.' using errcode = 'P0001';
  end if;
  return updated;
end;
$$;

revoke execute on function public.create_application(text, uuid, uuid, text, uuid, uuid) from public, anon;
revoke execute on function public.update_application(uuid, text, uuid, uuid, text, uuid, uuid) from public, anon;
grant execute on function public.create_application(text, uuid, uuid, text, uuid, uuid) to authenticated, service_role;
grant execute on function public.update_application(uuid, text, uuid, uuid, text, uuid, uuid) to authenticated, service_role;

create function public.delete_application(application_id uuid) returns void
language plpgsql
set search_path = ''
as $$
declare
  campaign_count bigint;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent supprimer une application.');
  if not exists (select 1 from public.applications a where a.id = delete_application.application_id) then
    raise exception 'Application introuvable.' using errcode = 'P0001';
  end if;
  -- Campaigns are review evidence: they are never removed as a side effect.
  select count(*) into campaign_count from public.campaigns c where c.application_id = delete_application.application_id;
  if campaign_count > 0 then
    raise exception 'Impossible de supprimer cette application : % campagne(s) la ciblent.', campaign_count
      using errcode = '23503', hint = 'Supprimez les campagnes en brouillon qui la ciblent ; les campagnes lancées conservent l''historique.';
  end if;
  -- Rights and control rules follow through their foreign keys (on delete cascade), each audited.
  delete from public.applications a where a.id = delete_application.application_id;
end;
$$;

revoke execute on function public.delete_application(uuid) from public, anon;
grant execute on function public.delete_application(uuid) to authenticated;
