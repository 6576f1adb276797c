-- Live updates (SPEC §7): the database tells each audience that something it shows changed, on private Broadcast
-- topics (realtime.send), once per transaction and audience: never once per row, never once per subscriber, and on
-- the audiences many people watch at once at most once a second. Realtime checks who may join a topic once, at the
-- join, against the policy below; after that a message costs the same to one subscriber or ten thousand. The payload
-- names only the kinds of data that changed ({"kinds": ["user_rights"]}), never a row: the screen refetches what it
-- shows, under row-level security.
--
-- Topics:
--   user:<id>       a person: their rights, their review queue, what is delegated to them, their profile;
--   campaign:<id>   a campaign's progress: its administrators, the security officer and its reviewers;
--   admin, rssi     the administrators' and the security officer's views (campaigns, people, applications, control
--                   rules, the audit trail, the dashboards).
-- The supabase_realtime publication (20261121001000_realtime.sql) stays for postgres_changes clients; the SPA no
-- longer subscribes to it.

-- ─── Who may join a topic ────────────────────────────────────────────────────────────────────────────────────────

-- Whether the caller may receive a topic's messages: their own person topic; admin's and rssi's topics for their
-- role; a campaign's for admin, rssi and the people with an item of it to hold or review. A deactivated person
-- receives nothing. Read once per join (Realtime's authorization), so the campaign test may read the campaign's items.
create function private.may_receive_topic(p_topic text) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
declare
  me public.users;
  campaign uuid;
begin
  select * into me from public.users u where u.id = (select auth.uid()) and u.active;
  if me.id is null or p_topic is null then
    return false;
  end if;
  if p_topic = 'user:' || me.id::text then
    return true;
  elsif p_topic in ('admin', 'rssi') then
    return me.role::text = p_topic;
  elsif p_topic !~ '^campaign:[0-9a-f-]{36}$' then
    return false;
  end if;
  campaign := substr(p_topic, 10)::uuid;
  return me.role in ('admin', 'rssi')
      or exists (
           select 1 from public.campaign_items i
            where i.campaign_id = campaign
              and me.id in (i.holder_id, i.manager_id, i.bpo_metier_id, i.bpo_groupe_id, i.ra_id)
         )
      or exists (
           select 1 from public.review_delegations d
            where d.campaign_id = campaign and d.delegate_id = me.id and d.revoked_at is null
         )
      or exists (select 1 from public.campaign_fallback_reviewers f where f.campaign_id = campaign and f.user_id = me.id);
end;
$$;

revoke execute on function private.may_receive_topic(text) from public;
grant execute on function private.may_receive_topic(text) to authenticated;

-- Realtime reads a topic's messages as the joining person to decide whether they may join it. Nobody may send on
-- these topics from a client: there is no insert policy, so a client's broadcast on a private topic is refused.
create policy "People may receive the live updates of their own topics"
  on realtime.messages
  for select
  to authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and (select private.may_receive_topic((select realtime.topic())))
  );

-- ─── Sending: once per transaction and audience, a burst throttled ───────────────────────────────────────────────

-- Each statement adds its audiences and kinds to its transaction's pending announcements (private.announce); they are
-- sent at commit, by a deferred trigger on a marker row that the transaction's first announcement inserts, so that a
-- transaction of many statements sends one message per topic naming every kind it changed, and a rolled-back one
-- (or savepoint) sends nothing of what it undid. The pending set lives in a transaction-local setting: no table to
-- write per topic, and a savepoint's rollback restores it with the marker.
create unlogged table private.live_transactions (
  txid bigint primary key default (pg_current_xact_id()::text::bigint)
);
alter table private.live_transactions enable row level security;
comment on table private.live_transactions is
  'One row per transaction with live updates pending, deleted when they are sent at its commit.';

-- The audiences many people watch at once (the administrators', the security officer's, a campaign's progress) hear
-- at most once a second: a transaction that commits within a second of the topic's last message adds its kinds to
-- the topic's held kinds instead, and the next message on the topic carries them. The screens on such a topic look
-- again a quiet second and a half after joining it and after a message (src/lib/realtime.ts), so that the last change
-- of a burst shows even when nothing follows it.
create table private.live_throttled_topics (
  topic text primary key,
  sent_at timestamptz not null default '-infinity',
  held_kinds text[] not null default '{}'
);
alter table private.live_throttled_topics enable row level security;
comment on table private.live_throttled_topics is
  'When each throttled live topic was last sent a message, and the kinds changed since that it has not been told.';
insert into private.live_throttled_topics (topic) values ('admin'), ('rssi');

-- The least time between two messages on a throttled topic.
create function private.live_throttle_interval() returns interval
language sql immutable
set search_path = ''
as $$ select interval '1 second' $$;

create function private.is_throttled_topic(p_topic text) returns boolean
language sql immutable
set search_path = ''
as $$ select p_topic in ('admin', 'rssi') or p_topic like 'campaign:%' $$;

-- Adds topics and kinds to the transaction's pending announcements, kept as text, one line a statement: its kinds
-- and its topics, separated by spaces. Appending keeps a statement's cost to its own audiences, however many
-- statements the transaction ran before (a file of 2,000 decisions runs 4,000); duplicates go at commit.
create function private.announce(p_topics text[], p_kinds text[]) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_pending text := coalesce(current_setting('live.pending', true), '');
  v_topics text := array_to_string(p_topics, ' ');
begin
  if v_topics = '' or cardinality(p_kinds) = 0 then
    return;
  end if;
  perform set_config('live.pending', v_pending || array_to_string(p_kinds, ',') || ' ' || v_topics || E'\n', true);
  -- After the line: were the constraint made immediate, its trigger would send it at once and the next statement
  -- would insert the marker again.
  if v_pending = '' then
    insert into private.live_transactions default values on conflict do nothing;
  end if;
end;
$$;

-- A throttled topic's message: sent now with the kinds held for it if its last was a second ago or more, else held.
-- The topic's row is locked until commit, so two transactions never both find it due.
create function private.send_throttled(p_topic text, p_kinds text[], p_now timestamptz) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_sent_at timestamptz;
  v_held text[];
  v_kinds text[];
begin
  select t.sent_at, t.held_kinds into v_sent_at, v_held from private.live_throttled_topics t where t.topic = p_topic for update;
  if not found then
    insert into private.live_throttled_topics (topic) values (p_topic) on conflict (topic) do nothing;
    select t.sent_at, t.held_kinds into v_sent_at, v_held from private.live_throttled_topics t where t.topic = p_topic for update;
  end if;
  v_kinds := array(select distinct k from unnest(v_held || p_kinds) k order by k);
  if v_sent_at <= p_now - private.live_throttle_interval() then
    update private.live_throttled_topics t set sent_at = p_now, held_kinds = '{}' where t.topic = p_topic;
    perform realtime.send(jsonb_build_object('kinds', to_jsonb(v_kinds)), 'changed', p_topic, true);
  elsif not v_held @> p_kinds then
    update private.live_throttled_topics t set held_kinds = v_kinds where t.topic = p_topic;
  end if;
end;
$$;

-- At commit: one private message per topic naming the kinds that changed for it. The topics nobody watches in
-- crowds (people's) are inserted in one statement, the rows realtime.send would insert one call each, with its
-- warning in place of an error; the throttled topics come after, in a fixed order: two transactions lock their rows
-- in the same order, and a campaign's start holds the admin and rssi rows (which every decision needs) only after its
-- thousands of person messages are written, not while.
create function private.send_pending_announcements() returns trigger
language plpgsql security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  v_pending text := coalesce(current_setting('live.pending', true), '');
  v_throttled text[];
  v_throttled_kinds jsonb[];
begin
  perform set_config('live.pending', '', true);
  delete from private.live_transactions t where t.txid = new.txid;
  begin
    with pending as (
      -- One row per topic with the kinds it changed, sorted.
      select t.topic, array_agg(distinct k.kind order by k.kind) as kinds, private.is_throttled_topic(t.topic) as throttled
        from (select string_to_array(l.line, ' ') as words
                from unnest(string_to_array(v_pending, E'\n')) l (line) where l.line <> '') s,
             unnest(s.words[2:]) t (topic),
             unnest(string_to_array(s.words[1], ',')) k (kind)
       group by t.topic
    ), sent as (
      insert into realtime.messages (id, payload, event, topic, private, extension)
      select m.id, jsonb_build_object('kinds', to_jsonb(m.kinds), 'id', m.id), 'changed', m.topic, true, 'broadcast'
        from (select gen_random_uuid() as id, p.topic, p.kinds from pending p where not p.throttled) m
    )
    select array_agg(p.topic order by p.topic), array_agg(to_jsonb(p.kinds) order by p.topic)
      into v_throttled, v_throttled_kinds
      from pending p
     where p.throttled;
  exception when others then
    raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
  for i in 1 .. coalesce(cardinality(v_throttled), 0) loop
    perform private.send_throttled(v_throttled[i], array(select jsonb_array_elements_text(v_throttled_kinds[i])), clock_timestamp());
  end loop;
  return null;
end;
$$;

create constraint trigger live_transactions_send_at_commit
  after insert on private.live_transactions
  deferrable initially deferred
  for each row execute function private.send_pending_announcements();

-- The person topics of a set of people. PL/pgSQL keeps its plan from call to call, where a SQL function with its own
-- search_path is planned at every call.
create function private.person_topics(p_people uuid[]) returns text[]
language plpgsql immutable
set search_path = ''
as $$
begin
  return coalesce((select array_agg(distinct 'user:' || p::text) from unnest(p_people) p where p is not null), '{}');
end;
$$;

revoke execute on function private.announce(text[], text[]), private.person_topics(uuid[]),
  private.send_throttled(text, text[], timestamptz), private.send_pending_announcements(),
  private.live_throttle_interval(), private.is_throttled_topic(text)
  from public;

-- ─── What each change tells whom ─────────────────────────────────────────────────────────────────────────────────

-- Rights: their holders, the holders' managers, the applications' BPO Métier, BPO Groupe and RA, those who act for
-- them by delegation and the fallback reviewers of the campaigns concerned; the campaigns; admin and rssi. One call
-- for a statement's rows read in bulk (a campaign's start moves two million rights) or for a decision's one right
-- (private.apply_decision_effects). Its plan is made once per session: a custom plan for each call cost a decision
-- more than running it.
create function private.announce_rights_of(p_holders uuid[], p_applications uuid[], p_campaigns uuid[]) returns void
language plpgsql security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  v_people uuid[];
begin
  with reviewers as (
    select h.manager_id as person from public.users h where h.id = any (p_holders)
    union
    select unnest(array[a.bpo_metier_id, a.bpo_groupe_id, a.ra_id]) from public.applications a
     where a.id = any (p_applications)
  )
  select array_agg(p.person) into v_people
    from (
      select unnest(p_holders) as person
      union select r.person from reviewers r
      union select d.delegate_id from public.review_delegations d
             where d.delegator_id in (select r.person from reviewers r) and d.campaign_id = any (p_campaigns)
               and d.revoked_at is null and d.ends_on >= current_date
      union select f.user_id from public.campaign_fallback_reviewers f where f.campaign_id = any (p_campaigns)
    ) p;

  perform private.announce(
    private.person_topics(v_people)
      || array(select distinct 'campaign:' || c::text from unnest(p_campaigns) c)
      || array['admin', 'rssi'],
    array['user_rights']
  );
end;
$$;

-- A statement's rights, before and after.
create function private.announce_rights_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = live_old_rows, newtable = live_new_rows
declare
  v_holders uuid[] := '{}'::uuid[];
  v_applications uuid[] := '{}'::uuid[];
  v_campaigns uuid[] := '{}'::uuid[];
begin
  if tg_op in ('INSERT', 'UPDATE') then
    select v_holders || array_agg(distinct n.user_id), v_applications || array_agg(distinct n.application_id),
           v_campaigns || coalesce(array_agg(distinct n.campaign_id) filter (where n.campaign_id is not null), '{}')
      into v_holders, v_applications, v_campaigns
      from live_new_rows n;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    select v_holders || array_agg(distinct o.user_id), v_applications || array_agg(distinct o.application_id),
           v_campaigns || coalesce(array_agg(distinct o.campaign_id) filter (where o.campaign_id is not null), '{}')
      into v_holders, v_applications, v_campaigns
      from live_old_rows o;
  end if;
  perform private.announce_rights_of(v_holders, v_applications, array(select distinct c from unnest(v_campaigns) c));
  return null;
end;
$$;

-- People: themselves and their managers, before and after; admin and rssi.
create function private.announce_users_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = live_old_rows, newtable = live_new_rows
declare
  v_people uuid[] := '{}'::uuid[];
begin
  if tg_op in ('INSERT', 'UPDATE') then
    v_people := v_people || array(select unnest(array[n.id, n.manager_id]) from live_new_rows n);
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    v_people := v_people || array(select unnest(array[o.id, o.manager_id]) from live_old_rows o);
  end if;
  perform private.announce(private.person_topics(v_people) || array['admin', 'rssi'], array['users']);
  return null;
end;
$$;

-- Applications: their owners, before and after; admin and rssi.
create function private.announce_applications_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = live_old_rows, newtable = live_new_rows
declare
  v_people uuid[] := '{}'::uuid[];
begin
  if tg_op in ('INSERT', 'UPDATE') then
    v_people := v_people || array(select unnest(array[n.bpo_metier_id, n.bpo_groupe_id, n.ra_id]) from live_new_rows n);
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    v_people := v_people || array(select unnest(array[o.bpo_metier_id, o.bpo_groupe_id, o.ra_id]) from live_old_rows o);
  end if;
  perform private.announce(private.person_topics(v_people) || array['admin', 'rssi'], array['applications']);
  return null;
end;
$$;

-- Campaigns: their own topics; admin and rssi.
create function private.announce_campaigns_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = live_old_rows, newtable = live_new_rows
declare
  v_campaigns uuid[] := '{}'::uuid[];
begin
  if tg_op in ('INSERT', 'UPDATE') then
    v_campaigns := v_campaigns || array(select n.id from live_new_rows n);
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    v_campaigns := v_campaigns || array(select o.id from live_old_rows o);
  end if;
  perform private.announce(array(select 'campaign:' || c::text from unnest(v_campaigns) c) || array['admin', 'rssi'],
                           array['campaigns']);
  return null;
end;
$$;

-- Control rules and the audit trail: admin and rssi only.
create function private.announce_staff_views_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.announce(array['admin', 'rssi'], array[tg_table_name::text]);
  return null;
end;
$$;

revoke execute on function
  private.announce_rights_of(uuid[], uuid[], uuid[]),
  private.announce_rights_changed(),
  private.announce_users_changed(),
  private.announce_applications_changed(),
  private.announce_campaigns_changed(),
  private.announce_staff_views_changed()
  from public;
