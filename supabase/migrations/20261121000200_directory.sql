-- The directory of people, the role predicates every policy uses, and the link between a profile and the account
-- that signs in with its e-mail.

create table public.users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  first_name text not null,
  last_name text not null,
  role public.user_role not null default 'user',
  position text,
  department text,
  manager_id uuid references public.users (id) on update cascade on delete set null,
  last_login timestamptz,
  -- A leaver is deactivated, never deleted, so that rights, decisions and audit rows keep pointing to them. Changed
  -- only through set_user_active and import_directory (20261121001200_directory_sync.sql): no column grant below.
  active boolean not null default true,
  deactivated_at timestamptz,
  deactivated_by uuid references public.users (id) on update cascade on delete set null,
  created_at timestamptz not null default private.clock(),
  updated_at timestamptz not null default private.clock(),
  -- What the users page searches, one field a line, so that one trigram index serves every word of a search. Searched
  -- column by column, the BitmapOr of five trigram indexes (16-24 ms) was priced above a sequential scan at 120,000
  -- people, and the planner read the whole table (120-190 ms). No search word holds a newline (words are split on
  -- whitespace), so none matches across two fields. Derived: never written (Postgres refuses it), and left out of the
  -- audit trail (private.audit_row_change).
  search_text text generated always as (
    first_name || chr(10) || last_name || chr(10) || email || chr(10) || coalesce(position, '') || chr(10) || coalesce(department, '')
  ) stored,
  constraint users_email_format check (email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  constraint users_email_length check (char_length(email) <= 254),
  constraint users_first_name_present check (char_length(btrim(first_name)) between 1 and 100),
  constraint users_last_name_present check (char_length(btrim(last_name)) between 1 and 100),
  constraint users_not_own_manager check (manager_id is distinct from id)
);
alter table public.users enable row level security;

create unique index users_email_lower_key on public.users (lower(email));
create index users_manager_id_idx on public.users (manager_id);
create index users_role_idx on public.users (role);
create index users_last_name_idx on public.users (last_name, first_name);
-- The few leavers, found from the rights' side by the RSSI's risk and the reviewers' recommendation.
create index users_inactive_idx on public.users (id) where not active;
-- The RSSI's search by holder (20261121000900_reporting.sql, private.rights_matching): e-mail and "first last" name.
select private.create_trigram_index('users_email_trgm_idx', 'public.users', 'email');
select private.create_trigram_index('users_full_name_trgm_idx', 'public.users', $$first_name || ' ' || last_name$$);
-- The users page's search (src/features/users/api.ts): every word in search_text, one index for all five fields.
-- The manager picker's search (first name, last name, e-mail) reads the managers, a tenth of the people, through
-- users_role_idx: 15-20 ms to count them at 120,000 people.
select private.create_trigram_index('users_search_trgm_idx', 'public.users', 'search_text');

create trigger users_set_updated_at
  before update on public.users
  for each row execute function private.set_updated_at();

create trigger users_audit
  after insert or update or delete on public.users
  for each row execute function private.audit_row_change();

-- Role predicates. Security definer so that a policy on users can ask about the caller without
-- recursing into its own policy; stable so that a policy wrapped in (select …) evaluates them once.
-- A deactivated person has no role: an access token issued before the deactivation, still valid for up to an hour,
-- no longer carries their powers (administration, review stages).
-- PL/pgSQL rather than SQL: every policy and every decision asks them (a decision six times), and a SQL function with
-- its own search_path is parsed and planned anew at every call, a PL/pgSQL one once per session.
-- Administrators and the RSSI, and the RA when the database setting recertif.mfa_for_ra is 'on', hold their role only
-- in a session that passed its second factor (aal2 in the token, Supabase's « Enforce MFA »): with a password alone
-- they have none, so every policy and RPC that asks for a role refuses them.
create function private.needs_second_factor(p_role public.user_role) returns boolean
language plpgsql stable
set search_path = ''
as $$
begin
  return p_role in ('admin', 'rssi') or (p_role = 'ra' and coalesce(current_setting('recertif.mfa_for_ra', true), '') = 'on');
end;
$$;

create function private.current_role() returns public.user_role
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_role public.user_role;
begin
  select u.role into v_role from public.users u where u.id = auth.uid() and u.active;
  if private.needs_second_factor(v_role) and coalesce(auth.jwt() ->> 'aal', '') <> 'aal2' then
    return null;
  end if;
  return v_role;
end;
$$;

-- Whether the caller's role needs a second factor: the app asks it after the password.
create function public.mfa_required() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return coalesce(private.needs_second_factor((select u.role from public.users u where u.id = auth.uid() and u.active)), false);
end;
$$;

revoke execute on function private.needs_second_factor(public.user_role), public.mfa_required() from public, anon;
grant execute on function public.mfa_required() to authenticated;

-- True for admin and for rssi: both administer the campaigns, people, applications and control rules (SPEC §1).
create function private.is_admin_or_rssi() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return coalesce(private.current_role() in ('admin', 'rssi'), false);
end;
$$;

create function private.is_rssi() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return coalesce(private.current_role() = 'rssi', false);
end;
$$;

-- The people whose manager is the caller.
create function private.my_reports() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select u.id from public.users u where u.manager_id = auth.uid()
$$;

grant execute on function private.current_role(), private.is_admin_or_rssi(), private.is_rssi(), private.my_reports()
  to authenticated, service_role;

-- A person may change only their own last_login; administrators may change the rest, but not their own
-- role (nobody grants themselves the audit trail). The id changes only through update_user_id.
create function private.guard_user_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- update_user_id's relink cascades through this table (the reports' manager_id) and is checked there.
  if current_setting('recertif.relinking_user', true) = 'on' then
    return new;
  end if;
  if new.id is distinct from old.id then
    raise exception 'L''identifiant d''un utilisateur ne peut pas être modifié.' using errcode = '42501';
  end if;

  if auth.uid() is null then
    return new;
  end if;

  if not private.is_admin_or_rssi() then
    -- search_text is left out: a before trigger sees it null in new (Postgres computes it after), and it follows the
    -- fields compared here anyway.
    if (to_jsonb(new) - 'last_login' - 'updated_at' - 'id' - 'search_text')
       is distinct from (to_jsonb(old) - 'last_login' - 'updated_at' - 'id' - 'search_text') then
      raise exception 'Vous ne pouvez modifier que votre date de dernière connexion.' using errcode = '42501';
    end if;
  elsif old.id = auth.uid() and new.role is distinct from old.role then
    raise exception 'Vous ne pouvez pas modifier votre propre rôle.' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger users_guard_update
  before update on public.users
  for each row execute function private.guard_user_update();

create function private.guard_user_delete() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.id = auth.uid() then
    raise exception 'Vous ne pouvez pas supprimer votre propre compte.' using errcode = '42501';
  end if;
  return old;
end;
$$;

create trigger users_guard_delete
  before delete on public.users
  for each row execute function private.guard_user_delete();

-- Policies (ARCHITECTURE §5): the directory is readable by every signed-in user. A person may create
-- their own profile once, at first sign-in, as a plain user bearing their auth id and e-mail.
create policy "Signed-in people may read the directory" on public.users
  for select to authenticated
  using (true);

create policy "Admins and the RSSI may add people; newcomers their own profile" on public.users
  for insert to authenticated
  with check (
    (select private.is_admin_or_rssi())
    or (
      id = (select auth.uid())
      and lower(email) = lower((select auth.email()))
      and role = 'user'
      and manager_id is null
      and position is null
      and department is null
    )
  );

create policy "Admins and the RSSI may update anyone; people their own profile" on public.users
  for update to authenticated
  using ((select private.is_admin_or_rssi()) or id = (select auth.uid()))
  with check ((select private.is_admin_or_rssi()) or id = (select auth.uid()));

create policy "Admins and the RSSI may delete people" on public.users
  for delete to authenticated
  using ((select private.is_admin_or_rssi()));

revoke all on public.users from anon, authenticated, service_role;
grant select, insert, delete on public.users to authenticated;
grant update (email, first_name, last_name, role, position, department, manager_id, last_login, updated_at) on public.users to authenticated;
grant select, insert, update, delete on public.users to service_role;


create function private.require_admin_or_rssi(p_message text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Vous devez être connecté.' using errcode = '42501';
  end if;
  if not private.is_admin_or_rssi() then
    raise exception '%', p_message using errcode = '42501';
  end if;
end;
$$;

grant execute on function private.require_admin_or_rssi(text) to authenticated;

-- A profile created by an administrator before its owner first signs in carries a provisional id. At
-- first sign-in the owner's auth account takes it over. Only the caller's own account, and only the
-- profile that bears the caller's own (signed) e-mail, can ever be linked.
create function public.update_user_id(old_user_id uuid, new_user_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  caller_id uuid := auth.uid();
  caller_email text := auth.email();
  profile public.users;
begin
  if caller_id is null or caller_email is null then
    raise exception 'Vous devez être connecté.' using errcode = '42501';
  end if;
  if new_user_id is distinct from caller_id then
    raise exception 'Vous ne pouvez lier un profil qu''à votre propre compte.' using errcode = '42501';
  end if;
  select * into profile from public.users u where u.id = old_user_id;
  if profile.id is null or lower(profile.email) <> lower(caller_email) then
    raise exception 'Aucun profil à votre adresse e-mail ne correspond.' using errcode = '42501';
  end if;
  if old_user_id = new_user_id then
    return;
  end if;
  if exists (select 1 from public.users u where u.id = new_user_id) then
    raise exception 'Votre compte est déjà lié à un autre profil.' using errcode = '23505';
  end if;

  perform set_config('recertif.relinking_user', 'on', true);
  update public.users u set id = new_user_id where u.id = old_user_id;
  perform set_config('recertif.relinking_user', 'off', true);
end;
$$;

revoke execute on function public.update_user_id(uuid, uuid) from public, anon;
grant execute on function public.update_user_id(uuid, uuid) to authenticated;
