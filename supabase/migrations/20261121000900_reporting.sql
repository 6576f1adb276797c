-- Reporting (SPEC §2 campaigns page, Excel dialog, admin and RSSI dashboards, compliance page, audit page; SPEC §3
-- export rows, §4 progress, §9 definitions and export constants; ARCHITECTURE §3): the campaign list's figures, the rows
-- of the three Excel files, the admin dashboard's counters, and the security officer's figures. Every counter, rate,
-- risk, rule violation and search is computed here, over all the rows concerned, and every list is paged (at most 1000
-- rows a call), so that no figure depends on fetching rights into the browser or is cut at the API's 1000-row page.
--
-- Everything runs as the caller (security invoker views and functions): row-level security applies as everywhere
-- else. The campaign figures and export rows cover the rights the caller may read (SPEC §6: everyone sees the lists
-- and the Excel export); the admin dashboard is admin's and rssi's; the security officer's functions first check that
-- the caller is rssi: anyone else signed in is refused with 42501 'Réservé au RSSI.'; anon cannot execute them at all.
-- Two private helpers find the candidates of a text search as the owner (security definer): under row-level security
-- an index may not evaluate a non-leakproof operator such as ILIKE ahead of the policy, so a contains-search would
-- read every row. They check rssi themselves and return only ids, which the calling (invoker) query then reads under
-- row-level security.
--
-- Definitions shared by the security officer's functions (SPEC §9), with "now" = the transaction's now(), returned as
-- `as_of`:
--   * validated right, refused right: private.validated_statuses(), private.refused_statuses()
--                         (20261121000100_types_and_helpers.sql);
--   * a right in scope  = private.rights_in_scope: of the application and account type asked for, matching the search;
--   * at-risk right     = never used (last_used_at is null) or last used more than 90 days ago
--                         (last_used_at < now - 90 days);
--   * compliant right   = (compliance page) not refused and last used within 90 days (last_used_at >= now - 90 days),
--                         so a right is compliant exactly when it is neither refused nor at risk;
--   * a rate            = round(100 × part / whole) to the nearest integer, halves away from zero (as Math.round for
--                         these non-negative values); null when the whole is 0 — no division by zero, and an empty
--                         scope is not reported as 0 % or 100 % compliant;
--   * a level           = colour of a rate (SPEC §9): 'green' at 90 or more, 'orange' at 75 or more, otherwise 'red',
--                         applied to the rounded rate the screen shows; null when the rate is null.
-- Every count counts rights (rows of user_rights), except the violations of an incompatible_roles rule (people),
-- the campaign counters (campaigns) and a campaign's own figures (its items, campaign_items: campaign_progress, the
-- export rows and a campaign's whole progress on the RSSI dashboard).
--
-- Performance (checked with EXPLAIN ANALYZE on PostgreSQL 15 with 300,000 rights, 10,000 people, 300,000 decisions and
-- 100,000 audit events): the security officer's functions plan each query for the values passed (plan_cache_mode =
-- force_custom_plan, so an unused filter "p is null or …" folds away) and without JIT (row-level security sub-plans
-- inflate the estimated costs past its threshold, and compiling took longer than running). Paging is by keyset, so the
-- 300th page of an export costs what the first does. The indexes these queries use are with their tables (the partial
-- and trigram ones included), in the area files.

-- ─── Helpers ─────────────────────────────────────────────────────────────────────────────────────────────────────

create function private.require_rssi() returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if not private.is_rssi() then
    raise exception 'Réservé au RSSI.' using errcode = '42501';
  end if;
end;
$$;

-- A case-insensitive "contains" pattern for ILIKE, the user's %, _ and \ taken literally; null for a blank search.
create function private.search_pattern(p_text text) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when nullif(btrim(p_text), '') is null then null
    else '%' || replace(replace(replace(btrim(p_text), '\', '\\'), '%', '\%'), '_', '\_') || '%'
  end
$$;

create function private.percent(p_part bigint, p_whole bigint) returns integer
language sql immutable
set search_path = ''
as $$
  select case when coalesce(p_whole, 0) = 0 then null else round(100.0 * p_part / p_whole)::integer end
$$;

create function private.rate_level(p_rate integer) returns text
language sql immutable
set search_path = ''
as $$
  select case when p_rate is null then null when p_rate >= 90 then 'green' when p_rate >= 75 then 'orange' else 'red' end
$$;

-- A window of whole days, both ends included, in the given time zone: [from 00:00, to + 1 day 00:00). Either end may
-- be open (null).
create function private.day_window(
  p_from date,
  p_to date,
  p_time_zone text,
  out from_ts timestamptz,
  out to_ts timestamptz
)
language plpgsql stable
set search_path = ''
as $$
begin
  if p_from is not null and p_to is not null and p_from > p_to then
    raise exception 'La date de début doit précéder la date de fin.' using errcode = '22023';
  end if;
  begin
    perform now() at time zone p_time_zone;
  exception when invalid_parameter_value then
    raise exception 'Fuseau horaire inconnu : %.', p_time_zone using errcode = '22023';
  end;
  from_ts := p_from::timestamp at time zone p_time_zone;
  to_ts := (p_to + 1)::timestamp at time zone p_time_zone;
end;
$$;

create function private.require_application(p_application_id uuid) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if p_application_id is not null and not exists (select 1 from public.applications a where a.id = p_application_id) then
    raise exception 'Application introuvable.' using errcode = 'P0001';
  end if;
end;
$$;

-- The rights a search matches: by role name, by holder (e-mail or "first last" name) or by application name. Each
-- branch can use an index: the trigram indexes of users and user_rights where pg_trgm is available, then the holder
-- and application keys of user_rights. At most p_limit ids (null = all); a right matching twice may be listed twice.
-- Security definer (see the top of this file): returns ids only, to rssi only. The criteria are those of
-- private.rights_in_scope, written here as separate index searches.
create function private.rights_matching(p_pattern text, p_limit bigint default null) returns table (id uuid)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
#variable_conflict use_column
begin
  perform private.require_rssi();
  return query
    select ur.id from public.user_rights ur where ur.role_name ilike p_pattern
    union all
    -- The holders as an array: joined, they were estimated at thousands of rows each and the planner read all the
    -- rights (0.8 s at 3,000,000 rights for « martin »'s 1,834 people) rather than theirs by user_rights_unique_grant.
    select ur.id
      from public.user_rights ur
     where ur.user_id = any (array(
       select u.id from public.users u
        where u.email ilike p_pattern or (u.first_name || ' ' || u.last_name) ilike p_pattern
     ))
    union all
    select ur.id
      from public.user_rights ur
     where ur.application_id in (select a.id from public.applications a where a.name ilike p_pattern)
    limit p_limit;
end;
$$;

-- The terms of a search, for a query that reads the rights it matches by index as the caller: under row-level security
-- only a leakproof condition such as an equality may be an index condition, not ILIKE. The role names, the holders
-- (by e-mail or "first last" name) and the applications (by name) that contain the pattern, which are
-- private.rights_in_scope's three criteria: a right matches when its role name, holder or application is listed. The
-- role names are found by stepping from one distinct name to the next on user_rights_role_name_idx (one index lookup
-- per distinct name, a few dozen at 3,000,000 rights) rather than by reading the rights that bear them. Security
-- definer, as rights_matching: returns names and ids only, to rssi only.
create function private.search_terms(
  p_pattern text,
  out roles text[],
  out holders uuid[],
  out applications uuid[]
)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
begin
  perform private.require_rssi();
  with recursive names (name) as (
    select min(ur.role_name) from public.user_rights ur
    union all
    select (select min(ur.role_name) from public.user_rights ur where ur.role_name > n.name)
      from names n
     where n.name is not null
  )
  select coalesce(array_agg(n.name), '{}') into roles from names n where n.name ilike p_pattern;
  holders := array(
    select u.id from public.users u
     where u.email ilike p_pattern or (u.first_name || ' ' || u.last_name) ilike p_pattern
  );
  applications := array(select a.id from public.applications a where a.name ilike p_pattern);
end;
$$;

-- How the export and the count apply a search to the rights. A search matching few rights (up to 10,000) reads just
-- those, found through private.rights_matching and then the primary key; one matching more tests each right against
-- the same three criteria (role name, holder, application name) as it reads them, rather than building a long list
-- first. Returns the short list, or null: "test each right" (or no search). Both give the same rights; the limit is
-- the setting recertif.search_list_max when set (the tests lower it to exercise both paths on a small dataset). The
-- dashboard and the trends, which read every right in scope, find them by index from private.search_terms instead.
create function private.few_rights_matching(p_pattern text) returns uuid[]
language plpgsql stable
set search_path = ''
as $$
declare
  v_max integer := coalesce(nullif(current_setting('recertif.search_list_max', true), '')::integer, 10000);
  v_matches uuid[];
begin
  if p_pattern is null then
    return null;
  end if;
  -- Complete only if the limit was not reached (the rows may repeat a right).
  v_matches := array(select m.id from private.rights_matching(p_pattern, v_max + 1) m);
  if cardinality(v_matches) > v_max then
    return null;
  end if;
  return array(select distinct x from unnest(v_matches) x);
end;
$$;

-- The rights in scope of the security officer's figures and export: those of the application and the account type
-- asked for (null = any) that match the search, written once here. p_pattern is private.search_pattern's (null = no
-- search); a right matches it by role name, by holder (e-mail or "first last" name) or by application name. p_few is
-- private.few_rights_matching's answer for the same pattern: the short list of the rights it matches, read by primary
-- key, or null to test each right as it is read. (private.rights_matching lists the same three criteria as separate
-- index searches, to build that short list.)
-- Inlined into the calling query like a view, so that its conditions join the caller's own scan (the export walks the
-- primary key and stops at a full page; the dashboard aggregates in one pass) and p_few's emptiness folds away. A SET
-- clause would forbid that: instead its body is SQL-standard (BEGIN ATOMIC), every name in it bound when it is created,
-- so that no search_path changes what it reads (scripts/db-lint/advisors.ts lists it as accepted). It runs as the
-- caller, under row-level security. Its columns are listed rather than being the table's row type, which a column added
-- to user_rights would no longer match.
create function private.rights_in_scope(
  p_pattern text,
  p_few uuid[],
  p_application_id uuid,
  p_account_type public.account_type
) returns table (
  id uuid, user_id uuid, application_id uuid, role_name text, account_type public.account_type, justification text,
  status public.right_status, granted_at timestamptz, last_used_at timestamptz, validated_at timestamptz,
  validated_by uuid, review_comment text, campaign_id uuid, created_at timestamptz, updated_at timestamptz
)
language sql stable
begin atomic
  select ur.id, ur.user_id, ur.application_id, ur.role_name, ur.account_type, ur.justification, ur.status,
         ur.granted_at, ur.last_used_at, ur.validated_at, ur.validated_by, ur.review_comment, ur.campaign_id,
         ur.created_at, ur.updated_at
    from public.user_rights ur
   where (p_application_id is null or ur.application_id = p_application_id)
     and (p_account_type is null or ur.account_type = p_account_type)
     and (
       p_pattern is null
       or (p_few is not null and ur.id = any (p_few))
       or (
         p_few is null
         and (
           ur.role_name ilike p_pattern
           or ur.user_id in (
             select h.id from public.users h
              where h.email ilike p_pattern or (h.first_name || ' ' || h.last_name) ilike p_pattern
           )
           or ur.application_id in (select ap.id from public.applications ap where ap.name ilike p_pattern)
         )
       )
     );
end;

-- The audit events whose text contains the search: the actor's e-mail and name (as recorded), the action, the
-- resource type and id, the details as JSON text (keys and values) and the names the event's sentence shows,
-- case-insensitively, as private.index_audit_search (20261121000300_audit.sql) keeps it in private.audit_search, whose
-- trigram index serves this. At most p_limit ids (null = all). Security definer, as rights_matching;
-- private.audit_search has no grant.
create function private.audit_matching(p_pattern text, p_limit bigint default null) returns table (id bigint)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
#variable_conflict use_column
begin
  perform private.require_rssi();
  return query
    select l.id
      from private.audit_search s
      join public.audit_logs l on l.search_id = s.id
     where s.body ilike p_pattern
     limit p_limit;
end;
$$;

-- One page of the events matching a search that matches too many to read by id (rssi_audit_events): the events under
-- the page's other filters, newest first, each tested against its text in private.audit_search, until the page is
-- full. Security definer for that table, as audit_matching.
create function private.audit_matching_page(
  p_pattern text,
  p_user_id uuid,
  p_system boolean,
  p_action text,
  p_from_ts timestamptz,
  p_to_ts timestamptz,
  p_before_ts timestamptz,
  p_before_id bigint,
  p_limit integer,
  p_offset integer
) returns table (id bigint)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
#variable_conflict use_column
begin
  perform private.require_rssi();
  return query
    select l.id
      from public.audit_logs l
      join private.audit_search s on s.id = l.search_id
     where (p_user_id is null or l.user_id = p_user_id)
       and (p_system is not true or l.user_id is null)
       and (p_action is null or l.action = p_action)
       and (p_from_ts is null or l."timestamp" >= p_from_ts)
       and (p_to_ts is null or l."timestamp" < p_to_ts)
       and (p_before_id is null or (l."timestamp", l.id) < (p_before_ts, p_before_id))
       and s.body ilike p_pattern
     order by l."timestamp" desc, l.id desc
     limit p_limit offset p_offset;
end;
$$;

-- Run as the caller by the functions below (the export names statuses in French).
grant execute on function
  private.require_rssi(),
  private.search_pattern(text),
  private.percent(bigint, bigint),
  private.rate_level(integer),
  private.day_window(date, date, text),
  private.require_application(uuid),
  private.rights_matching(text, bigint),
  private.few_rights_matching(text),
  private.search_terms(text),
  private.rights_in_scope(text, uuid[], uuid, public.account_type),
  private.audit_matching(text, bigint),
  private.audit_matching_page(text, uuid, boolean, text, timestamptz, timestamptz, timestamptz, bigint, integer, integer),
  private.right_status_label(public.right_status)
  to authenticated;

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
  select c.status in ('completed', 'archived') as closed,
         c.status <> 'draft'
           and private.is_reviewed(
             k.status, c.status in ('completed', 'archived'), k.undecided_at_closure, a.bpo_groupe_id is not null
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
-- ─── RSSI dashboard: tallies ─────────────────────────────────────────────────────────────────────────────────────

-- What the RSSI dashboard counts over every right and decision, kept by the database as they change:
-- counting 3,000,000 rights on each call took 2 to 4 s, and the filtered figures up to a minute. Without a search, the
-- dashboard reads these instead; a search still counts the rights it matches (private.rights_in_scope).
--   * private.rights_tally: rights per application, account type, campaign (null = none) and status;
--   * private.usage_tally: rights per account type and UTC day of last use (null = never used), so that the rights
--     unused for 90 days are the days before the cutoff's plus the rights of the cutoff's own day counted on
--     user_rights_last_used_at_idx;
--   * private.decisions_tally: decisions per UTC hour, outcome and account type (the decision's copy), apart for those
--     whose right is gone; private.relabelled_rights lists the rights whose account type changed, whose decisions may
--     carry another type than theirs;
--   * private.decided_scopes: the campaigns that have a decision on a right of an application and account type (the
--     right's own, at the decision or since), so that a filtered dashboard looks for such a decision (a campaign counts
--     when it decided on a right in scope) only in the campaigns that may have one, instead of reading every decision
--     of every campaign (58 s with p_account_type => 'privileged' at 3,000,000 rights). It may list a scope no longer
--     true (the right deleted or relabelled since): the dashboard checks the decisions themselves there.
-- Each statement appends its changes as signed counts to a *_delta table, locking nothing that another writer locks:
-- reviewers deciding at once never wait for each other's tally rows. After a bulk statement, or every 32nd statement,
-- the writer folds every delta into the totals if no other transaction is folding (private.fold_tallies_when_due); the
-- readers add the totals and the deltas not folded yet. The triggers (20261121001155_effects.sql) fire even under
-- session_replication_role = replica, so that the generated dataset (supabase/local/dataset/load.ts) is tallied as it is
-- loaded. Nothing reads
-- these tables but the security definer functions below, which check rssi first. tests/db/rssi-tallies.test.ts
-- compares them with full counts, and the dashboard with figures counted from the rows, after every step of a random
-- workload and after concurrent decisions.
create table private.rights_tally (
  application_id uuid not null,
  account_type public.account_type not null,
  campaign_id uuid,
  status public.right_status not null,
  rights bigint not null,
  constraint rights_tally_key unique nulls not distinct (application_id, account_type, campaign_id, status)
);
create index rights_tally_empty_idx on private.rights_tally (application_id) where rights = 0;

create table private.rights_tally_delta (
  application_id uuid not null,
  account_type public.account_type not null,
  campaign_id uuid,
  status public.right_status not null,
  rights bigint not null
);

create table private.usage_tally (
  account_type public.account_type not null,
  used_day date,
  rights bigint not null,
  constraint usage_tally_key unique nulls not distinct (account_type, used_day)
);
create index usage_tally_empty_idx on private.usage_tally (account_type) where rights = 0;

create table private.usage_tally_delta (
  account_type public.account_type not null,
  used_day date,
  rights bigint not null
);

create table private.decided_scopes (
  campaign_id uuid not null,
  application_id uuid not null,
  account_type public.account_type not null
);
create index decided_scopes_key_idx on private.decided_scopes (campaign_id, application_id, account_type);

create table private.decisions_tally (
  decided_hour timestamptz not null,
  decision public.review_decision not null,
  account_type public.account_type not null,
  right_known boolean not null,
  decisions bigint not null,
  constraint decisions_tally_key unique (decided_hour, decision, account_type, right_known)
);
create index decisions_tally_empty_idx on private.decisions_tally (decided_hour) where decisions = 0;

create table private.decisions_tally_delta (
  decided_hour timestamptz not null,
  decision public.review_decision not null,
  account_type public.account_type not null,
  right_known boolean not null,
  decisions bigint not null
);

create table private.relabelled_rights (right_id uuid not null);
create index relabelled_rights_right_id_idx on private.relabelled_rights (right_id);

alter table private.rights_tally enable row level security;
alter table private.rights_tally_delta enable row level security;
alter table private.usage_tally enable row level security;
alter table private.usage_tally_delta enable row level security;
alter table private.decided_scopes enable row level security;
alter table private.decisions_tally enable row level security;
alter table private.decisions_tally_delta enable row level security;
alter table private.relabelled_rights enable row level security;
revoke all on private.rights_tally, private.rights_tally_delta, private.usage_tally, private.usage_tally_delta,
  private.decided_scopes, private.decisions_tally, private.decisions_tally_delta, private.relabelled_rights
  from public, anon, authenticated, service_role;

-- Counts the statements that wrote deltas, so that a few deltas are folded only every 32nd statement: a decision then
-- adds two rows and folds nothing most of the time (folding costs more than the decision's own tally).
create sequence private.rssi_tally_statements;
revoke all on sequence private.rssi_tally_statements from public, anon, authenticated, service_role;

-- Folds the deltas into the totals after a statement that wrote p_rows of them: at once after a bulk statement (a start,
-- an import), otherwise every 32nd statement. Only when no other transaction is folding (its deletions would otherwise
-- make this one wait): the next writer folds what is left. Not under repeatable read or serializable, where deleting a
-- delta that another transaction folded meanwhile would fail the writer's transaction.
create function private.fold_tallies_when_due(p_rows bigint) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if p_rows = 0
     or p_rows < 64 and nextval('private.rssi_tally_statements') % 32 <> 0
     or current_setting('transaction_isolation') <> 'read committed'
     or not pg_catalog.pg_try_advisory_xact_lock(hashtextextended('recertif.rssi_tallies', 0)) then
    return;
  end if;
  with moved as (delete from private.rights_tally_delta d returning d.*)
  insert into private.rights_tally as t (application_id, account_type, campaign_id, status, rights)
  select m.application_id, m.account_type, m.campaign_id, m.status, sum(m.rights)
    from moved m
   group by m.application_id, m.account_type, m.campaign_id, m.status
  on conflict on constraint rights_tally_key do update set rights = t.rights + excluded.rights;
  delete from private.rights_tally t where t.rights = 0;

  with moved as (delete from private.usage_tally_delta d returning d.*)
  insert into private.usage_tally as t (account_type, used_day, rights)
  select m.account_type, m.used_day, sum(m.rights)
    from moved m
   group by m.account_type, m.used_day
  on conflict on constraint usage_tally_key do update set rights = t.rights + excluded.rights;
  delete from private.usage_tally t where t.rights = 0;

  with moved as (delete from private.decisions_tally_delta d returning d.*)
  insert into private.decisions_tally as t (decided_hour, decision, account_type, right_known, decisions)
  select m.decided_hour, m.decision, m.account_type, m.right_known, sum(m.decisions)
    from moved m
   group by m.decided_hour, m.decision, m.account_type, m.right_known
  on conflict on constraint decisions_tally_key do update set decisions = t.decisions + excluded.decisions;
  delete from private.decisions_tally t where t.decisions = 0;
end;
$$;

-- One statement's rights, before (tallied_old: update, delete) and after (tallied_new: insert, update), as signed
-- counts: a start's 200,000 rights become a few hundred rows.
create function private.tally_rights() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = tallied_old, newtable = tallied_new
declare
  v_rows bigint;
  v_usage_rows bigint;
begin
  -- Cheap way out for the statements that change nothing, such as the cascades' one statement per deleted row.
  if tg_op = 'DELETE' then
    if not exists (select 1 from tallied_old) then
      return null;
    end if;
  elsif not exists (select 1 from tallied_new) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    insert into private.rights_tally_delta (application_id, account_type, campaign_id, status, rights)
    select r.application_id, r.account_type, r.campaign_id, r.status, count(*)
      from tallied_new r
     group by r.application_id, r.account_type, r.campaign_id, r.status;
    get diagnostics v_rows = row_count;
    insert into private.usage_tally_delta (account_type, used_day, rights)
    select r.account_type, (r.last_used_at at time zone 'UTC')::date, count(*)
      from tallied_new r
     group by 1, 2;
    get diagnostics v_usage_rows = row_count;
  elsif tg_op = 'DELETE' then
    insert into private.rights_tally_delta (application_id, account_type, campaign_id, status, rights)
    select r.application_id, r.account_type, r.campaign_id, r.status, -count(*)
      from tallied_old r
     group by r.application_id, r.account_type, r.campaign_id, r.status;
    get diagnostics v_rows = row_count;
    insert into private.usage_tally_delta (account_type, used_day, rights)
    select r.account_type, (r.last_used_at at time zone 'UTC')::date, -count(*)
      from tallied_old r
     group by 1, 2;
    get diagnostics v_usage_rows = row_count;
  else
    insert into private.rights_tally_delta (application_id, account_type, campaign_id, status, rights)
    select x.application_id, x.account_type, x.campaign_id, x.status, sum(x.rights)
      from (
        select r.application_id, r.account_type, r.campaign_id, r.status, 1 as rights from tallied_new r
        union all
        select r.application_id, r.account_type, r.campaign_id, r.status, -1 from tallied_old r
      ) x
     group by x.application_id, x.account_type, x.campaign_id, x.status
    having sum(x.rights) <> 0;
    get diagnostics v_rows = row_count;
    insert into private.usage_tally_delta (account_type, used_day, rights)
    select x.account_type, x.used_day, sum(x.rights)
      from (
        select r.account_type, (r.last_used_at at time zone 'UTC')::date as used_day, 1 as rights from tallied_new r
        union all
        select r.account_type, (r.last_used_at at time zone 'UTC')::date, -1 from tallied_old r
      ) x
     group by x.account_type, x.used_day
    having sum(x.rights) <> 0;
    get diagnostics v_usage_rows = row_count;
  end if;
  perform private.fold_tallies_when_due(v_rows + v_usage_rows);
  return null;
end;
$$;


-- A statement's decisions, before (decided_old: update, delete) and after (decided_new: insert, update), counted per
-- UTC hour, outcome and account type (the decision's copy of it), apart for those whose right is gone. And a decision
-- adds its campaign to the scope of its right (decided_scopes), without a unique key, so that two reviewers deciding
-- at once never wait for each other: a rare duplicate is harmless.
create function private.tally_decisions() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = decided_old, newtable = decided_new
declare
  v_rows bigint;
begin
  -- Cheap way out for the statements that change nothing, such as the foreign key's one statement per deleted right.
  if tg_op = 'DELETE' then
    if not exists (select 1 from decided_old) then
      return null;
    end if;
  elsif not exists (select 1 from decided_new) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    insert into private.decisions_tally_delta (decided_hour, decision, account_type, right_known, decisions)
    select date_trunc('hour', d.decided_at, 'UTC'), d.decision, d.account_type, d.right_id is not null, count(*)
      from decided_new d
     group by 1, 2, 3, 4;
    get diagnostics v_rows = row_count;
  elsif tg_op = 'DELETE' then
    insert into private.decisions_tally_delta (decided_hour, decision, account_type, right_known, decisions)
    select date_trunc('hour', d.decided_at, 'UTC'), d.decision, d.account_type, d.right_id is not null, -count(*)
      from decided_old d
     group by 1, 2, 3, 4;
    get diagnostics v_rows = row_count;
  else
    insert into private.decisions_tally_delta (decided_hour, decision, account_type, right_known, decisions)
    select x.decided_hour, x.decision, x.account_type, x.right_known, sum(x.decisions)
      from (
        select date_trunc('hour', d.decided_at, 'UTC') as decided_hour, d.decision, d.account_type,
               d.right_id is not null as right_known, 1 as decisions
          from decided_new d
        union all
        select date_trunc('hour', d.decided_at, 'UTC'), d.decision, d.account_type, d.right_id is not null, -1
          from decided_old d
      ) x
     group by x.decided_hour, x.decision, x.account_type, x.right_known
    having sum(x.decisions) <> 0;
    get diagnostics v_rows = row_count;
  end if;
  if tg_op <> 'DELETE' then
    insert into private.decided_scopes (campaign_id, application_id, account_type)
    select distinct d.campaign_id, r.application_id, r.account_type
      from decided_new d
      join public.user_rights r on r.id = d.right_id
     where d.campaign_id is not null
       and not exists (
         select 1 from private.decided_scopes s
          where s.campaign_id = d.campaign_id and s.application_id = r.application_id and s.account_type = r.account_type
       );
  end if;
  perform private.fold_tallies_when_due(v_rows);
  return null;
end;
$$;

-- A right moved to another application or account type takes its decisions' campaigns along, and is listed among the
-- relabelled rights, whose decisions the tally of decisions counts under an account type that is no longer theirs.
-- Row by row, and only then: a start or a completion, which moves hundreds of thousands of rights, changes neither
-- column.
create function private.tally_relabelled_decisions() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.account_type <> old.account_type
     and not exists (select 1 from private.relabelled_rights x where x.right_id = new.id) then
    insert into private.relabelled_rights (right_id) values (new.id);
  end if;
  insert into private.decided_scopes (campaign_id, application_id, account_type)
  select distinct d.campaign_id, new.application_id, new.account_type
    from public.right_decisions d
   where d.right_id = new.id
     and d.campaign_id is not null
     and not exists (
       select 1 from private.decided_scopes s
        where s.campaign_id = d.campaign_id and s.application_id = new.application_id and s.account_type = new.account_type
     );
  return null;
end;
$$;



-- The rights of the application and account type asked for (null = any), as the tallies hold them now, counted per
-- application (by_campaign false) and per campaign (true; campaign_id null = in no campaign), as rssi_dashboard
-- counts them: all, validated, refused, waiting for the RA's treatment, pending, and reviewed as private.is_reviewed
-- judges a running campaign's items (a running campaign's rights are its items; the dashboard reads it for those
-- only). Groups without rights are left out. Rssi only.
create function private.tallied_rights(p_application_id uuid, p_account_type public.account_type)
returns table (
  by_campaign boolean,
  application_id uuid,
  campaign_id uuid,
  total bigint,
  validated bigint,
  refused bigint,
  treatment bigint,
  pending bigint,
  reviewed bigint
)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.require_rssi();
  return query
    select grouping(t.application_id) = 1,
           t.application_id,
           t.campaign_id,
           sum(t.rights)::bigint,
           coalesce(sum(t.rights) filter (where t.status = any (private.validated_statuses())), 0)::bigint,
           coalesce(sum(t.rights) filter (where t.status = any (private.refused_statuses())), 0)::bigint,
           coalesce(sum(t.rights) filter (where t.status = 'treatment_required'), 0)::bigint,
           coalesce(sum(t.rights) filter (where t.status = 'pending'), 0)::bigint,
           coalesce(sum(t.rights) filter (
             where private.is_reviewed(t.status, false, false, ap.bpo_groupe_id is not null)
           ), 0)::bigint
      from (
        select a.application_id, a.account_type, a.campaign_id, a.status, a.rights from private.rights_tally a
        union all
        select d.application_id, d.account_type, d.campaign_id, d.status, d.rights from private.rights_tally_delta d
      ) t
      left join public.applications ap on ap.id = t.application_id
     where (p_application_id is null or t.application_id = p_application_id)
       and (p_account_type is null or t.account_type = p_account_type)
     group by grouping sets ((t.application_id), (t.campaign_id))
    having sum(t.rights) <> 0;
end;
$$;

-- The rights of the application and account type asked for (null = any) never used or last used before p_cutoff.
-- One application's rights are counted on user_rights_application_last_used_idx; all of them from the usage tally.
-- Rssi only.
create function private.tallied_at_risk(p_application_id uuid, p_account_type public.account_type, p_cutoff timestamptz)
returns bigint
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v_day date := (p_cutoff at time zone 'UTC')::date;
  v_count bigint;
begin
  perform private.require_rssi();
  if p_application_id is not null then
    select count(*) into v_count
      from public.user_rights ur
     where ur.application_id = p_application_id
       and (p_account_type is null or ur.account_type = p_account_type)
       and (ur.last_used_at is null or ur.last_used_at < p_cutoff);
    return v_count;
  end if;
  select coalesce(sum(t.rights), 0)::bigint into v_count
    from (
      select a.account_type, a.used_day, a.rights from private.usage_tally a
      union all
      select d.account_type, d.used_day, d.rights from private.usage_tally_delta d
    ) t
   where (t.used_day is null or t.used_day < v_day)
     and (p_account_type is null or t.account_type = p_account_type);
  return v_count + (
    select count(*)
      from public.user_rights ur
     where ur.last_used_at >= v_day::timestamp at time zone 'UTC'
       and ur.last_used_at < p_cutoff
       and (p_account_type is null or ur.account_type = p_account_type)
  );
end;
$$;

-- The whole UTC hours [lo, hi) of the window [p_from_ts, p_to_ts), which the decisions tally answers for: lo is the
-- first hour that starts within the window, hi the start of the hour the window ends in; an empty range at p_to_ts
-- when the window lies within one hour. Null ends stay null (an open window).
create function private.whole_hours(p_from_ts timestamptz, p_to_ts timestamptz, out lo timestamptz, out hi timestamptz)
language sql stable
set search_path = ''
as $$
  select case when w.lo > w.hi then p_to_ts else w.lo end, case when w.lo > w.hi then p_to_ts else w.hi end
    from (
      select case when pg_catalog.date_trunc('hour', p_from_ts, 'UTC') < p_from_ts
                  then pg_catalog.date_trunc('hour', p_from_ts, 'UTC') + interval '1 hour'
                  else pg_catalog.date_trunc('hour', p_from_ts, 'UTC') end as lo,
             pg_catalog.date_trunc('hour', p_to_ts, 'UTC') as hi
    ) w
$$;

-- The decisions taken in [p_from_ts, p_to_ts) (either end open when null) on a right of the account type asked for
-- (null = every decision, its right deleted or not), per outcome. The window's whole UTC hours come from the tally,
-- corrected for the relabelled rights' decisions; the parts of an hour at either end (a time zone not a whole number
-- of hours from UTC, or a window within one hour) are counted on right_decisions_decided_at_idx. Rssi only.
create function private.tallied_activity(
  p_account_type public.account_type,
  p_from_ts timestamptz,
  p_to_ts timestamptz,
  out decisions bigint,
  out approved bigint,
  out refused bigint
)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v_lo timestamptz;
  v_hi timestamptz;
  v_part record;
  v_fix record;
begin
  perform private.require_rssi();
  select w.lo, w.hi into v_lo, v_hi from private.whole_hours(p_from_ts, p_to_ts) w;
  -- The whole hours [v_lo, v_hi).
  select coalesce(sum(t.decisions), 0)::bigint as decisions,
         coalesce(sum(t.decisions) filter (where t.decision = 'approved'), 0)::bigint as approved,
         coalesce(sum(t.decisions) filter (where t.decision = 'refused'), 0)::bigint as refused
    into decisions, approved, refused
    from (
      select a.decided_hour, a.decision, a.account_type, a.right_known, a.decisions from private.decisions_tally a
      union all
      select d.decided_hour, d.decision, d.account_type, d.right_known, d.decisions from private.decisions_tally_delta d
    ) t
   where (v_lo is null or t.decided_hour >= v_lo)
     and (v_hi is null or t.decided_hour < v_hi)
     and (p_account_type is null or (t.right_known and t.account_type = p_account_type));
  -- The parts of an hour [p_from_ts, v_lo) and [v_hi, p_to_ts).
  select count(*) as decisions,
         count(*) filter (where d.decision = 'approved') as approved,
         count(*) filter (where d.decision = 'refused') as refused
    into v_part
    from public.right_decisions d
   where ((d.decided_at >= p_from_ts and d.decided_at < v_lo) or (d.decided_at >= v_hi and d.decided_at < p_to_ts))
     and (p_account_type is null
          or exists (select 1 from public.user_rights r where r.id = d.right_id and r.account_type = p_account_type));
  -- A relabelled right's decisions of the whole hours are in the tally under their own account type, not the right's.
  select coalesce(sum(case when r.account_type = p_account_type then 1 else -1 end), 0) as decisions,
         coalesce(sum(case when r.account_type = p_account_type then 1 else -1 end) filter (where d.decision = 'approved'), 0)
           as approved,
         coalesce(sum(case when r.account_type = p_account_type then 1 else -1 end) filter (where d.decision = 'refused'), 0)
           as refused
    into v_fix
    from public.right_decisions d
    join public.user_rights r on r.id = d.right_id
   where p_account_type is not null
     and d.right_id in (select x.right_id from private.relabelled_rights x)
     and r.account_type <> d.account_type
     and p_account_type in (r.account_type, d.account_type)
     and (v_lo is null or d.decided_at >= v_lo)
     and (v_hi is null or d.decided_at < v_hi);
  decisions := decisions + v_part.decisions + v_fix.decisions;
  approved := approved + v_part.approved + v_fix.approved;
  refused := refused + v_part.refused + v_fix.refused;
end;
$$;

-- The decisions of private.tallied_activity (the window [p_from_ts, p_to_ts), the account type asked for), per day in
-- p_time_zone and outcome, for the trends' chart: the window's whole UTC hours that fall within one day there come
-- from the tally, corrected for the relabelled rights' decisions; the rest, on right_decisions_decided_at_idx: the
-- parts of an hour at either end of the window and the hours across a midnight there (one a day in a time zone not a
-- whole number of hours from UTC, none otherwise). Only days with decisions. Rssi only.
create function private.tallied_days(
  p_account_type public.account_type,
  p_from_ts timestamptz,
  p_to_ts timestamptz,
  p_time_zone text
)
returns table (day date, approved bigint, refused bigint)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
#variable_conflict use_column
declare
  v_lo timestamptz;
  v_hi timestamptz;
begin
  perform private.require_rssi();
  select w.lo, w.hi into v_lo, v_hi from private.whole_hours(p_from_ts, p_to_ts) w;
  return query
  with
  -- The tallied hours of [v_lo, v_hi), each marked whether it lies within one day in p_time_zone.
  hours as (
    select t.decided_hour, t.decision, t.account_type, t.right_known, t.decisions,
           (t.decided_hour at time zone p_time_zone)::date
             = ((t.decided_hour + interval '1 hour' - interval '1 microsecond') at time zone p_time_zone)::date as one_day
      from (
        select a.decided_hour, a.decision, a.account_type, a.right_known, a.decisions from private.decisions_tally a
        union all
        select d.decided_hour, d.decision, d.account_type, d.right_known, d.decisions from private.decisions_tally_delta d
      ) t
     where (v_lo is null or t.decided_hour >= v_lo)
       and (v_hi is null or t.decided_hour < v_hi)
  ),
  across as (
    select distinct h.decided_hour from hours h where not h.one_day
  ),
  -- The decisions not taken from the tally, one row each, with the right's account type as it is now.
  counted as (
    select d.decided_at, d.decision
      from public.right_decisions d
     where ((d.decided_at >= p_from_ts and d.decided_at < v_lo) or (d.decided_at >= v_hi and d.decided_at < p_to_ts))
    union all
    select d.decided_at, d.decision
      from across x
      join public.right_decisions d on d.decided_at >= x.decided_hour and d.decided_at < x.decided_hour + interval '1 hour'
  ),
  parts as (
    select (h.decided_hour at time zone p_time_zone)::date as day, h.decision, h.decisions
      from hours h
     where h.one_day
       and (p_account_type is null or (h.right_known and h.account_type = p_account_type))
    union all
    select (c.decided_at at time zone p_time_zone)::date, c.decision, 1
      from counted c
     where p_account_type is null
    union all
    select (d.decided_at at time zone p_time_zone)::date, d.decision, 1
      from public.right_decisions d
     where p_account_type is not null
       and ((d.decided_at >= p_from_ts and d.decided_at < v_lo) or (d.decided_at >= v_hi and d.decided_at < p_to_ts))
       and exists (select 1 from public.user_rights r where r.id = d.right_id and r.account_type = p_account_type)
    union all
    select (d.decided_at at time zone p_time_zone)::date, d.decision, 1
      from across x
      join public.right_decisions d on d.decided_at >= x.decided_hour and d.decided_at < x.decided_hour + interval '1 hour'
     where p_account_type is not null
       and exists (select 1 from public.user_rights r where r.id = d.right_id and r.account_type = p_account_type)
    union all
    -- A relabelled right's decisions of the tallied hours are there under their own account type, not the right's.
    select (d.decided_at at time zone p_time_zone)::date, d.decision,
           case when r.account_type = p_account_type then 1 else -1 end
      from public.right_decisions d
      join public.user_rights r on r.id = d.right_id
     where p_account_type is not null
       and d.right_id in (select x.right_id from private.relabelled_rights x)
       and r.account_type <> d.account_type
       and p_account_type in (r.account_type, d.account_type)
       and (v_lo is null or d.decided_at >= v_lo)
       and (v_hi is null or d.decided_at < v_hi)
       and date_trunc('hour', d.decided_at, 'UTC') not in (select x.decided_hour from across x)
  )
  select p.day,
         coalesce(sum(p.decisions) filter (where p.decision = 'approved'), 0)::bigint,
         coalesce(sum(p.decisions) filter (where p.decision = 'refused'), 0)::bigint
    from parts p
   group by p.day
  having sum(p.decisions) <> 0;
end;
$$;

-- The campaigns that may have a decision on a right of the application and account type asked for (null = any); a
-- campaign not listed has none. Rssi only.
create function private.maybe_decided_campaigns(p_application_id uuid, p_account_type public.account_type)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
begin
  perform private.require_rssi();
  return query
    select distinct s.campaign_id
      from private.decided_scopes s
     where (p_application_id is null or s.application_id = p_application_id)
       and (p_account_type is null or s.account_type = p_account_type);
end;
$$;

revoke execute on function
  private.fold_tallies_when_due(bigint),
  private.tally_rights(),
  private.tally_decisions(),
  private.tally_relabelled_decisions(),
  private.tallied_rights(uuid, public.account_type),
  private.tallied_at_risk(uuid, public.account_type, timestamptz),
  private.tallied_activity(public.account_type, timestamptz, timestamptz),
  private.tallied_days(public.account_type, timestamptz, timestamptz, text),
  private.whole_hours(timestamptz, timestamptz),
  private.maybe_decided_campaigns(uuid, public.account_type)
  from public, anon, authenticated, service_role;
-- Called by rssi_dashboard and rssi_trends, which run as the caller.
grant execute on function
  private.tallied_rights(uuid, public.account_type),
  private.tallied_at_risk(uuid, public.account_type, timestamptz),
  private.tallied_activity(public.account_type, timestamptz, timestamptz),
  private.tallied_days(public.account_type, timestamptz, timestamptz, text),
  private.maybe_decided_campaigns(uuid, public.account_type)
  to authenticated;

-- ─── RSSI dashboard: risk sets ───────────────────────────────────────────────────────────────────────────────────

-- Two of the RSSI's risks compare a person's rights with one another, which no index answers at once over millions of
-- rights (at 3,000,000 rights, a pass over them: 0.4 s for the dataset's separation-of-duties rule, 7 s for the
-- duplicates). The database keeps their answers instead, as it keeps the tallies: private.role_conflicts (the
-- violations of each enabled incompatible_roles rule, over the rule's own scope) and private.duplicate_rights (the
-- rights held twice), recomputed for the people whose rights a statement adds, removes or relabels (by index on the
-- holder), and for the rule a statement changes. The dashboard counts their rows; one application's violations, a
-- small set, are evaluated on its rights.

-- The role names of an incompatible_roles parameter, as rules are evaluated: its string entries, trimmed, blanks and
-- repeats left out; null when the parameter is missing or not an array. A rule with fewer than two names cannot be
-- evaluated.
create function private.rule_roles(p_parameters jsonb) returns text[]
language sql immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_parameters -> 'incompatible_roles') = 'array' then array(
      select distinct btrim(e.value #>> '{}')
        from jsonb_array_elements(p_parameters -> 'incompatible_roles') e
       where jsonb_typeof(e.value) = 'string' and btrim(e.value #>> '{}') <> ''
    ) end
$$;

-- Separation of duties, the one rule behind Conformité's violations, the RSSI's « Rôles incompatibles » and its list:
-- the people holding rights under two or more of p_roles (names compared exactly as imported) on p_application_id, or
-- on any application when null (the roles may then be held on different ones); among p_users only, when given. One row
-- per person. Planned for the values it is given, as its callers plan theirs.
create function private.role_conflict_holders(p_roles text[], p_application_id uuid, p_users uuid[] default null)
returns table (user_id uuid)
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  return query
    select ur.user_id
      from public.user_rights ur
     where ur.role_name = any (p_roles)
       and (p_application_id is null or ur.application_id = p_application_id)
       and (p_users is null or ur.user_id = any (p_users))
     group by ur.user_id
    having count(distinct ur.role_name) >= 2;
end;
$$;

-- The violations of the enabled incompatible_roles rules, one row per rule and person, as Conformité counts them under
-- its application filter: with p_application_id, the rules of that application and the global ones narrowed to it;
-- without, every rule over its own scope. Of one rule (p_rule_id) or of some people (p_users) when given. Rule by rule,
-- each planned for its names and scope (an application's few rights, or the holders of its names by
-- user_rights_role_name_idx), as rssi_compliance plans them.
create function private.role_conflicts_of(p_application_id uuid, p_rule_id uuid, p_users uuid[])
returns table (rule_id uuid, user_id uuid)
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v_rule record;
begin
  for v_rule in
    select r.id, coalesce(r.application_id, p_application_id) as scope, private.rule_roles(r.parameters) as roles
      from public.control_rules r
     where r.enabled
       and (p_application_id is null or r.global or r.application_id = p_application_id)
       and (p_rule_id is null or r.id = p_rule_id)
  loop
    if coalesce(cardinality(v_rule.roles), 0) >= 2 then
      return query select v_rule.id, h.user_id from private.role_conflict_holders(v_rule.roles, v_rule.scope, p_users) h;
    end if;
  end loop;
end;
$$;

-- Doublons: the rights whose holder holds, on the same application, another right of the same role (names compared
-- without case or surrounding spaces, which the import keeps as written) or under another account type. The data model
-- knows an account only as a person's rights on an application under one account type: two types there are two
-- accounts. Each right of a duplicate is listed, both of a pair. Of p_users only, when given.
create function private.duplicate_rights_of(p_users uuid[])
returns table (right_id uuid, user_id uuid, application_id uuid, account_type public.account_type)
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  return query
    select x.id, x.user_id, x.application_id, x.account_type
      from (
        select ur.id, ur.user_id, ur.application_id, ur.account_type,
               count(*) over (partition by ur.user_id, ur.application_id, lower(btrim(ur.role_name))) as same_role,
               min(ur.account_type) over (partition by ur.user_id, ur.application_id) as first_type,
               max(ur.account_type) over (partition by ur.user_id, ur.application_id) as last_type
          from public.user_rights ur
         where p_users is null or ur.user_id = any (p_users)
      ) x
     where x.same_role > 1 or x.first_type <> x.last_type;
end;
$$;

create table private.role_conflicts (
  rule_id uuid not null,
  user_id uuid not null,
  constraint role_conflicts_key primary key (rule_id, user_id)
);
create index role_conflicts_user_id_idx on private.role_conflicts (user_id);

-- With the application and account type of each right, so that the dashboard counts them under its filters here.
create table private.duplicate_rights (
  right_id uuid not null,
  user_id uuid not null,
  application_id uuid not null,
  account_type public.account_type not null,
  constraint duplicate_rights_key primary key (right_id)
);
create index duplicate_rights_user_id_idx on private.duplicate_rights (user_id);

alter table private.role_conflicts enable row level security;
alter table private.duplicate_rights enable row level security;
revoke all on private.role_conflicts, private.duplicate_rights from public, anon, authenticated, service_role;

-- Writers of the risk sets take turns, until they commit: a rule's refresh (p_users null) against every writer of
-- rights, and the writers of one person's rights against one another (one lock per 256th of the people, taken in
-- order). Each then recomputes in a statement of its own, which sees what the writer before it committed: two imports
-- at once never leave a duplicate or a violation unseen (under read committed, as every API call runs).
create function private.lock_risk_sets(p_users uuid[]) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if p_users is null then
    perform pg_catalog.pg_advisory_xact_lock(hashtextextended('recertif.risk_sets', 0));
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock_shared(hashtextextended('recertif.risk_sets', 0));
  perform pg_catalog.pg_advisory_xact_lock(hashtext('recertif.risk_sets.holders'), b.bucket)
     from (select distinct hashtext(u::text) & 255 as bucket from unnest(p_users) u order by 1) b;
end;
$$;

-- The duplicates and violations of the given people, recomputed from their rights.
create function private.refresh_holder_risks(p_users uuid[]) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality(p_users), 0) = 0 then
    return;
  end if;
  perform private.lock_risk_sets(p_users);
  delete from private.duplicate_rights d where d.user_id = any (p_users);
  insert into private.duplicate_rights (right_id, user_id, application_id, account_type)
  select x.right_id, x.user_id, x.application_id, x.account_type from private.duplicate_rights_of(p_users) x;
  delete from private.role_conflicts c where c.user_id = any (p_users);
  insert into private.role_conflicts (rule_id, user_id)
  select x.rule_id, x.user_id from private.role_conflicts_of(null, null, p_users) x;
end;
$$;

-- The holders of a statement's rights, before and after: those added, removed, or changed in holder, application, role
-- or account type (a last use or a decision changes neither set).
create function private.track_holder_risks() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = risk_old, newtable = risk_new
begin
  if tg_op = 'INSERT' then
    perform private.refresh_holder_risks(array(select distinct n.user_id from risk_new n));
  elsif tg_op = 'DELETE' then
    perform private.refresh_holder_risks(array(select distinct o.user_id from risk_old o));
  else
    perform private.refresh_holder_risks(array(
      select distinct h.user_id
        from risk_old o
        join risk_new n on n.id = o.id
        cross join lateral (values (o.user_id), (n.user_id)) h (user_id)
       where (o.user_id, o.application_id, o.role_name, o.account_type)
             is distinct from (n.user_id, n.application_id, n.role_name, n.account_type)
    ));
  end if;
  return null;
end;
$$;


-- A rule added, changed (enabled, names, scope) or removed: its violations recomputed over all the rights.
create function private.track_rule_conflicts() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.lock_risk_sets(null);
  if tg_op <> 'INSERT' then
    delete from private.role_conflicts c where c.rule_id = old.id;
  end if;
  if tg_op <> 'DELETE' then
    insert into private.role_conflicts (rule_id, user_id)
    select x.rule_id, x.user_id from private.role_conflicts_of(null, new.id, null) x;
  end if;
  return null;
end;
$$;


-- Doublons under the dashboard's application and account type (null = any), without a search. Rssi only.
create function private.duplicate_count(p_application_id uuid, p_account_type public.account_type) returns bigint
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_count bigint;
begin
  perform private.require_rssi();
  select count(*) into v_count
    from private.duplicate_rights d
   where (p_application_id is null or d.application_id = p_application_id)
     and (p_account_type is null or d.account_type = p_account_type);
  return v_count;
end;
$$;

-- The ids of the duplicate rights, which a search and rssi_risk_list read under row-level security. Rssi only.
create function private.duplicated_right_ids() returns table (id uuid)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform private.require_rssi();
  return query select d.right_id from private.duplicate_rights d;
end;
$$;

-- Rôles incompatibles: the violations Conformité counts under its application filter (null = all applications), from
-- private.role_conflicts for all, evaluated on the application's rights for one. Rssi only.
create function private.role_conflict_count(p_application_id uuid) returns bigint
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v_count bigint;
begin
  perform private.require_rssi();
  if p_application_id is null then
    select count(*) into v_count from private.role_conflicts;
  else
    select count(*) into v_count from private.role_conflicts_of(p_application_id, null, null);
  end if;
  return v_count;
end;
$$;

-- One page of those violations, by rule name, then person (last name, first name). Rssi only.
create function private.role_conflict_page(p_application_id uuid, p_offset integer, p_limit integer)
returns table (rule_id uuid, user_id uuid)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.require_rssi();
  if p_application_id is null then
    return query
      select c.rule_id, c.user_id
        from private.role_conflicts c
        join public.control_rules r on r.id = c.rule_id
        join public.users u on u.id = c.user_id
       order by r.name, r.id, u.last_name, u.first_name, u.id
      offset p_offset limit p_limit;
  else
    return query
      select c.rule_id, c.user_id
        from private.role_conflicts_of(p_application_id, null, null) c
        join public.control_rules r on r.id = c.rule_id
        join public.users u on u.id = c.user_id
       order by r.name, r.id, u.last_name, u.first_name, u.id
      offset p_offset limit p_limit;
  end if;
end;
$$;

-- The filters of the dashboard set (p_pattern, p_account_type) that a risk does not apply: Rôles incompatibles counts
-- as Conformité does, which knows no search and no account type.
create function private.risk_ignored_filters(p_risk text, p_pattern text, p_account_type public.account_type)
returns jsonb
language sql immutable
set search_path = ''
as $$
  select case when p_risk = 'incompatible_roles' then to_jsonb(array_remove(array[
      case when p_pattern is not null then 'search' end,
      case when p_account_type is not null then 'account_type' end
    ], null)) else '[]'::jsonb end
$$;

revoke execute on function
  private.rule_roles(jsonb),
  private.role_conflict_holders(text[], uuid, uuid[]),
  private.role_conflicts_of(uuid, uuid, uuid[]),
  private.duplicate_rights_of(uuid[]),
  private.lock_risk_sets(uuid[]),
  private.refresh_holder_risks(uuid[]),
  private.track_holder_risks(),
  private.track_rule_conflicts(),
  private.duplicate_count(uuid, public.account_type),
  private.duplicated_right_ids(),
  private.role_conflict_count(uuid),
  private.role_conflict_page(uuid, integer, integer),
  private.risk_ignored_filters(text, text, public.account_type)
  from public, anon, authenticated, service_role;
-- rssi_compliance calls the first two as the caller; rssi_dashboard and rssi_risk_list call the others.
grant execute on function
  private.rule_roles(jsonb),
  private.role_conflict_holders(text[], uuid, uuid[]),
  private.duplicate_count(uuid, public.account_type),
  private.duplicated_right_ids(),
  private.role_conflict_count(uuid),
  private.role_conflict_page(uuid, integer, integer),
  private.risk_ignored_filters(text, text, public.account_type)
  to authenticated;

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
           c.status in ('completed', 'archived')
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
           c.status in ('completed', 'archived')
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
      'reviews_completed', (select count(*) from campaigns_in_scope c where c.status in ('completed', 'archived'))
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
  v_few := private.few_rights_matching(v_pattern);
  perform private.require_page(p_limit, 0);
  perform private.require_application(p_application_id);

  -- Walks the primary key from p_after_id and stops as soon as the page is full, so each page costs about the same
  -- however far the export has gone; a search matching few rights reads just those (private.few_rights_matching).
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
  v_few := private.few_rights_matching(v_pattern);
  perform private.require_application(p_application_id);

  select count(*) into v_count
    from private.rights_in_scope(v_pattern, v_few, p_application_id, p_account_type) ur;
  return v_count;
end;
$$;

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
    v_few := private.few_rights_matching(v_pattern);
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
  v_result jsonb;
begin
  perform private.require_rssi();
  if v_pattern is not null then
    select t.roles, t.holders, t.applications into v_roles, v_holders, v_applications from private.search_terms(v_pattern) t;
  end if;
  perform private.require_application(p_application_id);
  select w.from_ts, w.to_ts into v_from_ts, v_to_ts from private.day_window(p_from, p_to, v_zone) w;
  v_today := (now() at time zone v_zone)::date;

  -- Not materialized: each use below reads only its campaigns' items through campaign_items_campaign_status_idx,
  -- instead of every item of every campaign once.
  with items_in_scope as not materialized (
    select i.id, i.campaign_id, i.status, i.last_used_at, i.undecided_at_closure, i.application_id
      from private.items_in_scope(v_pattern, p_application_id, p_account_type) i
  ),
  recent as (
    select c.id, c.name, c.status, c.start_date,
           case when c.status = 'active' then v_today else c.end_date end as point_date
      from public.campaigns c
     -- rssi_dashboard's campaigns for the window: a running campaign is a state, a closed one counts when it overlaps.
     where (
         c.status = 'active'
         or (
           c.status in ('completed', 'archived')
           and (p_to is null or c.start_date <= p_to)
           and (p_from is null or c.end_date >= p_from)
         )
       )
       and (not v_filtered or exists (select 1 from items_in_scope i where i.campaign_id = c.id))
     order by case when c.status = 'active' then v_today else c.end_date end desc, c.start_date desc, c.id desc
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
  -- The decisions of the window, counted as rssi_dashboard's activity counts them: without a right filter or with an
  -- account type only, from the tallies per hour (reading the 2,000,000 decisions of a month took 4 s); for one
  -- application or a search, those of its rights in scope, found by index as the dashboard finds them.
  scoped_rights as (
    select ur.id
      from public.user_rights ur
     where (p_application_id is not null or v_pattern is not null)
       and (p_application_id is null or ur.application_id = p_application_id)
       and (p_account_type is null or ur.account_type = p_account_type)
       and (
         v_pattern is null
         or ur.role_name = any (v_roles) or ur.user_id = any (v_holders) or ur.application_id = any (v_applications)
       )
  ),
  decided as (
    select x.day, sum(x.approved)::bigint as approved, sum(x.refused)::bigint as refused
      from (
        select (d.decided_at at time zone v_zone)::date as day,
               count(*) filter (where d.decision = 'approved') as approved,
               count(*) filter (where d.decision = 'refused') as refused
          from scoped_rights ur
          join public.right_decisions d on d.right_id = ur.id
         where (v_from_ts is null or d.decided_at >= v_from_ts)
           and (v_to_ts is null or d.decided_at < v_to_ts)
         group by 1
        union all
        select t.day, t.approved, t.refused
          from private.tallied_days(p_account_type, v_from_ts, v_to_ts, v_zone) t
         where p_application_id is null and v_pattern is null
      ) x
     group by x.day
  ),
  days as (
    select g.day::date as day
      from generate_series(
        coalesce(p_from, (select min(x.day) from decided x), v_today),
        greatest(coalesce(p_to, v_today), coalesce(p_from, (select min(x.day) from decided x), v_today)),
        interval '1 day'
      ) g(day)
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
      left join private.running_stage_decisions(v_pattern, p_application_id, p_account_type) x on x.stage = s.stage
  )
  select jsonb_build_object(
    'as_of', now(),
    'campaigns', (
      select coalesce(jsonb_agg(jsonb_build_object(
          'id', p.id,
          'name', p.name,
          'status', p.status,
          'point_date', p.point_date,
          'total_items', p.total,
          'validated_items', p.validated,
          'validation_rate', private.percent(p.validated, p.total),
          'reviewed_items', p.reviewed,
          'undecided_items', p.undecided,
          'review_rate', private.percent(p.reviewed, p.total),
          'at_risk_items', p.at_risk
        ) order by p.point_date, p.start_date, p.id), '[]'::jsonb)
        from points p
    ),
    'days', (
      select coalesce(jsonb_agg(jsonb_build_object(
          'day', s.day,
          'approved', coalesce(x.approved, 0),
          'refused', coalesce(x.refused, 0)
        ) order by s.day), '[]'::jsonb)
        from days s
        left join decided x on x.day = s.day
    ),
    'stages', (
      select jsonb_agg(jsonb_build_object('stage', s.stage, 'decided', s.decided, 'waiting', s.waiting) order by s.position)
        from stages s
    )
  )
  into v_result;

  return v_result;
end;
$$;

revoke execute on function public.rssi_trends(text, uuid, public.account_type, date, date, text) from public, anon;
grant execute on function public.rssi_trends(text, uuid, public.account_type, date, date, text) to authenticated;

-- ─── Compliance page ─────────────────────────────────────────────────────────────────────────────────────────────

-- rpc('rssi_compliance', { p_application_id }) → one JSON object. p_application_id null = all applications; set, it
-- narrows every figure of the page to that application's rights, and the rules to those that apply to it (the
-- global ones and its own).
--
-- Control rules (control_rules.parameters), supported keys; unknown keys are ignored and listed:
--   * inactivity_threshold: number of days > 0 (SPEC §9). A violation is a right in the rule's scope never used or not
--     used within that many days (last_used_at is null or last_used_at < now − threshold days). Unit: rights.
--   * incompatible_roles: array of at least two role names (separation of duties), e.g.
--     {"incompatible_roles": ["Comptable", "Approbateur factures"]}. A violation is a person who holds, within the
--     rule's scope, rights under two or more of the listed names. Names compare exactly as imported (the rule's own
--     names are trimmed; non-string and blank entries are ignored); a list with fewer than two distinct names cannot
--     be evaluated and is reported in ignored_parameters. For a global rule the roles may be held on different
--     applications. Unit: people (a person holding three listed roles is one violation).
--   A rule's scope is every application when it is global, else its application (and, under the page filter, only
--   that application's rights). A rule carrying both keys counts both; violations is their sum and
--   violations_by_parameter gives each.
--   A disabled rule is listed, not evaluated: state 'disabled', violations null (a control that is switched off finds
--   nothing — it is not reported as finding 0). An enabled rule with no usable parameter: state 'unsupported',
--   violations null. Otherwise state 'evaluated'.
--
-- Result:
--   as_of, application_id
--   cards        { total_rights, compliant_rights, non_compliant_rights, compliance_rate, compliance_level,
--                  active_rules (enabled rules that apply), validated_rights }
--   rules        [{ id, name, description, global, application_id, application_name, parameters, enabled, state,
--                  violations, violations_by_parameter { inactivity_threshold?, incompatible_roles? },
--                  ignored_parameters [keys not evaluated] }] by name
--   applications [{ application_id, application_name, total_rights, compliant_rights, non_compliant_rights, rate,
--                  level }] every application (or the filtered one), including those without rights (rate null),
--                  by name
create function public.rssi_compliance(p_application_id uuid default null) returns jsonb
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_cutoff timestamptz := now() - interval '90 days';
  v_applications jsonb;
  v_total bigint;
  v_compliant bigint;
  v_validated bigint;
  v_active_rules integer := 0;
  v_rules jsonb := '[]'::jsonb;
  v_rule record;
  v_scope uuid;
  v_state text;
  v_by_parameter jsonb;
  v_ignored text[];
  v_threshold numeric;
  v_roles text[];
  v_count bigint;
begin
  perform private.require_rssi();
  perform private.require_application(p_application_id);

  with per_application as (
    select
      ur.application_id,
      count(*) as total,
      count(*) filter (
        where not (ur.status = any (private.refused_statuses()))
          and ur.last_used_at >= v_cutoff
      ) as compliant,
      count(*) filter (where ur.status = any (private.validated_statuses())) as validated
    from public.user_rights ur
    where p_application_id is null or ur.application_id = p_application_id
    group by ur.application_id
  )
  select
    coalesce(sum(p.total), 0)::bigint, coalesce(sum(p.compliant), 0)::bigint, coalesce(sum(p.validated), 0)::bigint,
    coalesce(jsonb_agg(jsonb_build_object(
      'application_id', a.id,
      'application_name', a.name,
      'total_rights', coalesce(p.total, 0),
      'compliant_rights', coalesce(p.compliant, 0),
      'non_compliant_rights', coalesce(p.total - p.compliant, 0),
      'rate', private.percent(p.compliant, p.total),
      'level', private.rate_level(private.percent(p.compliant, p.total))
    ) order by a.name, a.id), '[]'::jsonb)
  into v_total, v_compliant, v_validated, v_applications
  from public.applications a
  left join per_application p on p.application_id = a.id
  where p_application_id is null or a.id = p_application_id;

  for v_rule in
    select r.*, a.name as application_name
      from public.control_rules r
      left join public.applications a on a.id = r.application_id
     where p_application_id is null or r.global or r.application_id = p_application_id
     order by r.name, r.id
  loop
    v_by_parameter := '{}'::jsonb;
    v_ignored := array(
      select k from jsonb_object_keys(v_rule.parameters) k
       where k not in ('inactivity_threshold', 'incompatible_roles')
       order by k
    );
    -- The rights this rule looks at: its application, or, for a global rule, the page's (null = all).
    v_scope := coalesce(v_rule.application_id, p_application_id);

    if v_rule.enabled then
      v_active_rules := v_active_rules + 1;

      if v_rule.parameters ? 'inactivity_threshold' then
        -- control_rules_inactivity_threshold guarantees a number > 0.
        v_threshold := (v_rule.parameters ->> 'inactivity_threshold')::numeric;
        select count(*) into v_count
          from public.user_rights ur
         where (v_scope is null or ur.application_id = v_scope)
           and (ur.last_used_at is null or ur.last_used_at < now() - v_threshold::float8 * interval '1 day');
        v_by_parameter := v_by_parameter || jsonb_build_object('inactivity_threshold', v_count);
      end if;

      if v_rule.parameters ? 'incompatible_roles' then
        -- The same rule as the RSSI dashboard's « Rôles incompatibles » (« RSSI dashboard: risk sets »).
        v_roles := private.rule_roles(v_rule.parameters);
        if coalesce(cardinality(v_roles), 0) >= 2 then
          select count(*) into v_count from private.role_conflict_holders(v_roles, v_scope);
          v_by_parameter := v_by_parameter || jsonb_build_object('incompatible_roles', v_count);
        else
          v_ignored := array_append(v_ignored, 'incompatible_roles');
        end if;
      end if;

      v_state := case when v_by_parameter = '{}'::jsonb then 'unsupported' else 'evaluated' end;
    else
      v_state := 'disabled';
    end if;

    v_rules := v_rules || jsonb_build_array(jsonb_build_object(
      'id', v_rule.id,
      'name', v_rule.name,
      'description', v_rule.description,
      'global', v_rule.global,
      'application_id', v_rule.application_id,
      'application_name', v_rule.application_name,
      'parameters', v_rule.parameters,
      'enabled', v_rule.enabled,
      'state', v_state,
      'violations', case when v_state = 'evaluated'
        then (select sum(value::bigint) from jsonb_each_text(v_by_parameter)) end,
      'violations_by_parameter', v_by_parameter,
      'ignored_parameters', to_jsonb(v_ignored)
    ));
  end loop;

  return jsonb_build_object(
    'as_of', now(),
    'application_id', p_application_id,
    'cards', jsonb_build_object(
      'total_rights', v_total,
      'compliant_rights', v_compliant,
      'non_compliant_rights', v_total - v_compliant,
      'compliance_rate', private.percent(v_compliant, v_total),
      'compliance_level', private.rate_level(private.percent(v_compliant, v_total)),
      'active_rules', v_active_rules,
      'validated_rights', v_validated
    ),
    'rules', v_rules,
    'applications', v_applications
  );
end;
$$;

-- ─── Audit page ──────────────────────────────────────────────────────────────────────────────────────────────────

-- Filters shared by rssi_audit_events and rssi_audit_count (each null or blank = no restriction):
--   p_search   contains, case-insensitive, over the actor's e-mail and name (as recorded), the action, the resource
--              type, the resource id and the details as JSON text (keys and values);
--   p_user_id  the actor; the nil uuid 00000000-0000-0000-0000-000000000000 selects the events without an actor
--              (written by the system: 'Système');
--   p_action   exact action (create, update, delete, decide, start_campaign, …);
--   p_from, p_to  dates, both included, in p_time_zone (default Europe/Paris).

-- rpc('rssi_audit_events', { …filters, p_limit, p_offset, p_before_id }) → audit_logs rows, newest first ("timestamp"
-- desc, then id desc). Page size p_limit 1 to 1000 (default 100, the page of the screen). Two ways to page: p_offset
-- (page n = offset 100·n, for the page buttons), or keyset — p_before_id = the id of the last event received, for
-- the CSV export, which then fetches every filtered event page by page without gaps or repeats even while new events
-- arrive. Stop at a page shorter than p_limit. The total to expect is rssi_audit_count (PostgREST's count=exact would
-- count this page, not the filtered events).
create function public.rssi_audit_events(
  p_search text default null,
  p_user_id uuid default null,
  p_action text default null,
  p_from date default null,
  p_to date default null,
  p_time_zone text default 'Europe/Paris',
  p_limit integer default 100,
  p_offset integer default 0,
  p_before_id bigint default null
) returns setof public.audit_logs
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_action text := nullif(btrim(p_action), '');
  v_system boolean := p_user_id = '00000000-0000-0000-0000-000000000000'::uuid;
  v_user uuid := case when p_user_id = '00000000-0000-0000-0000-000000000000'::uuid then null else p_user_id end;
  v_from_ts timestamptz;
  v_to_ts timestamptz;
  v_matches bigint[];
  v_before_ts timestamptz;
begin
  perform private.require_rssi();
  perform private.require_page(p_limit, p_offset);
  if p_before_id is not null then
    -- The trail is never changed nor deleted, so the event to resume from is always there.
    select l."timestamp" into v_before_ts from public.audit_logs l where l.id = p_before_id;
    if v_before_ts is null then
      raise exception 'L''événement à partir duquel reprendre est introuvable.' using errcode = 'P0001';
    end if;
  end if;
  select w.from_ts, w.to_ts into v_from_ts, v_to_ts
    from private.day_window(p_from, p_to, coalesce(nullif(btrim(p_time_zone), ''), 'Europe/Paris')) w;

  -- A search matching few events (up to 1000 in the whole trail) reads just those, found by the trigram index; one
  -- matching more walks the events newest first, testing each one's text, and stops as soon as the page is full
  -- (private.audit_matching_page). Both test the same text, the one private.audit_search keeps.
  if v_pattern is not null then
    v_matches := array(select m.id from private.audit_matching(v_pattern, 1001) m);
    if cardinality(v_matches) > 1000 then
      return query
      select l.*
        from private.audit_matching_page(v_pattern, v_user, v_system, v_action, v_from_ts, v_to_ts, v_before_ts,
                                         p_before_id, p_limit, p_offset) w
        join public.audit_logs l on l.id = w.id
       order by l."timestamp" desc, l.id desc;
      return;
    end if;
  end if;

  return query
  select l.*
    from public.audit_logs l
   where (v_user is null or l.user_id = v_user)
     and (v_system is not true or l.user_id is null)
     and (v_action is null or l.action = v_action)
     and (v_from_ts is null or l."timestamp" >= v_from_ts)
     and (v_to_ts is null or l."timestamp" < v_to_ts)
     and (p_before_id is null or (l."timestamp", l.id) < (v_before_ts, p_before_id))
     and (v_pattern is null or l.id = any (v_matches))
   order by l."timestamp" desc, l.id desc
   limit p_limit offset p_offset;
end;
$$;

-- rpc('rssi_audit_count', { …filters }) → bigint: the number of events rssi_audit_events pages through (the
-- "N événements" of the screen).
create function public.rssi_audit_count(
  p_search text default null,
  p_user_id uuid default null,
  p_action text default null,
  p_from date default null,
  p_to date default null,
  p_time_zone text default 'Europe/Paris'
) returns bigint
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_pattern text := private.search_pattern(p_search);
  v_action text := nullif(btrim(p_action), '');
  v_system boolean := p_user_id = '00000000-0000-0000-0000-000000000000'::uuid;
  v_user uuid := case when p_user_id = '00000000-0000-0000-0000-000000000000'::uuid then null else p_user_id end;
  v_from_ts timestamptz;
  v_to_ts timestamptz;
  v_count bigint;
begin
  perform private.require_rssi();
  select w.from_ts, w.to_ts into v_from_ts, v_to_ts
    from private.day_window(p_from, p_to, coalesce(nullif(btrim(p_time_zone), ''), 'Europe/Paris')) w;

  select count(*) into v_count
    from public.audit_logs l
   where (v_user is null or l.user_id = v_user)
     and (v_system is not true or l.user_id is null)
     and (v_action is null or l.action = v_action)
     and (v_from_ts is null or l."timestamp" >= v_from_ts)
     and (v_to_ts is null or l."timestamp" < v_to_ts)
     and (v_pattern is null or l.id in (select m.id from private.audit_matching(v_pattern) m));
  return v_count;
end;
$$;

-- rpc('rssi_audit_filters') → { actions: [text], users: [{ user_id, user_email, user_name }] }: the choices of the
-- screen's dropdowns — every action in the trail (alphabetical), and every actor with the e-mail and name of their
-- latest event (by name), plus { user_id: '00000000-0000-0000-0000-000000000000', user_email: null,
-- user_name: 'Système' } when there are events without an actor. Read by skipping along the indexes, so the cost
-- grows with the number of distinct values, not of events.
create function public.rssi_audit_filters() returns jsonb
language plpgsql stable
set search_path = ''
set jit = off
as $$
declare
  v_actions jsonb;
  v_users jsonb;
begin
  perform private.require_rssi();

  with recursive actions as (
    (select l.action from public.audit_logs l order by l.action limit 1)
    union all
    select (select l.action from public.audit_logs l where l.action > actions.action order by l.action limit 1)
      from actions
     where actions.action is not null
  )
  select coalesce(jsonb_agg(actions.action order by actions.action), '[]'::jsonb)
    into v_actions
    from actions
   where actions.action is not null;

  with recursive actors as (
    (select l.user_id from public.audit_logs l where l.user_id is not null order by l.user_id limit 1)
    union all
    select (select l.user_id from public.audit_logs l where l.user_id > actors.user_id order by l.user_id limit 1)
      from actors
     where actors.user_id is not null
  ),
  named as (
    select actors.user_id, latest.user_email, latest.user_name
      from actors
      cross join lateral (
        select l.user_email, l.user_name
          from public.audit_logs l
         where l.user_id = actors.user_id
         order by l."timestamp" desc, l.id desc
         limit 1
      ) latest
     where actors.user_id is not null
    union all
    select '00000000-0000-0000-0000-000000000000'::uuid, null, 'Système'
     where exists (select 1 from public.audit_logs l where l.user_id is null)
  )
  select coalesce(jsonb_agg(jsonb_build_object(
      'user_id', named.user_id, 'user_email', named.user_email, 'user_name', named.user_name
    ) order by named.user_name, named.user_email, named.user_id), '[]'::jsonb)
    into v_users
    from named;

  return jsonb_build_object('actions', v_actions, 'users', v_users);
end;
$$;

-- ─── Access ──────────────────────────────────────────────────────────────────────────────────────────────────────

revoke execute on function
  public.rssi_dashboard(text, uuid, public.account_type, date, date, text),
  public.rssi_rights_export(text, uuid, public.account_type, uuid, integer),
  public.rssi_rights_count(text, uuid, public.account_type),
  public.rssi_compliance(uuid),
  public.rssi_audit_events(text, uuid, text, date, date, text, integer, integer, bigint),
  public.rssi_audit_count(text, uuid, text, date, date, text),
  public.rssi_audit_filters()
  from public, anon;

grant execute on function
  public.rssi_dashboard(text, uuid, public.account_type, date, date, text),
  public.rssi_rights_export(text, uuid, public.account_type, uuid, integer),
  public.rssi_rights_count(text, uuid, public.account_type),
  public.rssi_compliance(uuid),
  public.rssi_audit_events(text, uuid, text, date, date, text, integer, integer, bigint),
  public.rssi_audit_count(text, uuid, text, date, date, text),
  public.rssi_audit_filters()
  to authenticated;

-- ─── Evidence pack ───────────────────────────────────────────────────────────────────────────────────────────────

-- The record an auditor asks for, of one closed campaign, for admin and rssi: the summary (campaign_evidence), its
-- items with every stage's decision (campaign_evidence_items) and its audit events (campaign_evidence_journal).
-- Security definer because the pack carries what the audit trail recorded (who started and completed the campaign,
-- each decision's IP, the campaign's events), which row-level security keeps to the RSSI: these functions check the
-- caller's role themselves and read only the one campaign's record. The seal stays the RSSI's, as verify_audit_chain
-- is: for an admin, campaign_evidence leaves it out and the workbook says so.

-- The three readers run without JIT: their statements over a campaign's hundreds of thousands of items are estimated
-- past the JIT threshold, while each reads by index and is done in about a tenth of a second (compiling took longer,
-- as it did for campaign_export_rows).
-- The campaign, once the caller may have its pack and it is closed.
create function private.require_evidence_campaign(p_campaign_id uuid) returns public.campaigns
language plpgsql stable security definer
set search_path = ''
as $$
declare
  target public.campaigns;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent télécharger le rapport de campagne.');
  select c.* into target from public.campaigns c where c.id = p_campaign_id;
  if target.id is null then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;
  if target.status not in ('completed', 'archived') then
    raise exception 'Le rapport de campagne n''existe que pour une campagne terminée ou archivée (celle-ci est « % »).',
      private.campaign_status_label(target.status)
      using errcode = '22023';
  end if;
  return target;
end;
$$;

revoke execute on function private.require_evidence_campaign(uuid) from public, anon;

-- rpc('campaign_evidence', { p_campaign_id }) → one jsonb object:
--   campaign     id, name, description, status, start_date, end_date, created_at, created_by_name,
--                application_name (null = every application), account_type (null = every type);
--   started, completed   { at, by_name } from the audit events start_campaign and complete_campaign (latest), or null;
--   items, reviewed, undecided, progress
--                the number of items, those reviewed (« revus »), those Terminer sent to the RA undecided (« non
--                décidés à la clôture ») and the review rate: campaign_progress's rights_count, reviewed_count,
--                undecided_count and progress, read from it;
--   by_status    { status: count } over the items (the final outcome of each);
--   stages       [{ stage, approved, refused, awaiting }]: items whose latest decision at that stage approved or
--                refused them, and those left waiting for that stage (pending and validated_user for the manager,
--                validated_manager for BPO Métier, validated_bpo_metier for BPO Groupe, refused and treatment_required
--                for the RA);
--   decisions_after_end   decisions on the items taken after the end date;
--   generated_at the time of the pack; seal: verify_audit_chain's answer (rssi), null for an admin.
create function public.campaign_evidence(p_campaign_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
set jit = off
as $$
declare
  target public.campaigns := private.require_evidence_campaign(p_campaign_id);
  result jsonb;
begin
  with counts as (
    select i.status, count(*) as n
      from public.campaign_items i
     where i.campaign_id = target.id
     group by i.status
  ),
  figures as (
    select p.rights_count, p.reviewed_count, p.undecided_count, p.progress
      from public.campaign_progress p
     where p.campaign_id = target.id
  ),
  -- A decision on an item carries the item's campaign (the decisions' insert guard checks it), so the campaign's
  -- decisions are read by their own campaign index, without joining its hundreds of thousands of items.
  latest as (
    select distinct on (d.item_id, d.stage) d.stage, d.decision
      from public.right_decisions d
     where d.campaign_id = target.id and d.item_id is not null
     order by d.item_id, d.stage, d.decided_at desc, d.id desc
  ),
  stages as (
    select s.stage, s.ord,
           (select count(*) from latest l where l.stage = s.stage and l.decision = 'approved') as approved,
           (select count(*) from latest l where l.stage = s.stage and l.decision = 'refused') as refused,
           (select coalesce(sum(k.n), 0) from counts k where k.status = any (s.awaiting)) as awaiting
      from (values
        ('user'::public.review_stage, 1, array[]::public.right_status[]),
        ('manager', 2, array['pending', 'validated_user']::public.right_status[]),
        ('bpo_metier', 3, array['validated_manager']::public.right_status[]),
        ('bpo_groupe', 4, array['validated_bpo_metier']::public.right_status[]),
        ('ra', 5, array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe',
                        'treatment_required']::public.right_status[])
      ) as s (stage, ord, awaiting)
  ),
  events as (
    select distinct on (l.action) l.action, l."timestamp", coalesce(l.user_name, l.user_email) as by_name
      from public.audit_logs l
     where l.resource_type = 'campaigns' and l.resource_id = target.id::text
       and l.action in ('start_campaign', 'complete_campaign')
     order by l.action, l.id desc
  )
  select jsonb_build_object(
    'campaign', jsonb_build_object(
      'id', target.id,
      'name', target.name,
      'description', target.description,
      'status', target.status,
      'start_date', target.start_date,
      'end_date', target.end_date,
      'created_at', target.created_at,
      'created_by_name', (select u.first_name || ' ' || u.last_name from public.users u where u.id = target.created_by),
      'application_name', (select a.name from public.applications a where a.id = target.application_id),
      'account_type', target.account_type
    ),
    'started', (select jsonb_build_object('at', e."timestamp", 'by_name', e.by_name) from events e where e.action = 'start_campaign'),
    'completed', (select jsonb_build_object('at', e."timestamp", 'by_name', e.by_name) from events e where e.action = 'complete_campaign'),
    'items', (select f.rights_count from figures f),
    'reviewed', (select f.reviewed_count from figures f),
    'undecided', (select f.undecided_count from figures f),
    'progress', (select f.progress from figures f),
    'by_status', (select coalesce(jsonb_object_agg(k.status, k.n), '{}'::jsonb) from counts k),
    'stages', (select jsonb_agg(jsonb_build_object('stage', s.stage, 'approved', s.approved, 'refused', s.refused,
                                                   'awaiting', s.awaiting) order by s.ord)
                 from stages s),
    'decisions_after_end', (
      select count(*)
        from public.right_decisions d
       where d.campaign_id = target.id and d.item_id is not null and d.decided_at >= (target.end_date + 1)::timestamptz
    ),
    'generated_at', now(),
    'seal', case when private.is_rssi() then public.verify_audit_chain() end
  )
    into result;
  return result;
end;
$$;

-- rpc('campaign_evidence_items', { p_campaign_id, p_after_id?, p_limit? }) → one JSON array of the campaign's items in
-- right id order (keyset: pass the last right id of a page as p_after_id; p_limit 1 to 10,000). A pack of 200,000
-- items is read in pages of thousands, so each item is an array in a fixed order rather than an object repeating its
-- keys, and its times are milliseconds since 1970 (numbers a browser reads without parsing text):
--   [right_id, holder_name, holder_email, manager_name, application_name, role_name, account_type, granted_at,
--    last_used_at, justification, status, decisions]
-- decisions is null or the item's latest decision at each stage, in stage order, each
--   [stage, decision, decided_by_name, decided_at, comment, ip_address]
-- the IP being the one the decision recorded, as its audit event did.
create function public.campaign_evidence_items(p_campaign_id uuid, p_after_id uuid default null, p_limit integer default 5000)
returns json
language plpgsql stable security definer
set search_path = ''
set jit = off
as $$
declare
  target public.campaigns := private.require_evidence_campaign(p_campaign_id);
  result json;
begin
  if p_limit is null or p_limit < 1 or p_limit > 10000 then
    raise exception 'La taille de page doit être comprise entre 1 et 10 000.' using errcode = '22023';
  end if;
  -- The page's decisions are read in one pass over its items and grouped, rather than by a subquery per item: a
  -- third less time a page.
  with page as (
    select *
      from public.campaign_items c
     where c.campaign_id = target.id
       and c.right_id > coalesce(p_after_id, '00000000-0000-0000-0000-000000000000')
     order by c.right_id
     limit p_limit
  ),
  latest as (
    select distinct on (x.item_id, x.stage) x.item_id, x.stage, x.decision, x.decided_by_name, x.decided_at, x.comment,
           x.ip_address
      from public.right_decisions x
     where x.item_id in (select p.id from page p)
     order by x.item_id, x.stage, x.decided_at desc, x.id desc
  ),
  decisions as (
    select d.item_id,
           json_agg(json_build_array(
             d.stage, d.decision, d.decided_by_name, floor(extract(epoch from d.decided_at) * 1000)::bigint, d.comment,
             host(d.ip_address)
           ) order by d.stage) as list
      from latest d
     group by d.item_id
  )
  select coalesce(json_agg(json_build_array(
           i.right_id, i.holder_name, i.holder_email, i.manager_name, i.application_name, i.role_name, i.account_type,
           floor(extract(epoch from i.granted_at) * 1000)::bigint,
           floor(extract(epoch from i.last_used_at) * 1000)::bigint,
           i.justification, i.status, d.list
         ) order by i.right_id), '[]'::json)
    into result
    from page i
    left join decisions d on d.item_id = i.id;
  return result;
end;
$$;

-- rpc('campaign_evidence_journal', { p_campaign_id, p_after_id?, p_limit? }) → the campaign's audit events in id
-- order (keyset on id): those on the campaign itself, the decisions taken in it, and the other events on its items'
-- rights between its start and its completion (its dates when those events are missing).
create function public.campaign_evidence_journal(p_campaign_id uuid, p_after_id bigint default null, p_limit integer default 1000)
returns table (
  id bigint,
  "timestamp" timestamptz,
  user_name text,
  user_email text,
  action text,
  resource_type text,
  resource_id text,
  details jsonb,
  ip_address text
)
language plpgsql stable security definer
set search_path = ''
set jit = off
as $$
declare
  target public.campaigns := private.require_evidence_campaign(p_campaign_id);
  window_start timestamptz;
  window_end timestamptz;
begin
  perform private.require_page(p_limit);
  select coalesce(max(l."timestamp") filter (where l.action = 'start_campaign'), target.start_date::timestamptz),
         coalesce(max(l."timestamp") filter (where l.action = 'complete_campaign'), (target.end_date + 1)::timestamptz)
    into window_start, window_end
    from public.audit_logs l
   where l.resource_type = 'campaigns' and l.resource_id = target.id::text;

  return query
    select l.id, l."timestamp", l.user_name, l.user_email, l.action, l.resource_type, l.resource_id, l.details,
           host(l.ip_address)
      from public.audit_logs l
     where l.id > coalesce(p_after_id, 0)
       and (
         (l.resource_type = 'campaigns' and l.resource_id = target.id::text)
         or (l.action = 'decide' and l.details ->> 'campaign_id' = target.id::text)
         or (
           l.resource_type = 'user_rights'
           and l."timestamp" between window_start and window_end
           -- One probe of the item key per event, as the page walks the log in id order: a set of 200,000 item ids
           -- outgrows work_mem, and PostgreSQL then rescanned the items for every event (7 s a page, 24 pages).
           -- The case keeps the cast to the rows whose resource_id is a right's id.
           and exists (
             select from public.campaign_items i
              where i.campaign_id = target.id
                and i.right_id = (case when l.resource_type = 'user_rights' then l.resource_id::uuid end)
           )
         )
       )
     order by l.id
     limit p_limit;
end;
$$;

revoke execute on function
  public.campaign_evidence(uuid),
  public.campaign_evidence_items(uuid, uuid, integer),
  public.campaign_evidence_journal(uuid, bigint, integer)
  from public, anon;

grant execute on function
  public.campaign_evidence(uuid),
  public.campaign_evidence_items(uuid, uuid, integer),
  public.campaign_evidence_journal(uuid, bigint, integer)
  to authenticated;
