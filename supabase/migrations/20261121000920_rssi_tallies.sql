-- The RSSI dashboard's tallies: counts of rights, last uses and decisions kept up to date with the data, so that the
-- dashboard without a search reads them instead of counting 3,000,000 rights. Their triggers are in
-- 20261121001155_effects.sql.

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
