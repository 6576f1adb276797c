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
-- How it counts: without a search, from the tallies above (the rights per application, account type, campaign and
-- status; the last uses per day; the decisions per hour), one application's decisions from its rights; with a search,
-- over the rights it matches and their decisions.
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
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_filtered boolean := private.search_pattern(p_search) is not null or p_application_id is not null or p_account_type is not null;
  v_zone text := coalesce(nullif(btrim(p_time_zone), ''), 'Europe/Paris');
  v_cutoff timestamptz := now() - interval '90 days';
  v_from_ts timestamptz;
  v_to_ts timestamptz;
  v_result jsonb;
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

  with
  -- With a search, the rights it matches (private.rights_in_scope's criteria, by the terms private.search_terms found),
  -- read once for the state, the leavers' rights and the decisions below, by index on each term: role name, holder,
  -- application. Testing each of 3,000,000 rights took 28.6 s for « martin » (54,670 rights); a list of their ids read
  -- by primary key, three times over, 1.3 s.
  matched as materialized (
    select ur.id, ur.user_id, ur.application_id, ur.campaign_id, ur.status, ur.last_used_at
      from public.user_rights ur
     where v_pattern is not null
       and (p_application_id is null or ur.application_id = p_application_id)
       and (p_account_type is null or ur.account_type = p_account_type)
       and (ur.role_name = any (v_roles) or ur.user_id = any (v_holders) or ur.application_id = any (v_applications))
     -- In id order, so that looking up their decisions walks right_decisions_right_id_idx forwards: about 40 % less
     -- time than in the heap's order for 54,670 rights.
     order by ur.id
  ),
  -- State, counted per application and per campaign at once: with a search, one pass over the rights it matches;
  -- without, the tallies (the at-risk rights are then counted at totals, private.tallied_at_risk).
  grouped as (
    select
      grouping(ur.application_id) = 1 as by_campaign,
      ur.application_id,
      ur.campaign_id,
      count(*) as total,
      count(*) filter (where ur.status = any (private.validated_statuses())) as validated,
      count(*) filter (where ur.last_used_at is null or ur.last_used_at < v_cutoff) as at_risk,
      count(*) filter (where ur.status = any (private.refused_statuses())) as refused,
      count(*) filter (where ur.status = 'treatment_required') as treatment,
      count(*) filter (where ur.status = 'pending') as pending,
      -- As private.tallied_rights counts them: a running campaign's rights, the only ones read.
      count(*) filter (where private.is_reviewed(ur.status, false, false, ap.bpo_groupe_id is not null)) as reviewed
    from matched ur
    left join public.applications ap on ap.id = ur.application_id
    group by grouping sets ((ur.application_id), (ur.campaign_id))
    union all
    select t.by_campaign, t.application_id, t.campaign_id, t.total, t.validated, null, t.refused, t.treatment, t.pending,
           t.reviewed
    from private.tallied_rights(p_application_id, p_account_type) t
    where v_pattern is null
  ),
  per_application as (
    select g.* from grouped g where not g.by_campaign
  ),
  totals as (
    select
      coalesce(sum(p.total), 0)::bigint as total, coalesce(sum(p.validated), 0)::bigint as validated,
      case when v_pattern is null then private.tallied_at_risk(p_application_id, p_account_type, v_cutoff)
           else coalesce(sum(p.at_risk), 0)::bigint end as at_risk,
      coalesce(sum(p.refused), 0)::bigint as refused,
      coalesce(sum(p.treatment), 0)::bigint as treatment, coalesce(sum(p.pending), 0)::bigint as pending
    from per_application p
  ),
  -- With a search, the decisions of the window on the rights it matches, read through right_decisions_right_id_idx
  -- with the window as its condition, so that no other decision is fetched.
  searched_decisions as materialized (
    select d.decision
      from matched ur
      join public.right_decisions d on d.right_id = ur.id
     where (v_from_ts is null or d.decided_at >= v_from_ts)
       and (v_to_ts is null or d.decided_at < v_to_ts)
  ),
  -- And the campaigns that decided on a right it matches, looked for only among those of the window that no matched
  -- right is attached to (none, most often: then no decision is read for it). All of them in one pass over the
  -- matched rights' decisions: campaign by campaign, every matched right was read again for each (6.5 s for 54,670
  -- rights and 18 campaigns).
  searched_candidates as (
    select c.id
      from public.campaigns c
     where v_pattern is not null
       and (
         c.status = 'active'
         or (
           c.status = any (private.closed_campaign_statuses())
           and (p_to is null or c.start_date <= p_to)
           and (p_from is null or c.end_date >= p_from)
         )
       )
       and not exists (select 1 from grouped g where g.by_campaign and g.campaign_id = c.id and g.total > 0)
  ),
  searched_campaigns as (
    select distinct d.campaign_id
      from matched ur
      join public.right_decisions d on d.right_id = ur.id
     where exists (select 1 from searched_candidates)
       and d.campaign_id in (select x.id from searched_candidates x)
  ),
  -- Without a search, the only campaigns where a decision on a right in scope is worth looking for.
  decided_candidates as (
    select m.id from private.maybe_decided_campaigns(p_application_id, p_account_type) m(id)
     where v_filtered and v_pattern is null
  ),
  -- Campaigns that reviewed rights in scope: every running one, and the closed ones whose period overlaps the window.
  campaigns_in_scope as (
    select c.id, c.name, c.description, c.application_id, c.account_type, c.start_date, c.end_date, c.status,
           coalesce(g.total, 0) as scope_total, coalesce(g.reviewed, 0) as scope_reviewed
      from public.campaigns c
      left join grouped g on g.by_campaign and g.campaign_id = c.id
      left join decided_candidates m on m.id = c.id
      -- Without a search, a decision on a right in scope, looked for only when no such right is attached, and only until
      -- one is found.
      left join lateral (
        select true as found
          from public.right_decisions d
          join private.rights_in_scope(null, null, p_application_id, p_account_type) ur on ur.id = d.right_id
         where v_filtered
           and coalesce(g.total, 0) = 0
           and m.id is not null
           and d.campaign_id = c.id
         limit 1
      ) decided on true
     -- A running campaign is a state: it counts whatever the window (one whose end date is past is still running).
     where (
         c.status = 'active'
         or (
           c.status = any (private.closed_campaign_statuses())
           and (p_to is null or c.start_date <= p_to)
           and (p_from is null or c.end_date >= p_from)
         )
       )
       and (
         not v_filtered or g.total > 0 or decided.found
         or c.id in (select s.campaign_id from searched_campaigns s)
       )
  ),
  -- The whole of each campaign, when the scope is narrower than everything: its rights, as without a filter (a running
  -- campaign's rights are its items).
  whole_campaigns as (
    select t.campaign_id, t.total, t.reviewed
      from private.tallied_rights(null, null) t
     where v_filtered and t.by_campaign
  ),
  active_campaigns as (
    select
      c.*,
      case when v_filtered then coalesce(whole.total, 0) else c.scope_total end as total,
      case when v_filtered then coalesce(whole.reviewed, 0) else c.scope_reviewed end as reviewed
    from campaigns_in_scope c
    left join whole_campaigns whole on whole.campaign_id = c.id
    where c.status = 'active'
  ),
  -- The decisions of the window: with a search, those above; for one application, those of its rights in scope
  -- (right_decisions_right_id_idx); otherwise from the tallies.
  activity_parts as (
    select count(*) as decisions,
           count(*) filter (where s.decision = 'approved') as approved,
           count(*) filter (where s.decision = 'refused') as refused
      from searched_decisions s
     where v_pattern is not null
    union all
    select count(*) as decisions,
           count(*) filter (where d.decision = 'approved') as approved,
           count(*) filter (where d.decision = 'refused') as refused
      from private.rights_in_scope(null, null, p_application_id, p_account_type) ur
      join public.right_decisions d on d.right_id = ur.id
     where v_pattern is null and p_application_id is not null
       and (v_from_ts is null or d.decided_at >= v_from_ts)
       and (v_to_ts is null or d.decided_at < v_to_ts)
    union all
    select a.decisions, a.approved, a.refused
      from private.tallied_activity(p_account_type, v_from_ts, v_to_ts) a
     where v_pattern is null and p_application_id is null
  ),
  activity as (
    select sum(x.decisions)::bigint as decisions, sum(x.approved)::bigint as approved, sum(x.refused)::bigint as refused
      from activity_parts x
  )
  select jsonb_build_object(
    'as_of', now(),
    'filters', jsonb_build_object(
      'search', nullif(btrim(p_search), ''),
      'application_id', p_application_id,
      'account_type', p_account_type,
      'from', p_from,
      'to', p_to,
      'time_zone', v_zone
    ),
    'counters', jsonb_build_object(
      'total_rights', t.total,
      'validated_rights', t.validated,
      'validation_rate', private.percent(t.validated, t.total),
      'validation_level', private.rate_level(private.percent(t.validated, t.total)),
      'at_risk_rights', t.at_risk,
      'reviews_in_progress', (select count(*) from campaigns_in_scope c where c.status = 'active'),
      'reviews_completed', (select count(*) from campaigns_in_scope c where c.status = any (private.closed_campaign_statuses()))
    ),
    'compliance_by_application', (
      select coalesce(jsonb_agg(jsonb_build_object(
          'application_id', a.id,
          'application_name', a.name,
          'total_rights', p.total,
          'validated_rights', p.validated,
          'rate', private.percent(p.validated, p.total),
          'level', private.rate_level(private.percent(p.validated, p.total))
        ) order by a.name, a.id), '[]'::jsonb)
        from per_application p
        join public.applications a on a.id = p.application_id
    ),
    'risks', jsonb_build_array(
      -- First: the rights leavers still hold (deactivated people, 20261121001200_directory_sync.sql), until the RA
      -- has treated them. Found from the few leavers (users_inactive_idx) rather than by joining every right.
      jsonb_build_object('key', 'expired', 'label', 'Comptes expirés', 'ignored_filters', '[]'::jsonb, 'count', (
        select count(*)
          from private.rights_in_scope(null, null, p_application_id, p_account_type) ur
         where v_pattern is null
           and ur.status <> 'treated'
           and ur.user_id in (select u.id from public.users u where not u.active)
      ) + (
        select count(*)
          from matched ur
         where ur.status <> 'treated'
           and ur.user_id in (select u.id from public.users u where not u.active)
      )),
      jsonb_build_object('key', 'inactive', 'label', 'Comptes inactifs', 'ignored_filters', '[]'::jsonb, 'count', t.at_risk),
      -- The two below from the risk sets (« RSSI dashboard: risk sets »): counts of their rows (for one application,
      -- its rules evaluated on its rights); with a search, the duplicates among the rights it matches.
      jsonb_build_object('key', 'incompatible_roles', 'label', 'Rôles incompatibles',
        'ignored_filters', private.risk_ignored_filters('incompatible_roles', v_pattern, p_account_type),
        'count', private.role_conflict_count(p_application_id)),
      jsonb_build_object('key', 'duplicates', 'label', 'Doublons', 'ignored_filters', '[]'::jsonb, 'count',
        case when v_pattern is null then private.duplicate_count(p_application_id, p_account_type) else (
          select count(*)
            from matched ur
           where ur.id in (select d.id from private.duplicated_right_ids() d)
        ) end)
    ),
    'active_campaigns', (
      select coalesce(jsonb_agg(jsonb_build_object(
          'id', c.id,
          'name', c.name,
          'description', c.description,
          'application_id', c.application_id,
          'application_name', a.name,
          'account_type', c.account_type,
          'start_date', c.start_date,
          'end_date', c.end_date,
          'total_rights', c.total,
          'reviewed_rights', c.reviewed,
          'progress', private.percent(c.reviewed, c.total),
          'scope_rights', c.scope_total,
          'scope_reviewed_rights', c.scope_reviewed,
          'scope_progress', private.percent(c.scope_reviewed, c.scope_total)
        ) order by c.start_date, c.name, c.id), '[]'::jsonb)
        from active_campaigns c
        left join public.applications a on a.id = c.application_id
    ),
    'activity', (select to_jsonb(x) from activity x)
  )
  into v_result
  from totals t;

  return v_result;
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
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_cutoff timestamptz := now() - interval '90 days';
  v_few uuid[];
  v_total bigint;
  v_ids uuid[];
  v_rows jsonb;
begin
  perform private.require_rssi();
  if p_risk is null or p_risk not in ('expired', 'inactive', 'incompatible_roles', 'duplicates') then
    raise exception 'Risque inconnu : %.', coalesce(p_risk, '(aucun)') using errcode = '22023';
  end if;
  perform private.require_page(p_limit, p_offset);
  perform private.require_application(p_application_id);

  if p_risk = 'incompatible_roles' then
    v_total := private.role_conflict_count(p_application_id);
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
      into v_rows
      from private.role_conflict_page(p_application_id, p_offset, p_limit) with ordinality p (rule_id, user_id, n)
      join public.control_rules r on r.id = p.rule_id
      join public.users u on u.id = p.user_id;
  else
    v_few := case when v_pattern is not null then private.rights_matching_if_few(v_pattern) end;
    if p_risk = 'expired' then
      -- As the dashboard counts them: from the few leavers (users_inactive_idx).
      select count(*) into v_total
        from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur
       where ur.status <> 'treated'
         and ur.user_id in (select u.id from public.users u where not u.active);
      v_ids := array(
        select ur.id
          from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur
          join public.users h on h.id = ur.user_id
          join public.applications a on a.id = ur.application_id
         where ur.status <> 'treated'
           and ur.user_id in (select u.id from public.users u where not u.active)
         order by h.last_name, h.first_name, h.id, a.name, a.id, ur.role_name, ur.id
        offset p_offset limit p_limit
      );
    elsif p_risk = 'duplicates' then
      if v_pattern is null then
        v_total := private.duplicate_count(p_application_id, p_account_type);
      else
        select count(*) into v_total
          from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur
         where ur.id in (select d.id from private.duplicated_right_ids() d);
      end if;
      v_ids := array(
        select ur.id
          from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur
          join public.users h on h.id = ur.user_id
          join public.applications a on a.id = ur.application_id
         where ur.id in (select d.id from private.duplicated_right_ids() d)
         order by h.last_name, h.first_name, h.id, a.name, a.id, ur.role_name, ur.id
        offset p_offset limit p_limit
      );
    else
      -- Without a search, the dashboard's own count (the usage tally); with one, the matching rights counted.
      if v_pattern is null then
        v_total := private.tallied_at_risk(p_application_id, p_account_type, v_cutoff);
      else
        select count(*) into v_total
          from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur
         where ur.last_used_at is null or ur.last_used_at < v_cutoff;
      end if;
      v_ids := array(
        select ur.id
          from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur
         where ur.last_used_at is null or ur.last_used_at < v_cutoff
         order by ur.last_used_at, ur.id
        offset p_offset limit p_limit
      );
    end if;
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
      into v_rows
      from unnest(v_ids) with ordinality p (id, n)
      join public.user_rights ur on ur.id = p.id
      join public.users u on u.id = ur.user_id
      join public.applications a on a.id = ur.application_id;
  end if;

  return jsonb_build_object(
    'key', p_risk,
    'label', case p_risk
      when 'expired' then 'Comptes expirés'
      when 'inactive' then 'Comptes inactifs'
      when 'incompatible_roles' then 'Rôles incompatibles'
      else 'Doublons'
    end,
    'total', v_total,
    'ignored_filters', private.risk_ignored_filters(p_risk, v_pattern, p_account_type),
    'rows', v_rows
  );
end;
$$;

revoke execute on function public.rssi_risk_list(text, text, uuid, public.account_type, integer, integer) from public, anon;
grant execute on function public.rssi_risk_list(text, text, uuid, public.account_type, integer, integer) to authenticated;
