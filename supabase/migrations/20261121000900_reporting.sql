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
--
-- The reporting area is in these files, in this order: this one (the definitions above and the helpers every figure
-- uses, a right matching a search among them), campaign figures (…0910), the RSSI tallies (…0920) and risk sets
-- (…0930), the RSSI dashboard (…0940) and its trends (…0950), the compliance page (…0960), the audit page (…0970) and
-- the evidence pack (…0980).

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

-- The rights of the application and account type asked for (null = any) that a search's terms (private.search_terms)
-- match: private.rights_in_scope's three criteria, each an equality on a term, so that under row-level security they
-- are index conditions (role name, holder, application). Inlined into the caller's query as rights_in_scope is (its
-- body SQL-standard, no SET), so that the caller's joins and order apply to the scan.
create function private.rights_matching_terms(
  p_roles text[], p_holders uuid[], p_applications uuid[], p_application_id uuid, p_account_type public.account_type
) returns table (
  id uuid, user_id uuid, application_id uuid, campaign_id uuid, status public.right_status, last_used_at timestamptz
)
language sql stable
begin atomic
  select ur.id, ur.user_id, ur.application_id, ur.campaign_id, ur.status, ur.last_used_at
    from public.user_rights ur
   where (p_application_id is null or ur.application_id = p_application_id)
     and (p_account_type is null or ur.account_type = p_account_type)
     and (ur.role_name = any (p_roles) or ur.user_id = any (p_holders) or ur.application_id = any (p_applications));
end;

-- How the export and the count apply a search to the rights. A search matching few rights (up to 10,000) reads just
-- those, found through private.rights_matching and then the primary key; one matching more tests each right against
-- the same three criteria (role name, holder, application name) as it reads them, rather than building a long list
-- first. Returns the short list of the rights the search matches, or null when they are too many to list. Both give
-- the same rights; the limit is the setting recertif.search_list_max when set (the tests lower it to exercise both
-- paths on a small dataset). The dashboard and the trends, which read every right in scope, find them by index from
-- private.search_terms instead. Called with a search only (private.search_pattern's, not null).
create function private.rights_matching_if_few(p_pattern text) returns uuid[]
language plpgsql stable
set search_path = ''
as $$
declare
  v_max integer := coalesce(nullif(current_setting('recertif.search_list_max', true), '')::integer, 10000);
  v_matches uuid[];
begin
  if p_pattern is null then
    raise exception 'private.rights_matching_if_few needs a search.' using errcode = '22004';
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
-- private.rights_matching_if_few's answer for the same pattern: the short list of the rights it matches, read by
-- primary key, or null to test each right as it is read (and for no search). (private.rights_matching lists the same three criteria as separate
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

-- Run as the caller by the functions below (the export names statuses in French).
grant execute on function
  private.require_rssi(),
  private.search_pattern(text),
  private.percent(bigint, bigint),
  private.rate_level(integer),
  private.day_window(date, date, text),
  private.require_application(uuid),
  private.rights_matching(text, bigint),
  private.rights_matching_if_few(text),
  private.search_terms(text),
  private.rights_matching_terms(text[], uuid[], uuid[], uuid, public.account_type),
  private.rights_in_scope(text, uuid[], uuid, public.account_type),
  private.right_status_label(public.right_status)
  to authenticated;
