-- The audit page: the events matching its filters and search, their count, and the filters' choices. The search
-- reads private.audit_search (20261121000300_audit.sql), which only the owner reads: the two helpers below find the
-- matching ids as the owner and the page reads them under row-level security.

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

-- Run as the caller by the audit page's functions below.
grant execute on function
  private.audit_matching(text, bigint),
  private.audit_matching_page(text, uuid, boolean, text, timestamptz, timestamptz, timestamptz, bigint, integer, integer)
  to authenticated;

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

revoke execute on function
  public.rssi_audit_events(text, uuid, text, date, date, text, integer, integer, bigint),
  public.rssi_audit_count(text, uuid, text, date, date, text),
  public.rssi_audit_filters()
  from public, anon;

grant execute on function
  public.rssi_audit_events(text, uuid, text, date, date, text, integer, integer, bigint),
  public.rssi_audit_count(text, uuid, text, date, date, text),
  public.rssi_audit_filters()
  to authenticated;
