-- The RSSI dashboard's trends: each campaign's items, validated and at risk, decisions per day, decided and waiting
-- items per stage.

-- ─── RSSI dashboard: trends ──────────────────────────────────────────────────────────────────────────────────────

-- The campaign items in scope of the trends: of the application and the account type asked for (null = any) that
-- match the search (private.search_pattern's, null = none) by what they recorded when their campaign started: role
-- name, holder's e-mail and name, application name. Inlined into its callers' queries, its body SQL-standard, as
-- private.rights_in_scope (see there).
create function private.items_in_scope(p_pattern text, p_application_id uuid, p_account_type public.account_type)
returns table (
  id uuid, campaign_id uuid, right_id uuid, holder_id uuid, holder_name text, holder_email text, manager_id uuid,
  manager_name text, application_id uuid, application_name text, ra_id uuid, bpo_metier_id uuid, bpo_groupe_id uuid,
  rssi_id uuid, role_name text, account_type public.account_type, granted_at timestamptz, last_used_at timestamptz,
  justification text, status public.right_status, undecided_at_closure boolean, created_at timestamptz,
  updated_at timestamptz
)
language sql stable
begin atomic
  select i.id, i.campaign_id, i.right_id, i.holder_id, i.holder_name, i.holder_email, i.manager_id, i.manager_name,
         i.application_id, i.application_name, i.ra_id, i.bpo_metier_id, i.bpo_groupe_id, i.rssi_id, i.role_name,
         i.account_type, i.granted_at, i.last_used_at, i.justification, i.status, i.undecided_at_closure, i.created_at,
         i.updated_at
    from public.campaign_items i
   where (p_application_id is null or i.application_id = p_application_id)
     and (p_account_type is null or i.account_type = p_account_type)
     and (
       p_pattern is null
       or i.role_name ilike p_pattern
       or i.holder_email ilike p_pattern
       or i.holder_name ilike p_pattern
       or i.application_name ilike p_pattern
     );
end;

-- The running campaigns' items in scope decided at least once, per review stage. Security definer, rssi only, as the
-- tally readers: read as the caller, each decision was fetched from the table to test its row-level policy, one
-- index lookup per running item (97 s for 2,355,656 items); as the owner, the decisions' item index alone answers,
-- hashed against the items (about 5 s).
create function private.running_stage_decisions(
  p_pattern text,
  p_application_id uuid,
  p_account_type public.account_type
)
returns table (stage public.review_stage, decided bigint)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
#variable_conflict use_column
begin
  perform private.require_rssi();
  return query
    select d.stage, count(distinct d.item_id)
      from public.right_decisions d
     where d.item_id in (
       select i.id
         from private.items_in_scope(p_pattern, p_application_id, p_account_type) i
         join public.campaigns c on c.id = i.campaign_id
        where c.status = 'active'
     )
     group by d.stage;
end;
$$;

revoke execute on function
  private.items_in_scope(text, uuid, public.account_type),
  private.running_stage_decisions(text, uuid, public.account_type)
  from public, anon, authenticated, service_role;
-- Called by rssi_trends, which runs as the caller.
grant execute on function
  private.items_in_scope(text, uuid, public.account_type),
  private.running_stage_decisions(text, uuid, public.account_type)
  to authenticated;

-- The decisions of the window per day, every day of it listed (from its first decision when it has no start, to today
-- when it has no end), counted as rssi_dashboard's activity counts them: without a search or an application, from the
-- tallies per hour (reading the 2,000,000 decisions of a month took 4 s); for one application or a search, those of
-- its rights in scope, found by index as the dashboard finds them (the search by its terms, private.search_terms).
create function private.trend_days(
  p_pattern text, p_roles text[], p_holders uuid[], p_applications uuid[], p_application_id uuid,
  p_account_type public.account_type, p_from date, p_to date, p_from_ts timestamptz, p_to_ts timestamptz,
  p_zone text, p_today date
) returns jsonb
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_days jsonb;
begin
  with
  scoped_rights as (
    select ur.id
      from private.rights_matching_terms(p_roles, p_holders, p_applications, p_application_id, p_account_type) ur
     where p_pattern is not null
    union all
    select ur.id
      from private.rights_in_scope(null, null, p_application_id, p_account_type) ur
     where p_pattern is null and p_application_id is not null
  ),
  decided as (
    select x.day, sum(x.approved)::bigint as approved, sum(x.refused)::bigint as refused
      from (
        select (d.decided_at at time zone p_zone)::date as day,
               count(*) filter (where d.decision = 'approved') as approved,
               count(*) filter (where d.decision = 'refused') as refused
          from scoped_rights ur
          join public.right_decisions d on d.right_id = ur.id
         where (p_from_ts is null or d.decided_at >= p_from_ts)
           and (p_to_ts is null or d.decided_at < p_to_ts)
         group by 1
        union all
        select t.day, t.approved, t.refused
          from private.tallied_days(p_account_type, p_from_ts, p_to_ts, p_zone) t
         where p_application_id is null and p_pattern is null
      ) x
     group by x.day
  ),
  days as (
    select g.day::date as day
      from generate_series(
        coalesce(p_from, (select min(x.day) from decided x), p_today),
        greatest(coalesce(p_to, p_today), coalesce(p_from, (select min(x.day) from decided x), p_today)),
        interval '1 day'
      ) g(day)
  )
  select coalesce(jsonb_agg(jsonb_build_object(
      'day', s.day,
      'approved', coalesce(x.approved, 0),
      'refused', coalesce(x.refused, 0)
    ) order by s.day), '[]'::jsonb)
    into v_days
    from days s
    left join decided x on x.day = s.day;
  return v_days;
end;
$$;

revoke execute on function
  private.trend_days(text, text[], uuid[], uuid[], uuid, public.account_type, date, date, timestamptz, timestamptz, text, date)
  from public;
grant execute on function
  private.trend_days(text, text[], uuid[], uuid[], uuid, public.account_type, date, date, timestamptz, timestamptz, text, date)
  to authenticated;

-- rssi_trends' campaigns and stages (see there), from one reading of the items in scope: the points' campaigns (the
-- last 12 of the window) and every running one, counted per campaign and status. Run as the caller, planned for each
-- call's filters as rssi_trends is (p_filtered: a search, an application or an account type is given).
create function private.trend_campaigns_and_stages(
  p_pattern text, p_application_id uuid, p_account_type public.account_type, p_from date, p_to date,
  p_filtered boolean, p_today date
) returns jsonb
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_points_and_stages jsonb;
begin
  -- Not materialized: each use below reads only its campaigns' items through campaign_items_campaign_status_idx,
  -- instead of every item of every campaign once.
  with items_in_scope as not materialized (
    select i.id, i.campaign_id, i.status, i.last_used_at, i.undecided_at_closure, i.application_id
      from private.items_in_scope(p_pattern, p_application_id, p_account_type) i
  ),
  recent as (
    select c.id, c.name, c.status, c.start_date,
           case when c.status = 'active' then p_today else c.end_date end as point_date
      from public.campaigns c
     -- rssi_dashboard's campaigns for the window.
     where private.campaign_in_window(c.status, c.start_date, c.end_date, p_from, p_to)
       and (not p_filtered or exists (select 1 from items_in_scope i where i.campaign_id = c.id))
     order by case when c.status = 'active' then p_today else c.end_date end desc, c.start_date desc, c.id desc
     limit 12
  ),
  -- The items of the points' campaigns and of every running one (the stages), read once and counted per campaign and
  -- status: the stages then test a few dozen groups against private.waiting_states, not every running item once per
  -- stage (2,355,656 items four times over took 38 s at 3,000,000 rights).
  -- The closure flag and, for an approval at BPO Métier, the application are kept for private.is_reviewed.
  per_status as (
    select i.campaign_id, i.status, i.undecided_at_closure,
           case when i.status = 'validated_bpo_metier' then i.application_id end as application_id,
           count(*) as items,
           count(*) filter (
             where i.last_used_at is null or i.last_used_at < k.point_date::timestamptz - interval '90 days'
           ) as at_risk
      from (
        select r.id, r.point_date from recent r
        union all
        select c.id, null from public.campaigns c where c.status = 'active' and c.id not in (select r.id from recent r)
      ) k
      join items_in_scope i on i.campaign_id = k.id
     group by 1, 2, 3, 4
  ),
  points as (
    select r.*,
           coalesce(sum(p.items), 0)::bigint as total,
           coalesce(sum(p.items) filter (where p.status = any (private.validated_statuses())), 0)::bigint as validated,
           coalesce(sum(p.items) filter (where j.reviewed), 0)::bigint as reviewed,
           coalesce(sum(p.items) filter (where r.status <> 'active' and not j.reviewed), 0)::bigint as undecided,
           coalesce(sum(p.at_risk), 0)::bigint as at_risk
      from recent r
      left join per_status p on p.campaign_id = r.id
      left join public.applications a on a.id = p.application_id
      cross join lateral (
        select private.is_reviewed(p.status, r.status <> 'active', p.undecided_at_closure, a.bpo_groupe_id is not null)
          as reviewed
      ) j
     group by r.id, r.name, r.status, r.start_date, r.point_date
  ),
  stage_list (stage, position) as (
    values ('manager'::public.review_stage, 1), ('bpo_metier', 2), ('bpo_groupe', 3), ('ra', 4)
  ),
  stages as (
    select s.stage, s.position, coalesce(x.decided, 0) as decided,
           (select coalesce(sum(p.items), 0)::bigint
              from per_status p
              join public.campaigns c on c.id = p.campaign_id
             where c.status = 'active' and p.status = any (private.waiting_states(s.stage))) as waiting
      from stage_list s
      left join private.running_stage_decisions(p_pattern, p_application_id, p_account_type) x on x.stage = s.stage
  )
  select jsonb_build_object(
    'campaigns', (
      select coalesce(jsonb_agg(jsonb_build_object(
          'id', p.id, 'name', p.name, 'status', p.status, 'point_date', p.point_date,
          'total_items', p.total, 'validated_items', p.validated, 'validation_rate', private.percent(p.validated, p.total),
          'reviewed_items', p.reviewed, 'undecided_items', p.undecided, 'review_rate', private.percent(p.reviewed, p.total),
          'at_risk_items', p.at_risk
        ) order by p.point_date, p.start_date, p.id), '[]'::jsonb)
        from points p
    ),
    'stages', (
      select jsonb_agg(jsonb_build_object('stage', s.stage, 'decided', s.decided, 'waiting', s.waiting) order by s.position)
        from stages s
    )
  )
  into v_points_and_stages;

  return v_points_and_stages;
end;
$$;

revoke execute on function
  private.trend_campaigns_and_stages(text, uuid, public.account_type, date, date, boolean, date)
  from public;
grant execute on function
  private.trend_campaigns_and_stages(text, uuid, public.account_type, date, date, boolean, date)
  to authenticated;

-- rpc('rssi_trends', { p_search, p_application_id, p_account_type, p_from, p_to, p_time_zone }) → one JSON object, the
-- RSSI dashboard's charts, under the dashboard's own filters and window (the same arguments as rssi_dashboard, same
-- meaning), so that a chart never tells another story than the figures above it:
--   as_of       the "now" of every figure
--   campaigns   [{ id, name, status, point_date, total_items, validated_items, validation_rate, reviewed_items,
--               undecided_items, review_rate, at_risk_items }] the campaigns rssi_dashboard counts for the window
--               (every running one, and the closed ones whose period overlaps it), the last 12, oldest first: one point
--               per completed or archived campaign at its end date, and per running one today, from its items in scope
--               (its own record): validation_rate = validated / all those items (the dashboard's Taux de conformité,
--               SPEC §9); reviewed_items, undecided_items and review_rate = those reviewed (private.is_reviewed), those
--               a closed campaign sent to the RA undecided, and reviewed / all (the campaign list's figures, over the
--               items in scope); at_risk_items = those never used or last used more than 90 days before the point's
--               date (Comptes à risque). Under a filter, a campaign with no item in scope is left out. An item is in
--               scope by what it recorded when the campaign started (its application, account type, holder's name and
--               e-mail, application name and role for the search): a closed campaign keeps its figures whatever
--               happened to its rights since.
--   days        [{ day, approved, refused }] every day of the window in p_time_zone (an open start: from the first
--               decision; an open end: today), the decisions taken that day on rights in scope, by outcome: they add
--               up to activity.decisions of rssi_dashboard under the same arguments
--   stages      [{ stage, decided, waiting }] a state, whatever the window: the running campaigns' items in scope per
--               review stage, manager, bpo_metier, bpo_groupe then ra: decided = decided at least once at that stage,
--               waiting = now waiting at that stage (private.waiting_states)
-- Rssi only (42501 'Réservé au RSSI.' otherwise); an unknown application, an inverted window or an unknown time zone are
-- refused in French, as by rssi_dashboard.
create function public.rssi_trends(
  p_search text default null,
  p_application_id uuid default null,
  p_account_type public.account_type default null,
  p_from date default null,
  p_to date default null,
  p_time_zone text default 'Europe/Paris'
) returns jsonb
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_filtered boolean := private.search_pattern(p_search) is not null or p_application_id is not null or p_account_type is not null;
  v_zone text := coalesce(nullif(btrim(p_time_zone), ''), 'Europe/Paris');
  v_today date;
  v_from_ts timestamptz;
  v_to_ts timestamptz;
  v_roles text[];
  v_holders uuid[];
  v_applications uuid[];
begin
  perform private.require_rssi();
  if v_pattern is not null then
    select t.roles, t.holders, t.applications into v_roles, v_holders, v_applications from private.search_terms(v_pattern) t;
  end if;
  perform private.require_application(p_application_id);
  select w.from_ts, w.to_ts into v_from_ts, v_to_ts from private.day_window(p_from, p_to, v_zone) w;
  v_today := (now() at time zone v_zone)::date;

  return jsonb_build_object(
    'as_of', now(),
    'days', private.trend_days(v_pattern, v_roles, v_holders, v_applications, p_application_id, p_account_type,
                               p_from, p_to, v_from_ts, v_to_ts, v_zone, v_today)
  ) || private.trend_campaigns_and_stages(v_pattern, p_application_id, p_account_type, p_from, p_to, v_filtered, v_today);
end;
$$;

revoke execute on function public.rssi_trends(text, uuid, public.account_type, date, date, text) from public, anon;
grant execute on function public.rssi_trends(text, uuid, public.account_type, date, date, text) to authenticated;
