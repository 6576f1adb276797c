-- The RSSI dashboard's risk sets: the holders of incompatible roles and of duplicate rights, kept up to date with the
-- rights and the control rules (their triggers are in 20261121001155_effects.sql), and what the dashboard reads of
-- them.

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
