-- The RSSI dashboard (its figures, its CSV export and the lists behind its risks), over the helpers, tallies and risk
-- sets of the files before (20261121000900_reporting.sql gives the definitions).

-- ─── RSSI dashboard ──────────────────────────────────────────────────────────────────────────────────────────────

-- rpc('rssi_dashboard', { p_search, p_application_id, p_account_type, p_from, p_to, p_time_zone }) → one JSON object.
--
-- Filters. The scope is a set of rights: p_search (contains, case-insensitive, over the holder's e-mail, the holder's
-- "first last" name, the application's name and the role name), p_application_id and p_account_type; each null or
-- blank = no restriction. The window p_from..p_to (dates, both included, in p_time_zone; either end open when null;
-- the period buttons set it: Semaine = today − 7 days, Mois = today − 1 month, Trimestre = today − 3 months; the
-- screen opens on Mois, SPEC's default of about 30 days, and computes the dates).
--
-- How the window applies (decision, for the auditor):
--   * State figures describe the rights and campaigns as they are now (the screen says « à ce jour »), whenever they
--     were granted: taux de conformité, comptes à risque, conformité par application and the risks are computed over
--     EVERY right in scope, and revues en cours counts every active campaign (the 'Campagnes actives' table lists
--     exactly these, an overdue one included); the window does not narrow them. Limiting them to rights granted (or changed) in the last 30 days would hide the old,
--     unused rights that are the very risk being measured. The CSV export (rssi_rights_export) lists this same
--     population, so every state figure can be recounted from the file.
--   * Activity figures describe what happened during the window (the screen says « sur la période »): revues
--     complétées = the completed or archived campaigns whose period [start_date, end_date] overlaps the window, and
--     `activity`, the review decisions taken in the window (right_decisions.decided_at).
--   * Filters only ever narrow. With no right filter (search, application, account type) every campaign and every
--     decision of the window counts. With one, a campaign counts when it reviewed at least one right in scope (such
--     a right is attached to it, or was decided on in it), and a decision counts when its right is in scope; a right
--     deleted since is in no scope.
--
-- How it counts: by one of two strategies of one row type (private.rssi_scope_figures): without a search, from the
-- tallies (the rights per application, account type, campaign and status; the last uses per day; the decisions per
-- hour), one application's decisions from its rights; with a search, over the rights it matches and their decisions.
--
-- Result:
--   as_of               timestamptz — the "now" of every figure
--   filters             the filters as applied { search, application_id, account_type, from, to, time_zone }
--   counters            { total_rights, validated_rights, validation_rate (int|null) = validated / all rights in
--                         scope, validation_level (its colour), at_risk_rights (Comptes à risque),
--                         reviews_in_progress, reviews_completed }. validation_rate is not the compliance page's
--                         compliance_rate (compliant / all rights, rssi_compliance): two figures (SPEC §9)
--   compliance_by_application  [{ application_id, application_name, total_rights, validated_rights, rate, level }]
--                         validated / all rights of that application in scope; only applications with at least one
--                         right in scope; by name
--   risks               [{ key, label, count, ignored_filters }], what each label says (ARCHITECTURE §6), the leavers
--                         first, then in SPEC order:
--                         expired 'Comptes expirés' = rights of deactivated people not yet treated by the RA;
--                         inactive 'Comptes inactifs' = at-risk rights;
--                         incompatible_roles 'Rôles incompatibles' = violations of the enabled incompatible_roles
--                         rules, one per rule and person, exactly as rssi_compliance counts them under the same
--                         application (private.role_conflicts_of); the search and the account type do not apply;
--                         duplicates 'Doublons' = rights held twice (private.duplicate_rights_of).
--                         ignored_filters lists the filters set that a risk does not apply ('search', 'account_type').
--                         rssi_risk_list gives the entries behind each count.
--   active_campaigns    [{ id, name, description, application_id, application_name (null = Toutes), account_type
--                         (null = Tous), start_date, end_date, total_rights, reviewed_rights, progress,
--                         scope_rights, scope_reviewed_rights, scope_progress }] by start date then name;
--                         reviewed_rights = its rights reviewed so far (private.is_reviewed, as the campaign list
--                         counts them), progress = reviewed / all its rights, scope_* the same over its rights in scope
--                         (equal to the whole when no right filter is set)
--   activity            { decisions, approved, refused } decisions taken in the window (on rights in scope)
-- Whether a campaign reviewed anything the window asks about: every running one (a state, whatever the window; one
-- past its end date is still running), and the closed ones whose period [start_date, end_date] overlaps it.
create function private.campaign_in_window(
  p_status public.campaign_status, p_start date, p_end date, p_from date, p_to date
) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_status = 'active'
      or (p_status = any (private.closed_campaign_statuses())
          and (p_to is null or p_start <= p_to)
          and (p_from is null or p_end >= p_from))
$$;

-- The French label of each risk the dashboard counts; null for anything else.
create function private.risk_label(p_risk text) returns text
language sql immutable
set search_path = ''
as $$
  select case p_risk
    when 'expired' then 'Comptes expirés'
    when 'inactive' then 'Comptes inactifs'
    when 'incompatible_roles' then 'Rôles incompatibles'
    when 'duplicates' then 'Doublons'
  end
$$;

-- What the dashboard counts over a scope of rights, whichever strategy counted it.
create type private.rssi_scope_figures as (
  total bigint,               -- the rights in scope
  validated bigint,           -- of which validated
  at_risk bigint,             -- of which never used or unused since the cutoff
  expired bigint,             -- held by deactivated people and not yet treated by the RA
  duplicates bigint,          -- held twice (private.duplicated_right_ids)
  by_application jsonb,       -- [{ application_id, total, validated }] of the applications with rights in scope
  by_campaign jsonb,          -- { campaign_id: { total, reviewed } } of the rights in scope attached to each campaign
  decided_campaigns uuid[],   -- the window's campaigns with no right in scope attached that decided on one
  decisions bigint,           -- the decisions of the window on rights in scope
  approved bigint,
  refused bigint
);

-- Counted over the rights a search matches (private.rights_in_scope's criteria, by the terms private.search_terms
-- finds), read once, by index on each term: role name, holder, application. Testing each of 3,000,000 rights took
-- 28.6 s for « martin » (54,670 rights); a list of their ids read by primary key, 1.3 s.
create function private.rssi_figures_of_search(
  p_pattern text, p_application_id uuid, p_account_type public.account_type, p_cutoff timestamptz,
  p_from date, p_to date, p_from_ts timestamptz, p_to_ts timestamptz
) returns private.rssi_scope_figures
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_terms record;
  v_figures private.rssi_scope_figures;
begin
  select t.roles, t.holders, t.applications into v_terms from private.search_terms(p_pattern) t;
  with
  matched as materialized (
    select ur.*
      from private.rights_matching_terms(v_terms.roles, v_terms.holders, v_terms.applications, p_application_id,
                                         p_account_type) ur
     -- In id order, so that looking up their decisions walks right_decisions_right_id_idx forwards: about 40 % less
     -- time than in the heap's order for 54,670 rights.
     order by ur.id
  ),
  grouped as (
    select grouping(ur.application_id) = 1 as by_campaign, ur.application_id, ur.campaign_id,
           count(*) as total,
           count(*) filter (where ur.status = any (private.validated_statuses())) as validated,
           count(*) filter (where ur.last_used_at is null or ur.last_used_at < p_cutoff) as at_risk,
           -- As private.tallied_rights counts them: a running campaign's rights, the only ones read.
           count(*) filter (where private.is_reviewed(ur.status, false, false, ap.bpo_groupe_id is not null)) as reviewed
      from matched ur
      left join public.applications ap on ap.id = ur.application_id
     group by grouping sets ((ur.application_id), (ur.campaign_id))
  ),
  -- The window's campaigns no matched right is attached to (none, most often: then no decision is read for them).
  candidates as (
    select c.id
      from public.campaigns c
     where private.campaign_in_window(c.status, c.start_date, c.end_date, p_from, p_to)
       and not exists (select 1 from grouped g where g.by_campaign and g.campaign_id = c.id)
  ),
  window_decisions as (
    select d.decision
      from matched ur
      join public.right_decisions d on d.right_id = ur.id
     where (p_from_ts is null or d.decided_at >= p_from_ts)
       and (p_to_ts is null or d.decided_at < p_to_ts)
  )
  select
    coalesce(sum(g.total) filter (where not g.by_campaign), 0)::bigint,
    coalesce(sum(g.validated) filter (where not g.by_campaign), 0)::bigint,
    coalesce(sum(g.at_risk) filter (where not g.by_campaign), 0)::bigint,
    (select count(*) from matched ur
      where ur.status <> 'treated' and ur.user_id in (select u.id from public.users u where not u.active)),
    (select count(*) from matched ur where ur.id in (select d.id from private.duplicated_right_ids() d)),
    coalesce(jsonb_agg(jsonb_build_object('application_id', g.application_id, 'total', g.total, 'validated', g.validated))
               filter (where not g.by_campaign), '[]'),
    coalesce(jsonb_object_agg(g.campaign_id, jsonb_build_object('total', g.total, 'reviewed', g.reviewed))
               filter (where g.by_campaign and g.campaign_id is not null), '{}'),
    -- In one pass over the matched rights' decisions: campaign by campaign, every matched right was read again for
    -- each (6.5 s for 54,670 rights and 18 campaigns).
    array(select distinct d.campaign_id
            from matched ur
            join public.right_decisions d on d.right_id = ur.id
           where exists (select 1 from candidates)
             and d.campaign_id in (select x.id from candidates x)),
    (select count(*) from window_decisions),
    (select count(*) from window_decisions w where w.decision = 'approved'),
    (select count(*) from window_decisions w where w.decision = 'refused')
  into v_figures
  from grouped g;
  return v_figures;
end;
$$;

-- Counted from the tallies (the rights per application, account type, campaign and status; the last uses per day;
-- the decisions per hour), one application's decisions and leavers' rights from its rights.
create function private.rssi_figures_of_tallies(
  p_application_id uuid, p_account_type public.account_type, p_cutoff timestamptz,
  p_from date, p_to date, p_from_ts timestamptz, p_to_ts timestamptz
) returns private.rssi_scope_figures
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_filtered boolean := p_application_id is not null or p_account_type is not null;
  v_figures private.rssi_scope_figures;
begin
  with
  tallied as (
    select t.* from private.tallied_rights(p_application_id, p_account_type) t
  ),
  -- With a filter, the window's campaigns no right in scope is attached to that decided on one: looked for only where
  -- the tallies say one may be, and only until one is found.
  candidates as materialized (
    select c.id
      from public.campaigns c
      join private.maybe_decided_campaigns(p_application_id, p_account_type) m (id) on m.id = c.id
     where v_filtered
       and private.campaign_in_window(c.status, c.start_date, c.end_date, p_from, p_to)
       and not exists (select 1 from tallied t where t.by_campaign and t.campaign_id = c.id and t.total > 0)
  ),
  -- Campaign by campaign, stopping at the first: as a semi-join the planner hashed every decision of every campaign.
  decided as (
    select x.id
      from candidates x
     cross join lateral (
       select 1
         from public.right_decisions d
         join private.rights_in_scope(null, null, p_application_id, p_account_type) ur on ur.id = d.right_id
        where d.campaign_id = x.id
        limit 1
     ) found
  ),
  -- For one application, its rights' decisions (right_decisions_right_id_idx); otherwise the decisions per hour.
  activity as (
    select count(*) as decisions,
           count(*) filter (where d.decision = 'approved') as approved,
           count(*) filter (where d.decision = 'refused') as refused
      from private.rights_in_scope(null, null, p_application_id, p_account_type) ur
      join public.right_decisions d on d.right_id = ur.id
     where p_application_id is not null
       and (p_from_ts is null or d.decided_at >= p_from_ts)
       and (p_to_ts is null or d.decided_at < p_to_ts)
    union all
    select a.decisions, a.approved, a.refused
      from private.tallied_activity(p_account_type, p_from_ts, p_to_ts) a
     where p_application_id is null
  )
  select
    coalesce(sum(t.total) filter (where not t.by_campaign), 0)::bigint,
    coalesce(sum(t.validated) filter (where not t.by_campaign), 0)::bigint,
    private.tallied_at_risk(p_application_id, p_account_type, p_cutoff),
    -- Found from the few leavers (users_inactive_idx) rather than by joining every right.
    (select count(*)
       from private.rights_in_scope(null, null, p_application_id, p_account_type) ur
      where ur.status <> 'treated' and ur.user_id in (select u.id from public.users u where not u.active)),
    private.duplicate_count(p_application_id, p_account_type),
    coalesce(jsonb_agg(jsonb_build_object('application_id', t.application_id, 'total', t.total, 'validated', t.validated))
               filter (where not t.by_campaign), '[]'),
    coalesce(jsonb_object_agg(t.campaign_id, jsonb_build_object('total', t.total, 'reviewed', t.reviewed))
               filter (where t.by_campaign and t.campaign_id is not null and t.total > 0), '{}'),
    array(select x.id from decided x),
    (select sum(a.decisions)::bigint from activity a),
    (select sum(a.approved)::bigint from activity a),
    (select sum(a.refused)::bigint from activity a)
  into v_figures
  from tallied t;
  return v_figures;
end;
$$;

-- The campaigns that reviewed rights in scope, as the dashboard shows them: how many are running and closed, and the
-- running ones with their progress over all their rights and over those in scope (the same when nothing narrows it).
create function private.rssi_campaigns_of(
  p_figures private.rssi_scope_figures, p_filtered boolean, p_from date, p_to date,
  out in_progress bigint, out completed bigint, out active jsonb
)
language plpgsql stable
set search_path = ''
as $$
begin
  with
  in_scope as (
    select c.*, coalesce((p_figures.by_campaign -> c.id::text ->> 'total')::bigint, 0) as scope_total,
           coalesce((p_figures.by_campaign -> c.id::text ->> 'reviewed')::bigint, 0) as scope_reviewed
      from public.campaigns c
     where private.campaign_in_window(c.status, c.start_date, c.end_date, p_from, p_to)
       and (not p_filtered or p_figures.by_campaign ? c.id::text or c.id = any (p_figures.decided_campaigns))
  ),
  -- The whole of each running campaign when the scope is narrower than everything (its rights are its items).
  whole as (
    select t.campaign_id, t.total, t.reviewed from private.tallied_rights(null, null) t where p_filtered and t.by_campaign
  ),
  running as (
    select c.*,
           case when p_filtered then coalesce(w.total, 0) else c.scope_total end as total,
           case when p_filtered then coalesce(w.reviewed, 0) else c.scope_reviewed end as reviewed
      from in_scope c
      left join whole w on w.campaign_id = c.id
     where c.status = 'active'
  )
  select (select count(*) from in_scope c where c.status = 'active'),
         (select count(*) from in_scope c where c.status = any (private.closed_campaign_statuses())),
         (select coalesce(jsonb_agg(jsonb_build_object(
             'id', c.id, 'name', c.name, 'description', c.description,
             'application_id', c.application_id, 'application_name', a.name, 'account_type', c.account_type,
             'start_date', c.start_date, 'end_date', c.end_date,
             'total_rights', c.total, 'reviewed_rights', c.reviewed, 'progress', private.percent(c.reviewed, c.total),
             'scope_rights', c.scope_total, 'scope_reviewed_rights', c.scope_reviewed,
             'scope_progress', private.percent(c.scope_reviewed, c.scope_total)
           ) order by c.start_date, c.name, c.id), '[]'::jsonb)
            from running c
            left join public.applications a on a.id = c.application_id)
    into in_progress, completed, active;
end;
$$;

revoke execute on function
  private.risk_label(text),
  private.campaign_in_window(public.campaign_status, date, date, date, date),
  private.rssi_figures_of_search(text, uuid, public.account_type, timestamptz, date, date, timestamptz, timestamptz),
  private.rssi_figures_of_tallies(uuid, public.account_type, timestamptz, date, date, timestamptz, timestamptz),
  private.rssi_campaigns_of(private.rssi_scope_figures, boolean, date, date)
  from public;
grant execute on function
  private.risk_label(text),
  private.campaign_in_window(public.campaign_status, date, date, date, date),
  private.rssi_figures_of_search(text, uuid, public.account_type, timestamptz, date, date, timestamptz, timestamptz),
  private.rssi_figures_of_tallies(uuid, public.account_type, timestamptz, date, date, timestamptz, timestamptz),
  private.rssi_campaigns_of(private.rssi_scope_figures, boolean, date, date)
  to authenticated;

-- The dispatcher: checks the caller and the filters, counts the scope by the strategy that fits (the rights a search
-- matches, or the tallies), and writes the figures.
create function public.rssi_dashboard(
  p_search text default null,
  p_application_id uuid default null,
  p_account_type public.account_type default null,
  p_from date default null,
  p_to date default null,
  p_time_zone text default 'Europe/Paris'
) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_filtered boolean := private.search_pattern(p_search) is not null or p_application_id is not null or p_account_type is not null;
  v_zone text := coalesce(nullif(btrim(p_time_zone), ''), 'Europe/Paris');
  v_cutoff timestamptz := now() - interval '90 days';
  v_from_ts timestamptz;
  v_to_ts timestamptz;
  f private.rssi_scope_figures;
  c record;
begin
  perform private.require_rssi();
  perform private.require_application(p_application_id);
  select w.from_ts, w.to_ts into v_from_ts, v_to_ts from private.day_window(p_from, p_to, v_zone) w;
  if v_pattern is null then
    f := private.rssi_figures_of_tallies(p_application_id, p_account_type, v_cutoff, p_from, p_to, v_from_ts, v_to_ts);
  else
    f := private.rssi_figures_of_search(v_pattern, p_application_id, p_account_type, v_cutoff, p_from, p_to, v_from_ts, v_to_ts);
  end if;
  c := private.rssi_campaigns_of(f, v_filtered, p_from, p_to);

  return jsonb_build_object(
    'as_of', now(),
    'filters', jsonb_build_object('search', nullif(btrim(p_search), ''), 'application_id', p_application_id,
                                  'account_type', p_account_type, 'from', p_from, 'to', p_to, 'time_zone', v_zone),
    'counters', jsonb_build_object(
      'total_rights', f.total,
      'validated_rights', f.validated,
      'validation_rate', private.percent(f.validated, f.total),
      'validation_level', private.rate_level(private.percent(f.validated, f.total)),
      'at_risk_rights', f.at_risk,
      'reviews_in_progress', c.in_progress,
      'reviews_completed', c.completed
    ),
    'compliance_by_application', (
      select coalesce(jsonb_agg(jsonb_build_object(
          'application_id', a.id, 'application_name', a.name,
          'total_rights', (p ->> 'total')::bigint, 'validated_rights', (p ->> 'validated')::bigint,
          'rate', private.percent((p ->> 'validated')::bigint, (p ->> 'total')::bigint),
          'level', private.rate_level(private.percent((p ->> 'validated')::bigint, (p ->> 'total')::bigint))
        ) order by a.name, a.id), '[]'::jsonb)
        from jsonb_array_elements(f.by_application) p
        join public.applications a on a.id = (p ->> 'application_id')::uuid
    ),
    -- The leavers' rights first, then in SPEC order; the incompatible roles under the same application as
    -- rssi_compliance (the search and the account type do not apply to them).
    'risks', jsonb_build_array(
      jsonb_build_object('key', 'expired', 'label', private.risk_label('expired'), 'ignored_filters', '[]'::jsonb, 'count', f.expired),
      jsonb_build_object('key', 'inactive', 'label', private.risk_label('inactive'), 'ignored_filters', '[]'::jsonb, 'count', f.at_risk),
      jsonb_build_object('key', 'incompatible_roles', 'label', private.risk_label('incompatible_roles'),
        'ignored_filters', private.risk_ignored_filters('incompatible_roles', v_pattern, p_account_type),
        'count', private.role_conflict_count(p_application_id)),
      jsonb_build_object('key', 'duplicates', 'label', private.risk_label('duplicates'), 'ignored_filters', '[]'::jsonb, 'count', f.duplicates)
    ),
    'active_campaigns', c.active,
    'activity', jsonb_build_object('decisions', f.decisions, 'approved', f.approved, 'refused', f.refused)
  );
end;
$$;

revoke execute on function
  public.rssi_dashboard(text, uuid, public.account_type, date, date, text)
  from public, anon;

grant execute on function
  public.rssi_dashboard(text, uuid, public.account_type, date, date, text)
  to authenticated;

-- ─── RSSI dashboard: CSV export ──────────────────────────────────────────────────────────────────────────────────

-- rpc('rssi_rights_export', { p_search, p_application_id, p_account_type, p_after_id, p_limit }) → rows.
-- The rights in scope of the dashboard (same filters, same meaning; no window: these are the rights the state
-- figures count), one page at a time in id order: pass the id of the last row received as p_after_id for the next
-- page and stop at a page shorter than p_limit (1 to 1000, default 1000 — the API's cap, so no page is cut). Keyset
-- paging: a right added or removed meanwhile never shifts the pages. rssi_rights_count gives the total to expect.
-- SPEC §9 columns: Application = application_name, Utilisateur = user_name (and user_email), Rôle = role_name,
-- Statut = status_label (French; status is the code), Date d'attribution = granted_at, Dernière utilisation =
-- last_used_at (null → 'Jamais'), Campagne = campaign_name (null when the right is in no campaign).
create function public.rssi_rights_export(
  p_search text default null,
  p_application_id uuid default null,
  p_account_type public.account_type default null,
  p_after_id uuid default null,
  p_limit integer default 1000
) returns table (
  id uuid,
  application_id uuid,
  application_name text,
  user_id uuid,
  user_name text,
  user_email text,
  role_name text,
  account_type public.account_type,
  status public.right_status,
  status_label text,
  granted_at timestamptz,
  last_used_at timestamptz,
  validated_at timestamptz,
  campaign_id uuid,
  campaign_name text
)
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
#variable_conflict use_column
declare
  v_pattern text := private.search_pattern(p_search);
  v_few uuid[];
begin
  perform private.require_rssi();
  v_few := case when v_pattern is not null then private.rights_matching_if_few(v_pattern) end;
  perform private.require_page(p_limit, 0);
  perform private.require_application(p_application_id);

  -- Walks the primary key from p_after_id and stops as soon as the page is full, so each page costs about the same
  -- however far the export has gone; a search matching few rights reads just those (private.rights_matching_if_few).
  return query
  select
    ur.id, ur.application_id, a.name, ur.user_id, u.first_name || ' ' || u.last_name, u.email,
    ur.role_name, ur.account_type, ur.status, private.right_status_label(ur.status),
    ur.granted_at, ur.last_used_at, ur.validated_at, ur.campaign_id, c.name
  from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur
  join public.applications a on a.id = ur.application_id
  join public.users u on u.id = ur.user_id
  left join public.campaigns c on c.id = ur.campaign_id
  where p_after_id is null or ur.id > p_after_id
  order by ur.id
  limit p_limit;
end;
$$;

-- rpc('rssi_rights_count', { p_search, p_application_id, p_account_type }) → bigint: the rights the export lists
-- (= counters.total_rights of the dashboard under the same filters).
create function public.rssi_rights_count(
  p_search text default null,
  p_application_id uuid default null,
  p_account_type public.account_type default null
) returns bigint
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_count bigint;
  v_few uuid[];
begin
  perform private.require_rssi();
  v_few := case when v_pattern is not null then private.rights_matching_if_few(v_pattern) end;
  perform private.require_application(p_application_id);

  select count(*) into v_count
    from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur;
  return v_count;
end;
$$;

revoke execute on function
  public.rssi_rights_export(text, uuid, public.account_type, uuid, integer),
  public.rssi_rights_count(text, uuid, public.account_type)
  from public, anon;

grant execute on function
  public.rssi_rights_export(text, uuid, public.account_type, uuid, integer),
  public.rssi_rights_count(text, uuid, public.account_type)
  to authenticated;

-- ─── RSSI dashboard: the lists behind the risks ──────────────────────────────────────────────────────────────────

-- rpc('rssi_risk_list', { p_risk, p_search, p_application_id, p_account_type, p_offset, p_limit }) → one JSON object:
-- the entries one risk of rssi_dashboard counts under the same filters (same arguments, same meaning; no window: the
-- risks are states), one page of p_limit (1 to 1000, default 50) from p_offset (0 = the first). Offset paging, as
-- the page buttons ask; every order ends on a unique key, so that pages neither overlap nor skip.
--   key, label, ignored_filters   as the dashboard's risk; total = its count, the length of the whole list
--   rows   expired, inactive, duplicates: rights [{ id, user_id, user_name, user_email, user_active, application_id,
--            application_name, role_name, account_type, status, status_label, last_used_at }]; inactive by last use,
--            oldest first and never used last (user_rights_last_used_at_idx walks the first pages at any size), the
--            others by holder (last name, first name), application and role, so that a person's duplicates are together;
--          incompatible_roles: violations [{ rule_id, rule_name, user_id, user_name, user_email, user_active, rights:
--            [{ id, role_name, application_id, application_name }] }] by rule, then person; rights = the person's rights
--            under the rule's names within its scope, those that make the violation.
-- An unknown p_risk is refused (22023).
-- The rights behind a risk other than the incompatible roles, under the dashboard's filters: how many there are (the
-- dashboard's own count) and the ids of one page, in the list's order.
create function private.risk_right_page(
  p_risk text, p_pattern text, p_application_id uuid, p_account_type public.account_type, p_cutoff timestamptz,
  p_offset integer, p_limit integer, out total bigint, out ids uuid[]
)
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_few uuid[] := case when p_pattern is not null then private.rights_matching_if_few(p_pattern) end;
begin
  if p_risk = 'expired' then
    -- As the dashboard counts them: from the few leavers (users_inactive_idx).
    select count(*) into total
      from private.rights_in_scope(p_pattern, v_few, p_application_id, p_account_type) ur
     where ur.status <> 'treated'
       and ur.user_id in (select u.id from public.users u where not u.active);
    ids := array(
      select ur.id
        from private.rights_in_scope(p_pattern, v_few, p_application_id, p_account_type) ur
        join public.users h on h.id = ur.user_id
        join public.applications a on a.id = ur.application_id
       where ur.status <> 'treated'
         and ur.user_id in (select u.id from public.users u where not u.active)
       order by h.last_name, h.first_name, h.id, a.name, a.id, ur.role_name, ur.id
      offset p_offset limit p_limit
    );
  elsif p_risk = 'duplicates' then
    if p_pattern is null then
      total := private.duplicate_count(p_application_id, p_account_type);
    else
      select count(*) into total
        from private.rights_in_scope(p_pattern, v_few, p_application_id, p_account_type) ur
       where ur.id in (select d.id from private.duplicated_right_ids() d);
    end if;
    ids := array(
      select ur.id
        from private.rights_in_scope(p_pattern, v_few, p_application_id, p_account_type) ur
        join public.users h on h.id = ur.user_id
        join public.applications a on a.id = ur.application_id
       where ur.id in (select d.id from private.duplicated_right_ids() d)
       order by h.last_name, h.first_name, h.id, a.name, a.id, ur.role_name, ur.id
      offset p_offset limit p_limit
    );
  else
    -- Without a search, the dashboard's own count (the usage tally); with one, the matching rights counted.
    if p_pattern is null then
      total := private.tallied_at_risk(p_application_id, p_account_type, p_cutoff);
    else
      select count(*) into total
        from private.rights_in_scope(p_pattern, v_few, p_application_id, p_account_type) ur
       where ur.last_used_at is null or ur.last_used_at < p_cutoff;
    end if;
    ids := array(
      select ur.id
        from private.rights_in_scope(p_pattern, v_few, p_application_id, p_account_type) ur
       where ur.last_used_at is null or ur.last_used_at < p_cutoff
       order by ur.last_used_at, ur.id
      offset p_offset limit p_limit
    );
  end if;
end;
$$;

-- Rights as the risk lists show them, in the order of the ids given.
create function private.risk_right_rows(p_ids uuid[]) returns jsonb
language sql stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', ur.id,
      'user_id', u.id,
      'user_name', u.first_name || ' ' || u.last_name,
      'user_email', u.email,
      'user_active', u.active,
      'application_id', a.id,
      'application_name', a.name,
      'role_name', ur.role_name,
      'account_type', ur.account_type,
      'status', ur.status,
      'status_label', private.right_status_label(ur.status),
      'last_used_at', ur.last_used_at
    ) order by p.n), '[]'::jsonb)
    from unnest(p_ids) with ordinality p (id, n)
    join public.user_rights ur on ur.id = p.id
    join public.users u on u.id = ur.user_id
    join public.applications a on a.id = ur.application_id
$$;

-- One page of the incompatible-roles violations (one per rule and person), each with the rights that make it: the
-- person's rights under the rule's names within its scope.
create function private.role_conflict_rows(p_application_id uuid, p_offset integer, p_limit integer) returns jsonb
language sql stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'rule_id', r.id,
      'rule_name', r.name,
      'user_id', u.id,
      'user_name', u.first_name || ' ' || u.last_name,
      'user_email', u.email,
      'user_active', u.active,
      'rights', (
        select coalesce(jsonb_agg(jsonb_build_object(
            'id', ur.id, 'role_name', ur.role_name, 'application_id', a.id, 'application_name', a.name
          ) order by ur.role_name, a.name, ur.id), '[]'::jsonb)
          from public.user_rights ur
          join public.applications a on a.id = ur.application_id
         where ur.user_id = u.id
           and ur.role_name = any (private.rule_roles(r.parameters))
           and (coalesce(r.application_id, p_application_id) is null
                or ur.application_id = coalesce(r.application_id, p_application_id))
      )
    ) order by p.n), '[]'::jsonb)
    from private.role_conflict_page(p_application_id, p_offset, p_limit) with ordinality p (rule_id, user_id, n)
    join public.control_rules r on r.id = p.rule_id
    join public.users u on u.id = p.user_id
$$;

revoke execute on function
  private.risk_right_page(text, text, uuid, public.account_type, timestamptz, integer, integer),
  private.risk_right_rows(uuid[]),
  private.role_conflict_rows(uuid, integer, integer)
  from public;
grant execute on function
  private.risk_right_page(text, text, uuid, public.account_type, timestamptz, integer, integer),
  private.risk_right_rows(uuid[]),
  private.role_conflict_rows(uuid, integer, integer)
  to authenticated;

create function public.rssi_risk_list(
  p_risk text,
  p_search text default null,
  p_application_id uuid default null,
  p_account_type public.account_type default null,
  p_offset integer default 0,
  p_limit integer default 50
) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_total bigint;
  v_ids uuid[];
  v_rows jsonb;
begin
  perform private.require_rssi();
  if p_risk is null or private.risk_label(p_risk) is null then
    raise exception 'Risque inconnu : %.', coalesce(p_risk, '(aucun)') using errcode = '22023';
  end if;
  perform private.require_page(p_limit, p_offset);
  perform private.require_application(p_application_id);

  if p_risk = 'incompatible_roles' then
    v_total := private.role_conflict_count(p_application_id);
    v_rows := private.role_conflict_rows(p_application_id, p_offset, p_limit);
  else
    select p.total, p.ids into v_total, v_ids
      from private.risk_right_page(p_risk, v_pattern, p_application_id, p_account_type, now() - interval '90 days',
                                   p_offset, p_limit) p;
    v_rows := private.risk_right_rows(v_ids);
  end if;

  return jsonb_build_object(
    'key', p_risk,
    'label', private.risk_label(p_risk),
    'total', v_total,
    'ignored_filters', private.risk_ignored_filters(p_risk, v_pattern, p_account_type),
    'rows', v_rows
  );
end;
$$;

revoke execute on function public.rssi_risk_list(text, text, uuid, public.account_type, integer, integer) from public, anon;
grant execute on function public.rssi_risk_list(text, text, uuid, public.account_type, integer, integer) to authenticated;
