-- Campaigns seen from the administration (issue 6; SPEC §2 campaigns page, Excel dialog and admin dashboard, §3 export
-- rows, §4 progress, §9 export constants; ARCHITECTURE §3): the campaign list's figures, the rows of the three Excel
-- files, the import of rights into a campaign and the admin dashboard's counters. Every figure is computed here over
-- all the rows concerned, and every list is paged (at most 1000 rows a call), so nothing is cut at the API's
-- 1000-row page.
--
-- Everything runs as the caller (security invoker view and functions): row-level security applies as everywhere
-- else. Admin and rssi see every right; any other signed-in person gets the figures and export rows of the rights they
-- may read (SPEC §6: everyone sees the lists and the Excel export). The import and the admin dashboard are refused to
-- anyone but admin and rssi.

-- ─── Indexes ─────────────────────────────────────────────────────────────────────────────────────────────────────
-- The three Excel files page through one status of one campaign in right id order (keyset). Partial indexes, because
-- under row-level security a condition on status cannot be an index condition (the enum's equality is not leakproof,
-- so Postgres checks the policy first), while a partial index's predicate still selects the rows.
create index user_rights_campaign_pending_idx on public.user_rights (campaign_id, id)
  where status = 'pending';
create index user_rights_campaign_validated_manager_idx on public.user_rights (campaign_id, id)
  where status = 'validated_manager';
create index user_rights_campaign_validated_bpo_metier_idx on public.user_rights (campaign_id, id)
  where status = 'validated_bpo_metier';

-- ─── Campaign figures ────────────────────────────────────────────────────────────────────────────────────────────

-- from('campaign_progress').select() → one row per campaign (filter with campaign_id=eq.…):
--   rights_count                the campaign's rights;
--   decided_count, progress     those whose status is not pending, and round(100 × decided / rights) (SPEC §4),
--                               null when the campaign holds no right;
--   pending_count, validated_manager_count, validated_bpo_metier_count
--                               the Excel dialog's three counts (manager, BPO Métier and BPO Groupe files);
--   validated_count, refused_count
--                               statuses containing 'validated' and 'refused' (SPEC §4's badge colours).
-- Counted over the rights the caller may read.
create view public.campaign_progress
with (security_invoker = true)
as
-- Counted once per (campaign, status), then folded per campaign: the status tests run on a few dozen groups, not on
-- every right.
with counts as (
  select ur.campaign_id, ur.status, count(*) as n
    from public.user_rights ur
   where ur.campaign_id is not null
   group by ur.campaign_id, ur.status
)
select
  c.id as campaign_id,
  coalesce(sum(k.n), 0)::integer as rights_count,
  coalesce(sum(k.n) filter (where k.status <> 'pending'), 0)::integer as decided_count,
  case when sum(k.n) > 0
    then round(100.0 * coalesce(sum(k.n) filter (where k.status <> 'pending'), 0) / sum(k.n))::integer
  end as progress,
  coalesce(sum(k.n) filter (where k.status = 'pending'), 0)::integer as pending_count,
  coalesce(sum(k.n) filter (where k.status = 'validated_manager'), 0)::integer as validated_manager_count,
  coalesce(sum(k.n) filter (where k.status = 'validated_bpo_metier'), 0)::integer as validated_bpo_metier_count,
  coalesce(sum(k.n) filter (where k.status::text like '%validated%'), 0)::integer as validated_count,
  coalesce(sum(k.n) filter (where k.status::text like '%refused%'), 0)::integer as refused_count
from public.campaigns c
left join counts k on k.campaign_id = c.id
group by c.id;

revoke all on public.campaign_progress from anon, authenticated, service_role;
grant select on public.campaign_progress to authenticated, service_role;

-- ─── Excel export rows ───────────────────────────────────────────────────────────────────────────────────────────

-- rpc('campaign_export_rows', { p_campaign_id, p_file, p_after_id?, p_limit? }) → the data rows of one Excel file,
-- ordered by right_id. p_file: 'manager' (the campaign's pending rights), 'bpo_metier' (validated_manager) or
-- 'bpo_groupe' (validated_bpo_metier) (SPEC §2, §4). Paging: pass the last right_id of a page as p_after_id for the
-- next; p_limit between 1 and 1000 (default 1000).
-- Columns (SPEC §3): right_id, user_name, user_email, application_name, role_name, granted_at, last_used_at (null =
-- never used: the file says 'Jamais'), justification (SPEC §9's 'Accès nécessaire pour les fonctions' when empty),
-- status (the BPO Groupe file's final status), and for each stage — manager_, bpo_metier_, bpo_groupe_ — the
-- decision ('approved' or 'refused'), comment, decided_at and decided_by_name of the latest decision taken at that
-- stage on the right within this campaign (null when none). Over the rights the caller may read.
create function public.campaign_export_rows(
  p_campaign_id uuid,
  p_file public.review_stage,
  p_after_id uuid default null,
  p_limit integer default 1000
)
returns table (
  right_id uuid,
  user_id uuid,
  user_name text,
  user_email text,
  application_id uuid,
  application_name text,
  role_name text,
  account_type public.account_type,
  granted_at timestamptz,
  last_used_at timestamptz,
  justification text,
  status public.right_status,
  manager_decision public.review_decision,
  manager_comment text,
  manager_decided_at timestamptz,
  manager_decided_by_name text,
  bpo_metier_decision public.review_decision,
  bpo_metier_comment text,
  bpo_metier_decided_at timestamptz,
  bpo_metier_decided_by_name text,
  bpo_groupe_decision public.review_decision,
  bpo_groupe_comment text,
  bpo_groupe_decided_at timestamptz,
  bpo_groupe_decided_by_name text
)
language plpgsql stable
set search_path = ''
as $$
declare
  after_id uuid := coalesce(p_after_id, '00000000-0000-0000-0000-000000000000');
begin
  perform private.require_page_size(p_limit);
  if p_file is null or p_file not in ('manager', 'bpo_metier', 'bpo_groupe') then
    raise exception 'Fichier d''export inconnu : « % » (attendu : manager, bpo_metier ou bpo_groupe).', coalesce(p_file::text, 'vide')
      using errcode = '22023';
  end if;
  if p_campaign_id is null or not exists (select 1 from public.campaigns c where c.id = p_campaign_id) then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;

  -- One branch per file, each with its status as a constant so that it reads one page of its partial index in right
  -- id order (a limit of 0 leaves out the files not asked for).
  return query
    with page as (
      (select ur.* from public.user_rights ur
        where ur.status = 'pending' and ur.campaign_id = p_campaign_id and ur.id > after_id
        order by ur.id
        limit case when p_file = 'manager' then p_limit else 0 end)
      union all
      (select ur.* from public.user_rights ur
        where ur.status = 'validated_manager' and ur.campaign_id = p_campaign_id and ur.id > after_id
        order by ur.id
        limit case when p_file = 'bpo_metier' then p_limit else 0 end)
      union all
      (select ur.* from public.user_rights ur
        where ur.status = 'validated_bpo_metier' and ur.campaign_id = p_campaign_id and ur.id > after_id
        order by ur.id
        limit case when p_file = 'bpo_groupe' then p_limit else 0 end)
    )
    select
      ur.id,
      ur.user_id,
      h.first_name || ' ' || h.last_name,
      h.email,
      ur.application_id,
      a.name,
      ur.role_name,
      ur.account_type,
      ur.granted_at,
      ur.last_used_at,
      coalesce(nullif(btrim(ur.justification), ''), 'Accès nécessaire pour les fonctions'),
      ur.status,
      (s.m).decision, (s.m).comment, (s.m).decided_at, (s.m).decided_by_name,
      (s.bm).decision, (s.bm).comment, (s.bm).decided_at, (s.bm).decided_by_name,
      (s.bg).decision, (s.bg).comment, (s.bg).decided_at, (s.bg).decided_by_name
    from page ur
    join public.users h on h.id = ur.user_id
    join public.applications a on a.id = ur.application_id
    -- The latest decision at each stage on the right within this campaign, read in one pass over its decisions.
    left join lateral (
      select
        (array_agg(d order by d.decided_at desc, d.id desc) filter (where d.stage = 'manager'))[1] as m,
        (array_agg(d order by d.decided_at desc, d.id desc) filter (where d.stage = 'bpo_metier'))[1] as bm,
        (array_agg(d order by d.decided_at desc, d.id desc) filter (where d.stage = 'bpo_groupe'))[1] as bg
      from public.right_decisions d
      where d.right_id = ur.id and d.campaign_id = p_campaign_id
    ) s on true
    order by ur.id;
end;
$$;

revoke execute on function public.campaign_export_rows(uuid, public.review_stage, uuid, integer) from public, anon;
grant execute on function public.campaign_export_rows(uuid, public.review_stage, uuid, integer) to authenticated, service_role;

-- ─── Import into a campaign ──────────────────────────────────────────────────────────────────────────────────────
-- import_user_rights(rows) becomes import_user_rights(rows, campaign_id default null): the old call shape still works
-- and loads into no campaign.

drop function public.import_user_rights(jsonb);
drop function private.resolve_import_rows(jsonb);

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

grant execute on function private.resolve_import_rows(jsonb, uuid) to authenticated;

-- rpc('import_user_rights', { rows, campaign_id? }) → { success, imported, errors: [{ line, errors: [...] }] }.
-- Imports rights all or nothing: either every line is valid and all are inserted (pending, into the campaign when one
-- is given — a draft, whose start will review them, or an active one, where they are reviewed at once — otherwise
-- into none), or none is and the report lists every bad line with its problems. A completed or archived campaign
-- takes no more rights.
create function public.import_user_rights(rows jsonb, campaign_id uuid default null) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  target public.campaigns;
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

-- ─── Admin dashboard ─────────────────────────────────────────────────────────────────────────────────────────────

-- rpc('admin_dashboard') → one row: active_campaigns, draft_campaigns, completed_campaigns, archived_campaigns,
-- users, applications (the admin dashboard's counters: active campaigns, users, applications, drafts). Admin and
-- rssi only.
create function public.admin_dashboard()
returns table (
  active_campaigns integer,
  draft_campaigns integer,
  completed_campaigns integer,
  archived_campaigns integer,
  users integer,
  applications integer
)
language plpgsql stable
set search_path = ''
as $$
begin
  perform private.require_admin('Seuls les administrateurs et le RSSI peuvent consulter le tableau de bord d''administration.');
  return query
    select
      (select count(*) from public.campaigns c where c.status = 'active')::integer,
      (select count(*) from public.campaigns c where c.status = 'draft')::integer,
      (select count(*) from public.campaigns c where c.status = 'completed')::integer,
      (select count(*) from public.campaigns c where c.status = 'archived')::integer,
      (select count(*) from public.users u)::integer,
      (select count(*) from public.applications a)::integer;
end;
$$;

revoke execute on function public.admin_dashboard() from public, anon;
grant execute on function public.admin_dashboard() to authenticated, service_role;
