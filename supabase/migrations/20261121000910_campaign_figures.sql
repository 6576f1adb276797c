-- Campaign figures: whether an item was reviewed, a campaign's progress and burndown, the rows of the three Excel
-- files, and the admin dashboard's counters. Run as the caller, under row-level security (20261121000900_reporting.sql).

-- ─── Campaign figures ────────────────────────────────────────────────────────────────────────────────────────────

-- Whether a campaign item was reviewed (« revu »): the one definition behind every campaign figure (the campaign list,
-- the RSSI dashboard and its trends, the evidence pack). An item is reviewed when its review reached an outcome before
-- the campaign closed: refused at some stage, or approved at the last one, BPO Groupe, or BPO Métier when the
-- application has no BPO Groupe (nobody reviews after them: Terminer leaves such an item validated rather than send it
-- to the RA). What the RA does with a refusal afterwards (treated, treatment_required) keeps it reviewed. Not reviewed:
-- still on its way in a running campaign, or sent undecided to the RA by Terminer (campaign_items.undecided_at_closure,
-- « non décidé à la clôture »). p_closed: its campaign is completed or archived, where an item validated by the BPO
-- Métier was left so by Terminer; p_has_bpo_groupe: the application has a BPO Groupe now (a running campaign's rule).
-- Inlined into its callers' queries, one of which tests each right a search matches: its body is SQL-standard, bound
-- when it is created, rather than under a SET clause, which would forbid inlining (as private.rights_in_scope).
create function private.is_reviewed(
  p_status public.right_status,
  p_closed boolean,
  p_undecided_at_closure boolean,
  p_has_bpo_groupe boolean
) returns boolean
language sql immutable
return not coalesce(p_undecided_at_closure, false) and (
  p_status in ('refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'validated_bpo_groupe',
               'treatment_required', 'treated')
  or (p_status = 'validated_bpo_metier' and (coalesce(p_closed, false) or not coalesce(p_has_bpo_groupe, false)))
);

revoke execute on function private.is_reviewed(public.right_status, boolean, boolean, boolean) from public;
-- Inlining checks EXECUTE as the caller, as a call would.
grant execute on function private.is_reviewed(public.right_status, boolean, boolean, boolean)
  to authenticated, service_role;

-- from('campaign_progress').select() → one row per campaign (filter with campaign_id=eq.…):
--   rights_count                the campaign's rights: the items of a started campaign (its own record, which a later
--                               campaign taking the same rights over leaves unchanged), the rights attached so far to a
--                               draft (imported into it: the start will review them);
--   reviewed_count, progress    the items reviewed (« revus », private.is_reviewed) and the review rate
--                               round(100 × reviewed / rights), null when the campaign holds no right; nothing of a
--                               draft is reviewed yet;
--   undecided_count             a closed campaign's items that were not reviewed, those Terminer sent to the RA (« non
--                               décidés à la clôture (transmis au RA) »); 0 for a draft or a running campaign;
--   pending_count, validated_manager_count, validated_bpo_metier_count
--                               the Excel dialog's three counts (manager, BPO Métier and BPO Groupe files);
--   validated_count, refused_count
--                               validated and refused rights (SPEC §4's badge colours).
-- Counted over the items (or a draft's rights) the caller may read.
create view public.campaign_progress
with (security_invoker = true)
as
-- Counted once per (campaign, status, closure flag), then folded per campaign: the tests run on a few dozen groups, not
-- on every item. The application is kept only where it matters, an approval at BPO Métier.
with counts as (
  select i.campaign_id, i.status, i.undecided_at_closure,
         case when i.status = 'validated_bpo_metier' then i.application_id end as application_id, count(*) as n
    from public.campaign_items i
   group by 1, 2, 3, 4
  union all
  select ur.campaign_id, ur.status, false, null::uuid, count(*) as n
    from public.user_rights ur
   where ur.campaign_id in (select d.id from public.campaigns d where d.status = 'draft')
   group by ur.campaign_id, ur.status
)
select
  c.id as campaign_id,
  coalesce(sum(k.n), 0)::integer as rights_count,
  coalesce(sum(k.n) filter (where j.reviewed), 0)::integer as reviewed_count,
  coalesce(sum(k.n) filter (where j.closed and not j.reviewed), 0)::integer as undecided_count,
  case when sum(k.n) > 0
    then round(100.0 * coalesce(sum(k.n) filter (where j.reviewed), 0) / sum(k.n))::integer
  end as progress,
  coalesce(sum(k.n) filter (where k.status = 'pending'), 0)::integer as pending_count,
  coalesce(sum(k.n) filter (where k.status = 'validated_manager'), 0)::integer as validated_manager_count,
  coalesce(sum(k.n) filter (where k.status = 'validated_bpo_metier'), 0)::integer as validated_bpo_metier_count,
  coalesce(sum(k.n) filter (where k.status = any (private.validated_statuses())), 0)::integer as validated_count,
  coalesce(sum(k.n) filter (where k.status = any (private.refused_statuses())), 0)::integer as refused_count
from public.campaigns c
left join counts k on k.campaign_id = c.id
left join public.applications a on a.id = k.application_id
cross join lateral (
  select c.status = any (private.closed_campaign_statuses()) as closed,
         c.status <> 'draft'
           and private.is_reviewed(
             k.status, c.status = any (private.closed_campaign_statuses()), k.undecided_at_closure, a.bpo_groupe_id is not null
           ) as reviewed
) j
group by c.id;

revoke all on public.campaign_progress from anon, authenticated, service_role;
grant select on public.campaign_progress to authenticated, service_role;

-- ─── Campaign burndown ───────────────────────────────────────────────────────────────────────────────────────────

-- rpc('campaign_burndown', { p_campaign_id, p_time_zone? }) → one row per day of the campaign, in p_time_zone (default
-- Europe/Paris), from its start date to its end date, or further while decisions go on or it is still active past its
-- end: day, decisions (decisions taken on its items that day, every stage; null for the days still to come), remaining (its items with no decision yet
-- at the end of that day; null for the days still to come), ideal (the straight line from all its items on the start
-- date to none on the end date, one decimal). The campaign page's chart: decisions per day against the deadline.
-- As the caller, over the items and decisions they may read, like campaign_progress: a draft or a campaign the caller
-- cannot read gives no row.
create function public.campaign_burndown(p_campaign_id uuid, p_time_zone text default 'Europe/Paris')
returns table (day date, decisions integer, remaining integer, ideal numeric)
language plpgsql stable
set search_path = ''
as $$
declare
  v_zone text := coalesce(nullif(btrim(p_time_zone), ''), 'Europe/Paris');
  v_today date;
begin
  -- Refuses an unknown time zone in French.
  perform private.day_window(null, null, v_zone);
  v_today := (now() at time zone v_zone)::date;
  return query
    with campaign as (
      select c.id, c.start_date, c.end_date, c.status,
             (select count(*) from public.campaign_items i where i.campaign_id = c.id) as total
        from public.campaigns c
       where c.id = p_campaign_id
         and c.status <> 'draft'
    ),
    decided as (
      select (d.decided_at at time zone v_zone)::date as day, count(*) as n, count(*) filter (where d.first) as firsts
        from (
          select d.decided_at,
                 row_number() over (partition by d.item_id order by d.decided_at, d.id) = 1 as first
            from public.right_decisions d
            join public.campaign_items i on i.id = d.item_id
           where d.campaign_id = p_campaign_id
        ) d
       group by 1
    ),
    days as (
      select g.day::date as day, c.total, c.start_date, c.end_date
        from campaign c
        cross join generate_series(
          c.start_date,
          greatest(
            c.end_date,
            case when c.status = 'active' then v_today end,
            (select max(x.day) from decided x)
          ),
          interval '1 day'
        ) g(day)
    )
    select
      s.day,
      -- A decision dated before the start (clock skew, a test's fixed clock) is counted on the first day.
      case when s.day <= v_today then coalesce(sum(x.n), 0)::integer end,
      case when s.day <= v_today
        then (s.total - sum(coalesce(sum(x.firsts), 0)) over (order by s.day))::integer
      end,
      round(greatest(s.total * (s.end_date - s.day)::numeric / greatest(s.end_date - s.start_date, 1), 0), 1)
    from days s
    left join decided x on x.day = s.day or (s.day = s.start_date and x.day < s.start_date)
    group by s.day, s.total, s.start_date, s.end_date
    order by s.day;
end;
$$;

revoke execute on function public.campaign_burndown(uuid, text) from public, anon;
grant execute on function public.campaign_burndown(uuid, text) to authenticated, service_role;

-- ─── Excel export rows ───────────────────────────────────────────────────────────────────────────────────────────

-- rpc('campaign_export_rows', { p_campaign_id, p_file, p_after_id?, p_limit? }) → one JSON array: the data rows of one
-- Excel file, ordered by right_id. p_file: 'manager' (the campaign's pending items), 'bpo_metier' (validated_manager)
-- or 'bpo_groupe' (validated_bpo_metier) (SPEC §2, §4). Paging: pass the last right_id of a page as p_after_id for the
-- next; p_limit between 1 and 10,000 (default 5000).
-- A started campaign's rows are its items, as they were reviewed in it (holder, application and dates as copied
-- then): the files of a closed campaign stay the same whatever later campaigns do with its rights. A draft's rows are
-- the rights attached to it so far, as the campaign list counts them.
-- A file of a hundred thousand rows is read in pages of thousands (one JSON value, which the API's 1000-row cap on a
-- set of rows does not cut), so each row is an array in a fixed order rather than an object repeating its keys, and
-- its times are milliseconds since 1970 (numbers a browser reads without parsing text) (SPEC §3):
--   [right_id, user_name, user_email, application_name, role_name, account_type, granted_at, last_used_at (null =
--    never used: the file says 'Jamais'), justification (SPEC §9's 'Accès nécessaire pour les fonctions' when empty),
--    status (the item's status; the BPO Groupe file's final status), decisions]
-- decisions is null or the latest decision taken on the item at each of the stages manager, bpo_metier and
-- bpo_groupe that has one, in stage order, each [stage, decision ('approved' or 'refused'), comment, decided_at,
-- decided_by_name]. Security invoker: over the items (or rights) and decisions the caller may read, and only their
-- granted columns.
create function public.campaign_export_rows(
  p_campaign_id uuid,
  p_file public.review_stage,
  p_after_id uuid default null,
  p_limit integer default 5000
)
returns json
language plpgsql stable
set search_path = ''
-- A page of thousands of rows is estimated past the JIT threshold (each row's decisions are a subquery), and compiling
-- it took about 2 s of a 5000-row page that runs in under 0.1 s.
set jit = off
as $$
declare
  after_id uuid := coalesce(p_after_id, '00000000-0000-0000-0000-000000000000');
  is_draft boolean;
  result json;
begin
  if p_limit is null or p_limit < 1 or p_limit > 10000 then
    raise exception 'La taille de page doit être comprise entre 1 et 10 000.' using errcode = '22023';
  end if;
  if p_file is null or p_file not in ('manager', 'bpo_metier', 'bpo_groupe') then
    raise exception 'Fichier d''export inconnu : « % » (attendu : manager, bpo_metier ou bpo_groupe).', coalesce(p_file::text, 'vide')
      using errcode = '22023';
  end if;
  select c.status = 'draft' into is_draft from public.campaigns c where c.id = p_campaign_id;
  if is_draft is null then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;

  -- One branch per file and source, each with its status as a constant so that it reads one page of its partial
  -- index in right id order (a limit of 0 leaves out the branches not asked for).
  with items as (
      (select i.* from public.campaign_items i
        where i.status = 'pending' and i.campaign_id = p_campaign_id and i.right_id > after_id
        order by i.right_id
        limit case when p_file = 'manager' and not is_draft then p_limit else 0 end)
      union all
      (select i.* from public.campaign_items i
        where i.status = 'validated_manager' and i.campaign_id = p_campaign_id and i.right_id > after_id
        order by i.right_id
        limit case when p_file = 'bpo_metier' and not is_draft then p_limit else 0 end)
      union all
      (select i.* from public.campaign_items i
        where i.status = 'validated_bpo_metier' and i.campaign_id = p_campaign_id and i.right_id > after_id
        order by i.right_id
        limit case when p_file = 'bpo_groupe' and not is_draft then p_limit else 0 end)
    ),
    draft_rights as (
      (select ur.* from public.user_rights ur
        where ur.status = 'pending' and ur.campaign_id = p_campaign_id and ur.id > after_id
        order by ur.id
        limit case when p_file = 'manager' and is_draft then p_limit else 0 end)
      union all
      (select ur.* from public.user_rights ur
        where ur.status = 'validated_manager' and ur.campaign_id = p_campaign_id and ur.id > after_id
        order by ur.id
        limit case when p_file = 'bpo_metier' and is_draft then p_limit else 0 end)
      union all
      (select ur.* from public.user_rights ur
        where ur.status = 'validated_bpo_metier' and ur.campaign_id = p_campaign_id and ur.id > after_id
        order by ur.id
        limit case when p_file = 'bpo_groupe' and is_draft then p_limit else 0 end)
    ),
    page as (
      select i.id as item_id, i.right_id, i.holder_name, i.holder_email, i.application_name, i.role_name,
             i.account_type, i.granted_at, i.last_used_at, i.justification, i.status
        from items i
      union all
      select null::uuid, ur.id, h.first_name || ' ' || h.last_name, h.email, a.name,
             ur.role_name, ur.account_type, ur.granted_at, ur.last_used_at, ur.justification, ur.status
        from draft_rights ur
        join public.users h on h.id = ur.user_id
        join public.applications a on a.id = ur.application_id
    )
  select coalesce(json_agg(json_build_array(
           p.right_id, p.holder_name, p.holder_email, p.application_name, p.role_name, p.account_type,
           floor(extract(epoch from p.granted_at) * 1000)::bigint,
           floor(extract(epoch from p.last_used_at) * 1000)::bigint,
           coalesce(nullif(btrim(p.justification), ''), 'Accès nécessaire pour les fonctions'),
           p.status,
           -- The latest decision at each stage on the item (a draft's rights have no item, hence none).
           (select json_agg(json_build_array(
                     d.stage, d.decision, d.comment, floor(extract(epoch from d.decided_at) * 1000)::bigint, d.decided_by_name
                   ) order by d.stage)
              from (
                select distinct on (x.stage) x.stage, x.decision, x.comment, x.decided_at, x.decided_by_name
                  from public.right_decisions x
                 where x.item_id = p.item_id and x.stage in ('manager', 'bpo_metier', 'bpo_groupe')
                 order by x.stage, x.decided_at desc, x.id desc
              ) d)
         ) order by p.right_id), '[]'::json)
    into result
    from page p;
  return result;
end;
$$;

revoke execute on function public.campaign_export_rows(uuid, public.review_stage, uuid, integer) from public, anon;
grant execute on function public.campaign_export_rows(uuid, public.review_stage, uuid, integer) to authenticated, service_role;

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
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent consulter le tableau de bord d''administration.');
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

-- rpc('admin_alerts') → { overdue_campaigns }, what waits for an administrator or the security officer, the header's
-- bell for them (SPEC §2): overdue_campaigns = campaigns still active past their end date (in Europe/Paris), which wait
-- for Terminer. One object, not a table: the API answers a one-column table as a bare array of numbers. Admin and rssi
-- only.
create function public.admin_alerts()
returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI reçoivent ces alertes.');
  return jsonb_build_object(
    'overdue_campaigns', (
      select count(*)::integer
        from public.campaigns c
       where c.status = 'active'
         and c.end_date < (now() at time zone 'Europe/Paris')::date
    )
  );
end;
$$;

revoke execute on function public.admin_alerts() from public, anon;
grant execute on function public.admin_alerts() to authenticated, service_role;
