-- The import of rights from a file: the dates and account types it reads, its rows resolved to people and
-- applications, and import_user_rights, which adds the rights (to a running campaign as its items when one is named).

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

-- One row per line of the import, resolved against the directory, with every problem found on it. With a campaign,
-- a line outside the campaign's application or account type is a problem too.
create function private.resolve_import_rows(p_rows jsonb, p_campaign_id uuid default null)
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
      a.name as application_name,
      coalesce(private.parse_account_type(raw.account_type_text), case when raw.account_type_text is null then 'standard'::public.account_type end) as account_type,
      private.parse_date(raw.granted_text) as granted_at,
      private.parse_date(raw.last_used_text) as last_used_at,
      min(raw.line) over (partition by lower(raw.email), lower(raw.application), lower(raw.role_name)) as first_line
    from raw
    left join public.users u on lower(u.email) = lower(raw.email)
    left join public.applications a on lower(a.name) = lower(raw.application)
  ),
  scope as (
    select c.application_id, c.account_type
      from public.campaigns c
     where c.id = p_campaign_id
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
      ) then 'ce droit existe déjà' end,
      case when r.application_id is not null and exists (
        select 1 from scope s where s.application_id is not null and s.application_id <> r.application_id
      ) then format('application hors du périmètre de la campagne : %s', r.application_name) end,
      case when r.account_type is not null and exists (
        select 1 from scope s where s.account_type is not null and s.account_type <> r.account_type
      ) then format('type de compte hors du périmètre de la campagne : %s', coalesce(r.account_type_text, r.account_type::text)) end
    ], null)
  from resolved r
$$;

grant execute on function private.parse_date(text), private.parse_account_type(text), private.resolve_import_rows(jsonb, uuid)
  to authenticated;

-- rpc('import_user_rights', { rows, campaign_id? }) → { success, imported, errors: [{ line, errors: [...] }] }.
-- Imports rights all or nothing: either every line is valid and all are inserted (pending, into the campaign when one
-- is given — a draft, whose start will review them, or an active one, where they are reviewed at once — otherwise
-- into none), or none is and the report lists every bad line with its problems. A completed or archived campaign
-- takes no more rights.
create function public.import_user_rights(rows jsonb, campaign_id uuid default null) returns jsonb
language plpgsql
set search_path = ''
set statement_timeout = '2min'
as $$
declare
  target public.campaigns;
  report jsonb;
  imported bigint;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent importer des droits.');
  if rows is null or jsonb_typeof(rows) <> 'array' then
    raise exception 'L''import attend une liste de lignes.' using errcode = '22023';
  end if;
  if jsonb_array_length(rows) = 0 then
    raise exception 'Le fichier ne contient aucune ligne à importer.' using errcode = '22023';
  end if;
  if jsonb_array_length(rows) > 50000 then
    raise exception 'Le fichier contient % lignes : 50 000 au plus par import.', jsonb_array_length(rows) using errcode = '22023';
  end if;

  if import_user_rights.campaign_id is not null then
    -- Held until the import commits: the campaign cannot be started or closed under it, so the rights it receives
    -- are the ones its start attaches and its completion sends to the RA.
    select * into target from public.campaigns c where c.id = import_user_rights.campaign_id for share;
    if target.id is null then
      raise exception 'Campagne introuvable.' using errcode = 'P0001';
    end if;
    if target.status not in ('draft', 'active') then
      raise exception 'La campagne « % » est % : on ne peut plus y importer de droits.',
        target.name, lower(private.campaign_status_label(target.status))
        using errcode = 'P0001', hint = 'Importez les droits dans une campagne en brouillon ou en cours, ou hors campagne.';
    end if;
  end if;

  select coalesce(jsonb_agg(jsonb_build_object('line', r.line, 'errors', to_jsonb(r.errors)) order by r.line), '[]'::jsonb)
    into report
    from private.resolve_import_rows(rows, target.id) r
   where cardinality(r.errors) > 0;
  if jsonb_array_length(report) > 0 then
    return jsonb_build_object('success', false, 'imported', 0, 'errors', report);
  end if;

  insert into public.user_rights (user_id, application_id, role_name, account_type, justification, granted_at, last_used_at, campaign_id)
  select r.user_id, r.application_id, r.role_name, r.account_type, r.justification, r.granted_at, r.last_used_at, target.id
    from private.resolve_import_rows(rows, target.id) r;
  get diagnostics imported = row_count;
  return jsonb_build_object('success', true, 'imported', imported, 'errors', '[]'::jsonb);
end;
$$;

revoke execute on function public.import_user_rights(jsonb, uuid) from public, anon;
grant execute on function public.import_user_rights(jsonb, uuid) to authenticated;

