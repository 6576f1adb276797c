-- Administration functions that span several tables: deleting an application, linking a profile to the
-- account that signs in with its e-mail, and the all-or-nothing import of rights.

create function public.delete_application(application_id uuid) returns void
language plpgsql
set search_path = ''
as $$
declare
  campaign_count bigint;
begin
  perform private.require_admin('Seuls les administrateurs et le RSSI peuvent supprimer une application.');
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

create function private.parse_date(p_value text) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
declare
  value text := nullif(btrim(p_value), '');
begin
  if value is null then
    return null;
  end if;
  if value ~ '^\d{1,2}/\d{1,2}/\d{4}$' then
    return to_date(value, 'DD/MM/YYYY')::timestamptz;
  end if;
  if value ~ '^\d{4}-\d{2}-\d{2}' then
    return value::timestamptz;
  end if;
  return null;
exception when others then
  return null;
end;
$$;

create function private.parse_account_type(p_value text) returns public.account_type
language sql immutable
set search_path = ''
as $$
  select case lower(btrim(p_value))
    when 'standard' then 'standard'
    when 'privileged' then 'privileged' when 'à privilèges' then 'privileged' when 'a privileges' then 'privileged'
    when 'technical' then 'technical' when 'technique' then 'technical'
    when 'shared' then 'shared' when 'partagé' then 'shared' when 'générique' then 'shared'
    when 'partagé / générique' then 'shared'
    when 'emergency' then 'emergency' when 'urgence' then 'emergency' when 'break glass' then 'emergency'
    when 'external' then 'external' when 'externe' then 'external'
  end::public.account_type
$$;

-- One row per line of the import, resolved against the directory, with every problem found on it.
create function private.resolve_import_rows(p_rows jsonb)
returns table (
  line integer,
  user_id uuid,
  application_id uuid,
  role_name text,
  account_type public.account_type,
  justification text,
  granted_at timestamptz,
  last_used_at timestamptz,
  errors text[]
)
language sql stable
set search_path = ''
as $$
  with raw as (
    select
      case when jsonb_typeof(e.value -> 'line') = 'number' then (e.value ->> 'line')::integer else e.ordinality::integer end as line,
      jsonb_typeof(e.value) = 'object' as is_object,
      nullif(btrim(e.value ->> 'email'), '') as email,
      nullif(btrim(e.value ->> 'application'), '') as application,
      nullif(btrim(e.value ->> 'role_name'), '') as role_name,
      nullif(btrim(e.value ->> 'account_type'), '') as account_type_text,
      nullif(btrim(e.value ->> 'justification'), '') as justification,
      nullif(btrim(e.value ->> 'granted_at'), '') as granted_text,
      nullif(btrim(e.value ->> 'last_used_at'), '') as last_used_text
    from jsonb_array_elements(p_rows) with ordinality as e (value, ordinality)
  ),
  resolved as (
    select
      raw.*,
      u.id as user_id,
      a.id as application_id,
      coalesce(private.parse_account_type(raw.account_type_text), case when raw.account_type_text is null then 'standard'::public.account_type end) as account_type,
      private.parse_date(raw.granted_text) as granted_at,
      private.parse_date(raw.last_used_text) as last_used_at,
      min(raw.line) over (partition by lower(raw.email), lower(raw.application), lower(raw.role_name)) as first_line
    from raw
    left join public.users u on lower(u.email) = lower(raw.email)
    left join public.applications a on lower(a.name) = lower(raw.application)
  )
  select
    r.line,
    r.user_id,
    r.application_id,
    r.role_name,
    r.account_type,
    r.justification,
    coalesce(r.granted_at, now()),
    r.last_used_at,
    array_remove(array[
      case when not r.is_object then 'ligne illisible' end,
      case when r.is_object and r.email is null then 'e-mail manquant'
           when r.is_object and r.user_id is null then format('utilisateur inconnu : %s', r.email) end,
      case when r.is_object and r.application is null then 'application manquante'
           when r.is_object and r.application_id is null then format('application inconnue : %s', r.application) end,
      case when r.is_object and r.role_name is null then 'rôle manquant'
           when char_length(r.role_name) > 200 then 'rôle trop long (200 caractères au plus)' end,
      case when r.account_type is null then format('type de compte inconnu : %s', r.account_type_text) end,
      case when r.granted_text is not null and r.granted_at is null then format('date d''attribution invalide : %s', r.granted_text)
           when r.granted_at > now() then 'date d''attribution dans le futur' end,
      case when r.last_used_text is not null and r.last_used_at is null then format('date de dernière utilisation invalide : %s', r.last_used_text)
           when r.last_used_at > now() then 'date de dernière utilisation dans le futur' end,
      case when char_length(r.justification) > 2000 then 'justification trop longue (2000 caractères au plus)' end,
      case when r.is_object and r.email is not null and r.line <> r.first_line then format('doublon de la ligne %s', r.first_line) end,
      case when exists (
        select 1 from public.user_rights ur
         where ur.user_id = r.user_id and ur.application_id = r.application_id and ur.role_name = r.role_name
      ) then 'ce droit existe déjà' end
    ], null)
  from resolved r
$$;

grant execute on function private.parse_date(text), private.parse_account_type(text), private.resolve_import_rows(jsonb)
  to authenticated;

-- Imports rights all or nothing: either every line is valid and all are inserted, or none is and the
-- report lists every bad line with its problems.
create function public.import_user_rights(rows jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  report jsonb;
  imported bigint;
begin
  perform private.require_admin('Seuls les administrateurs et le RSSI peuvent importer des droits.');
  if rows is null or jsonb_typeof(rows) <> 'array' then
    raise exception 'L''import attend une liste de lignes.' using errcode = '22023';
  end if;
  if jsonb_array_length(rows) = 0 then
    raise exception 'Le fichier ne contient aucune ligne à importer.' using errcode = '22023';
  end if;
  if jsonb_array_length(rows) > 50000 then
    raise exception 'Le fichier contient % lignes : 50 000 au plus par import.', jsonb_array_length(rows) using errcode = '22023';
  end if;

  select coalesce(jsonb_agg(jsonb_build_object('line', r.line, 'errors', to_jsonb(r.errors)) order by r.line), '[]'::jsonb)
    into report
    from private.resolve_import_rows(rows) r
   where cardinality(r.errors) > 0;
  if jsonb_array_length(report) > 0 then
    return jsonb_build_object('success', false, 'imported', 0, 'errors', report);
  end if;

  insert into public.user_rights (user_id, application_id, role_name, account_type, justification, granted_at, last_used_at)
  select r.user_id, r.application_id, r.role_name, r.account_type, r.justification, r.granted_at, r.last_used_at
    from private.resolve_import_rows(rows) r;
  get diagnostics imported = row_count;
  return jsonb_build_object('success', true, 'imported', imported, 'errors', '[]'::jsonb);
end;
$$;

revoke execute on function public.import_user_rights(jsonb) from public, anon;
grant execute on function public.import_user_rights(jsonb) to authenticated;
