-- Notifications (ARCHITECTURE §5b): an outbox of e-mails to send, written by the database in
-- the same transaction as the event that calls for them, so that no event is without its message and no message
-- without its event. A scheduled function (netlify/functions/notifications-dispatch.ts) claims due messages with the
-- service role, sends them by SMTP and records each attempt here; the same pass asks run_notification_schedule for the
-- time-driven messages (reminders before the end date, escalation after it).
--
-- What is sent, and to whom:
--   campaign_started   each reviewer with items waiting at the start (holders and managers), their count, the end date
--   stage_digest       the next reviewer of items reaching a stage (BPO Métier, BPO Groupe, RA): one per day at most
--   reminder           reviewers with undecided items, on each of the campaign's reminder_days before its end date
--   escalation         after the end date and its delay: each late reviewer's own manager and the campaign's creator, once
--   campaign_decided   the campaign's creator, once no item waits for a review decision
--   delegation         the person a reviewer's items are delegated or reassigned to, once per delegation
-- Each message has a dedupe key, unique: a second event of the same day, a second run of the schedule or two runs at
-- once add nothing (or, for a day's digest not yet sent, raise its count).

-- Each campaign's settings (notifications_enabled, reminders_enabled, reminder_days, escalation_delay_days) are its
-- columns (20261121000500_campaigns.sql).

-- ─── The outbox ─────────────────────────────────────────────────────────────────────────────────────────────────
-- 'invitation': a person asked to set their password (invitation_emails, 20261121001200_directory_sync.sql).
-- 'delegation': the person a reviewer's items were delegated or reassigned to (private.notify_delegation, below).
create type public.notification_kind as enum (
  'campaign_started', 'stage_digest', 'reminder', 'escalation', 'campaign_decided', 'invitation', 'delegation'
);
create type public.notification_status as enum ('queued', 'sending', 'sent', 'failed');

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  -- The address is copied when the message is written: the message goes where the person was reachable then, and a
  -- deleted profile leaves its message (and its history) behind.
  recipient_id uuid references public.users (id) on update cascade on delete set null,
  recipient_email text not null,
  kind public.notification_kind not null,
  campaign_id uuid references public.campaigns (id) on delete cascade,
  -- What the text says (names, counts, dates), rendered by the function: no markup is stored.
  payload jsonb not null default '{}',
  dedupe_key text not null,
  status public.notification_status not null default 'queued',
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default private.clock(),
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default private.clock(),
  updated_at timestamptz not null default private.clock(),
  constraint notifications_dedupe_key unique (dedupe_key),
  constraint notifications_attempts_positive check (attempts >= 0),
  constraint notifications_last_error_length check (char_length(last_error) <= 1000)
);
alter table public.notifications enable row level security;

-- The claim reads the due messages in order; the admin page lists by status, newest first; a campaign's messages.
create index notifications_due_idx on public.notifications (next_attempt_at) where status in ('queued', 'sending');
create index notifications_status_created_idx on public.notifications (status, created_at desc);
create index notifications_campaign_id_idx on public.notifications (campaign_id);
create index notifications_recipient_id_idx on public.notifications (recipient_id);

create trigger notifications_set_updated_at
  before update on public.notifications
  for each row execute function private.set_updated_at();

-- Admin and rssi read the outbox (failures are theirs to see); nobody writes it through the API: only the
-- security-definer code below does.
create policy "Admins and the RSSI may read the outbox" on public.notifications
  for select to authenticated
  using ((select private.is_admin_or_rssi()));

revoke all on public.notifications from anon, authenticated, service_role;
grant select on public.notifications to authenticated, service_role;

-- How many tries before a message is given up (status failed, shown to admins), and the longest wait between two.
-- With the first retry after 5 minutes and the wait doubling, 8 tries span about 10 hours: an SMTP server down for an
-- hour loses nothing.
create function private.notification_max_attempts() returns integer
language sql immutable
set search_path = ''
as $$ select 8 $$;

-- ─── Who waits on what ──────────────────────────────────────────────────────────────────────────────────────────
-- The reviewers with items waiting for their decision in the given campaigns, per stage: what each one's own queue
-- holds there (private.stage_deciders, the queue's rule for everybody at once: the holder of role user on a pending
-- right, the manager, BPO Métier and BPO Groupe whose stage it waits at, active, not holding it, not having answered
-- another stage of it), so that a mail's count is what Mes revues shows them (tests/db/review-counts.test.ts). The
-- RA, who treats refusals after the end date too, is neither reminded nor late. Only active profiles: a leaver
-- receives nothing.
create function private.waiting_reviewers(p_campaign_ids uuid[])
returns table (campaign_id uuid, reviewer_id uuid, reviewer_email text, reviewer_name text, reviewer_manager_id uuid, total bigint, counts jsonb)
language sql stable
set search_path = ''
as $$
  with per_stage as (
    select d.campaign_id, d.reviewer_id, d.stage::text as stage, count(*) as n
      from private.stage_deciders(p_campaign_ids) d
     where d.reviewer_id is not null and d.stage <> 'ra'
     group by d.campaign_id, d.reviewer_id, d.stage
  )
  select s.campaign_id, u.id, u.email, u.first_name || ' ' || u.last_name, u.manager_id, sum(s.n)::bigint,
         jsonb_object_agg(s.stage, s.n)
    from per_stage s
    join public.users u on u.id = s.reviewer_id and u.active
   group by s.campaign_id, u.id
$$;

-- Adds two {stage: count} objects key by key: a day's digest not yet sent grows with the day's later moves.
-- This and the next are PL/pgSQL rather than SQL: a decision calls them, and a SQL function with its own search_path
-- is parsed and planned anew at every call, a PL/pgSQL one once per session.
create function private.add_counts(p_a jsonb, p_b jsonb) returns jsonb
language plpgsql immutable
set search_path = ''
as $$
begin
  return (
    select coalesce(jsonb_object_agg(k, coalesce((p_a ->> k)::bigint, 0) + coalesce((p_b ->> k)::bigint, 0)), '{}'::jsonb)
      from (select jsonb_object_keys(coalesce(p_a, '{}')) union select jsonb_object_keys(coalesce(p_b, '{}'))) as keys (k)
  );
end;
$$;

-- An event replayed at a past date (the demo seed's story, private.clock()) tells nobody: its messages would be stale.
create function private.notifications_live() returns boolean
language plpgsql stable
set search_path = ''
as $$
begin
  return private.clock() = pg_catalog.now();
end;
$$;

-- ─── Campaign started ───────────────────────────────────────────────────────────────────────────────────────────
-- The start writes one row here, in its own transaction, so that no start goes untold; the next pass
-- (run_notification_schedule, below, which the delivery runs before it claims) turns it into one message per reviewer
-- with items waiting, their count and the end date, and removes it. Writing those 10,000 messages and more (one per
-- holder and manager) inside the start cost the start of a 200,000-right campaign about a second (docs/performance.md).
-- Nobody but the owner's code reads or writes it.
create table private.campaign_start_notices (
  campaign_id uuid primary key references public.campaigns (id) on delete cascade,
  created_at timestamptz not null default private.clock()
);
alter table private.campaign_start_notices enable row level security;
revoke all on private.campaign_start_notices from public, anon, authenticated, service_role;

-- Runs only on a start with notifications on (the trigger's condition), and not for an event replayed at a past date.
create function private.notify_campaign_started() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.notifications_live() then
    return null;
  end if;
  insert into private.campaign_start_notices (campaign_id) values (new.id)
  on conflict (campaign_id) do nothing;
  return null;
end;
$$;


-- ─── Items reaching a stage, and a campaign fully decided ────────────────────────────────────────────────────────
-- The next reviewer of each item that changed status gets the day's digest, one per reviewer, campaign and day (Paris
-- time), and a campaign with nothing left to review tells its creator, once. A decision does both for its one item
-- (private.apply_decision_effects); every other statement that moves items (Terminer moves a whole campaign's) does it
-- through notify_items_moved, the trigger of campaign_items (20261121001155_effects.sql). Neither tells anybody of an
-- event replayed at a past date.

-- p_moved: [{ campaign_id, reviewer_id, stage, n }], the items that reached a reviewer's stage, counted.
create function private.queue_stage_digests(p_moved jsonb) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_day date := (private.clock() at time zone 'Europe/Paris')::date;
begin
  insert into public.notifications (recipient_id, recipient_email, kind, campaign_id, payload, dedupe_key)
  select u.id, u.email, 'stage_digest', c.id,
         jsonb_build_object('campaign_name', c.name, 'end_date', c.end_date, 'recipient_name', u.first_name || ' ' || u.last_name,
                            'day', v_day, 'count', sum(s.n), 'counts', jsonb_object_agg(s.stage, s.n)),
         'stage_digest:' || c.id || ':' || u.id || ':' || v_day
    from jsonb_to_recordset(p_moved) as s (campaign_id uuid, reviewer_id uuid, stage text, n bigint)
    join public.campaigns c on c.id = s.campaign_id and c.notifications_enabled and c.status in ('active', 'completed')
    join public.users u on u.id = s.reviewer_id and u.active
   group by c.id, u.id
  on conflict (dedupe_key) do update
     set payload = public.notifications.payload || jsonb_build_object(
           'count', (public.notifications.payload ->> 'count')::bigint + (excluded.payload ->> 'count')::bigint,
           'counts', private.add_counts(public.notifications.payload -> 'counts', excluded.payload -> 'counts'))
   where public.notifications.status = 'queued';
end;
$$;

-- Fully decided: nothing waits for a reviewer (what Terminer would send to the RA is empty).
-- No JIT: the check is estimated over the campaign's whole items (hundreds of thousands of rows at ten times the large
-- dataset), so the planner compiled it on every decision: about 23 ms of a 41 ms decision, for a query that reads a
-- handful of rows.
create function private.notify_campaigns_decided(p_campaign_ids uuid[]) returns void
language plpgsql security definer
set search_path = ''
set jit = off
as $$
begin
  insert into public.notifications (recipient_id, recipient_email, kind, campaign_id, payload, dedupe_key)
  select u.id, u.email, 'campaign_decided', c.id,
         jsonb_build_object('campaign_name', c.name, 'end_date', c.end_date, 'recipient_name', u.first_name || ' ' || u.last_name,
                            'count', (select count(*) from public.campaign_items i where i.campaign_id = c.id)),
         'campaign_decided:' || c.id
    from public.campaigns c
    join public.users u on u.id = c.created_by and u.active
   where c.id = any (p_campaign_ids) and c.status = 'active' and c.notifications_enabled
     and not exists (
       select 1 from public.campaign_items i
        where i.campaign_id = c.id
          and (i.status in ('pending', 'validated_user', 'validated_manager')
               or (i.status = 'validated_bpo_metier' and i.bpo_groupe_id is not null))
     )
  on conflict (dedupe_key) do nothing;
end;
$$;

revoke execute on function private.queue_stage_digests(jsonb), private.notify_campaigns_decided(uuid[]) from public;

-- Once per statement over its transition tables. PostgreSQL allows no column list on a trigger with transition tables,
-- so the rows whose status did not change are filtered here. No JIT either: a completion's pairing of old and new rows
-- is estimated at millions of rows.
create function private.notify_items_moved() returns trigger
language plpgsql security definer
set search_path = ''
set jit = off
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = changed_from, newtable = changed_to
declare
  v_moved jsonb;
  v_campaigns uuid[];
  -- The states in which an item waits for the BPO Métier, the BPO Groupe or the RA: only these make a digest (a
  -- holder's validation, which goes to the manager, does not).
  v_reaching constant public.right_status[] := array(
    select s from unnest(enum_range(null::public.right_status)) s
     where private.awaited_stage(s) in ('bpo_metier', 'bpo_groupe', 'ra')
  );
begin
  if not private.notifications_live() then
    return null;
  end if;

  if exists (select 1 from changed_to n where n.status = any (v_reaching)) then
    -- The items that changed status, counted per campaign, next reviewer and stage. Planned at each call (EXECUTE),
    -- with the transition tables' real sizes: the plan a session kept from a one-item statement paired the old and new
    -- rows by a nested loop, so that a completion on the same connection afterwards compared every item with every
    -- other (48 s for 15,000 items at a tenth of the large dataset).
    execute $sql$
    select coalesce(jsonb_agg(jsonb_build_object('campaign_id', s.campaign_id, 'reviewer_id', s.reviewer_id,
                                                 'stage', s.stage, 'n', s.n)), '[]')
      from (
        select m.campaign_id,
               private.stage_reviewer(m.stage, null, m.bpo_metier_id, m.bpo_groupe_id, m.ra_id) as reviewer_id,
               m.stage,
               sum(m.n) as n
          from (
            select n.campaign_id, private.awaited_stage(n.status) as stage, n.bpo_metier_id, n.bpo_groupe_id, n.ra_id,
                   count(*) as n
              from changed_to n
              join changed_from o on o.id = n.id
             where n.status is distinct from o.status
               and n.status = any ($1)
             group by 1, 2, 3, 4, 5
          ) m
         group by 1, 2, 3
      ) s
     where s.reviewer_id is not null
    $sql$ into v_moved using v_reaching;
    perform private.queue_stage_digests(v_moved);
  end if;

  v_campaigns := array(select distinct n.campaign_id from changed_to n);
  perform private.notify_campaigns_decided(v_campaigns);
  return null;
end;
$$;


-- ─── The time-driven pass ───────────────────────────────────────────────────────────────────────────────────────
-- The pass's start messages (run_notification_schedule, below): the start notices taken, one message per reviewer with
-- items waiting at the first stage of each campaign still running with notifications on. Returns how many were queued.
create function private.queue_start_messages(p_now timestamptz) returns bigint
language plpgsql security definer
set search_path = ''
as $$
declare
  v_queued bigint;
begin
  -- Two passes at once: the second waits for the first's deletion and then finds nothing (and the dedupe key holds).
  with told as (
    delete from private.campaign_start_notices s
    returning s.campaign_id
  ),
  started as (
    select c.id, c.name, c.end_date
      from public.campaigns c
      join told t on t.campaign_id = c.id
     where c.status = 'active' and c.notifications_enabled
  )
  insert into public.notifications (recipient_id, recipient_email, kind, campaign_id, payload, dedupe_key, next_attempt_at)
  select w.reviewer_id, w.reviewer_email, 'campaign_started', s.id,
         jsonb_build_object('campaign_name', s.name, 'end_date', s.end_date, 'recipient_name', w.reviewer_name,
                            'count', f.total, 'counts', f.counts),
         'campaign_started:' || s.id || ':' || w.reviewer_id,
         -- Due in this pass, whatever "now" it was given, and in any later one.
         least(coalesce(p_now, now()), private.clock())
    from started s
    join private.waiting_reviewers((select array_agg(id) from started)) w on w.campaign_id = s.id
    -- The start's first stage only (holders and managers): an item decided since then and waiting for BPO Métier or
    -- BPO Groupe reaches them by the day's digest.
   cross join lateral (
     select coalesce((w.counts ->> 'user')::bigint, 0) + coalesce((w.counts ->> 'manager')::bigint, 0) as total,
            w.counts - array['bpo_metier', 'bpo_groupe'] as counts
   ) f
   where f.total > 0
  on conflict (dedupe_key) do nothing;
  get diagnostics v_queued = row_count;
  return v_queued;
end;
$$;

-- The pass's reminders (run_notification_schedule, below) among p_active, the running campaigns with notifications on:
-- once per reviewer and latest reminder day reached on p_today. Returns how many were queued.
create function private.queue_reminders(p_active uuid[], p_today date) returns bigint
language plpgsql security definer
set search_path = ''
as $$
declare
  v_queued bigint;
begin
  with due as (
    select c.id, c.name, c.end_date, t.threshold
      from public.campaigns c
     cross join lateral (
       select min(d) as threshold from unnest(c.reminder_days) as d
        where c.end_date - d <= p_today and c.end_date - d >= c.start_date
     ) t
     where c.id = any (p_active) and c.reminders_enabled and p_today <= c.end_date and t.threshold is not null
  )
  insert into public.notifications (recipient_id, recipient_email, kind, campaign_id, payload, dedupe_key)
  select w.reviewer_id, w.reviewer_email, 'reminder', d.id,
         jsonb_build_object('campaign_name', d.name, 'end_date', d.end_date, 'recipient_name', w.reviewer_name,
                            'days_left', d.end_date - p_today, 'count', w.total, 'counts', w.counts),
         'reminder:' || d.id || ':' || w.reviewer_id || ':' || d.threshold
    from due d
    join private.waiting_reviewers((select array_agg(id) from due)) w on w.campaign_id = d.id
  on conflict (dedupe_key) do nothing;
  get diagnostics v_queued = row_count;
  return v_queued;
end;
$$;

-- The pass's escalations (run_notification_schedule, below) among p_active, the running campaigns with notifications
-- on, once their end date and delay have passed on p_today: to each late reviewer's manager and to the campaign's
-- creator, once per campaign. Returns how many were queued.
create function private.queue_escalations(p_active uuid[], p_today date) returns bigint
language plpgsql security definer
set search_path = ''
as $$
declare
  v_queued bigint;
begin
  with overdue as (
    select c.id, c.created_by from public.campaigns c
     where c.id = any (p_active) and c.end_date + c.escalation_delay_days < p_today
  ),
  -- Each right waiting in a reviewer's own queue, the RA's aside (private.stage_deciders, as waiting_reviewers counts
  -- them), read once for both the late reviewers' counts and the rights each recipient hears of.
  waiting as materialized (
    select d.campaign_id, d.right_id, d.reviewer_id
      from private.stage_deciders(array(select o.id from overdue o)) d
     where d.reviewer_id is not null and d.stage <> 'ra'
  ),
  late as (
    select w.campaign_id, u.id as reviewer_id, u.first_name || ' ' || u.last_name as reviewer_name,
           u.manager_id as reviewer_manager_id, count(*) as total, o.created_by
      from waiting w
      join public.users u on u.id = w.reviewer_id and u.active
      join overdue o on o.id = w.campaign_id
     group by w.campaign_id, u.id, o.created_by
  ),
  told as (
    select l.campaign_id, l.reviewer_manager_id as recipient_id, l.reviewer_id, l.reviewer_name, l.total from late l
     where l.reviewer_manager_id is not null
    union
    select l.campaign_id, l.created_by, l.reviewer_id, l.reviewer_name, l.total from late l
     where l.created_by is not null
  ),
  per_recipient as (
    select t.campaign_id, t.recipient_id, count(*) as reviewers,
           -- The 20 with most left; the counts cover them all.
           (array_agg(jsonb_build_object('name', t.reviewer_name, 'count', t.total) order by t.total desc, t.reviewer_name))[1:20] as late
      from told t
     group by t.campaign_id, t.recipient_id
  ),
  -- One right that waits for a holder and their manager, both late, is one right to whoever hears of both.
  rights as (
    select t.campaign_id, t.recipient_id, count(distinct w.right_id) as total
      from told t
      join waiting w on w.campaign_id = t.campaign_id and w.reviewer_id = t.reviewer_id
     group by t.campaign_id, t.recipient_id
  )
  insert into public.notifications (recipient_id, recipient_email, kind, campaign_id, payload, dedupe_key)
  select u.id, u.email, 'escalation', c.id,
         jsonb_build_object('campaign_name', c.name, 'end_date', c.end_date, 'recipient_name', u.first_name || ' ' || u.last_name,
                            'days_late', p_today - c.end_date, 'reviewers', p.reviewers, 'count', r.total,
                            'late', to_jsonb(p.late)),
         'escalation:' || c.id || ':' || u.id
    from per_recipient p
    join rights r on r.campaign_id = p.campaign_id and r.recipient_id = p.recipient_id
    join public.campaigns c on c.id = p.campaign_id
    join public.users u on u.id = p.recipient_id and u.active
  on conflict (dedupe_key) do nothing;
  get diagnostics v_queued = row_count;
  return v_queued;
end;
$$;

revoke execute on function private.queue_start_messages(timestamptz), private.queue_reminders(uuid[], date),
  private.queue_escalations(uuid[], date) from public;

-- Called by the scheduled function at each run with the time it runs at (tests pass any "now"). Enqueues:
--   the starts' messages: for each campaign started since the last pass (campaign_start_notices) and still running
--     with notifications on, one message per reviewer with items waiting now, their count and the end date, due in
--     this pass; the notice goes either way;
--   reminders: for each active campaign with reminders on, the latest of its reminder_days reached (end_date − d ≤
--     today ≤ end_date), once per reviewer and threshold: a pass missed for days sends one reminder, not three; a day
--     that falls before the start date is never reached;
--   escalation: once the end date and the campaign's escalation_delay_days have passed, to each late reviewer's
--     manager (their late reports) and to the campaign's creator (every late reviewer), once per campaign and
--     recipient, with the rights waiting for them, each counted once however many of them it waits for.
-- It also gives up messages left "sending" by a run that died after its last allowed try. Idempotent: running it
-- twice, or twice at once, adds nothing the second time (the dedupe key).
create function public.run_notification_schedule(p_now timestamptz default now())
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_today date := (coalesce(p_now, now()) at time zone 'Europe/Paris')::date;
  v_active uuid[];
  v_started bigint;
  v_reminders bigint;
  v_escalations bigint;
  v_abandoned bigint;
begin
  v_started := private.queue_start_messages(p_now);

  select coalesce(array_agg(c.id), '{}') into v_active
    from public.campaigns c
   where c.status = 'active' and c.notifications_enabled;

  v_reminders := private.queue_reminders(v_active, v_today);
  v_escalations := private.queue_escalations(v_active, v_today);

  update public.notifications n
     set status = 'failed', last_error = coalesce(n.last_error, 'Envoi interrompu')
   where n.status = 'sending' and n.next_attempt_at <= coalesce(p_now, now())
     and n.attempts >= private.notification_max_attempts();
  get diagnostics v_abandoned = row_count;

  return jsonb_build_object('started', v_started, 'reminders', v_reminders, 'escalations', v_escalations,
                            'abandoned', v_abandoned);
end;
$$;

-- ─── Delivery ───────────────────────────────────────────────────────────────────────────────────────────────────
-- Claims up to p_limit due messages for one run: locked rows are skipped, so two runs at once never claim the same
-- message. A claimed message is "sending" with its attempt counted, and due again 15 minutes later (longer than any
-- run) only if the run died before recording the outcome.
create function public.claim_notifications(p_limit integer default 50, p_now timestamptz default now())
returns setof public.notifications
language sql security definer
set search_path = ''
as $$
  with picked as (
    select n.id
      from public.notifications n
     where n.status in ('queued', 'sending')
       and n.next_attempt_at <= coalesce(p_now, now())
       and n.attempts < private.notification_max_attempts()
       -- A leaver's invitation waits unsent: its link would make them an account. Reactivated, they get it.
       and (n.kind <> 'invitation' or exists (select 1 from public.users u where u.id = n.recipient_id and u.active))
     -- Reviewers' messages first: the thousands of invitations of a first import must not hold a campaign's back.
     order by n.kind = 'invitation', n.next_attempt_at
     limit least(greatest(coalesce(p_limit, 50), 1), 500)
     for update skip locked
  )
  update public.notifications n
     set status = 'sending',
         attempts = n.attempts + 1,
         next_attempt_at = coalesce(p_now, now()) + interval '15 minutes'
    from picked
   where n.id = picked.id
  returning n.*
$$;

-- Records one attempt's outcome: sent, or failed and due again after a wait that doubles (5 min, 10 min, … at most
-- 6 h), or given up (status failed) after the last allowed try. Only a message being sent is changed: a late answer
-- for a message another run has since taken over changes nothing. Returns the status recorded, or null.
create function public.finish_notification(p_id uuid, p_ok boolean, p_error text default null, p_now timestamptz default now())
returns public.notification_status
language sql security definer
set search_path = ''
as $$
  update public.notifications n
     set status = case
           when p_ok then 'sent'
           when n.attempts >= private.notification_max_attempts() then 'failed'
           else 'queued'
         end::public.notification_status,
         sent_at = case when p_ok then coalesce(p_now, now()) end,
         last_error = case when p_ok then null else left(coalesce(nullif(btrim(p_error), ''), 'Erreur inconnue'), 1000) end,
         next_attempt_at = case
           when p_ok then n.next_attempt_at
           else coalesce(p_now, now()) + least(interval '5 minutes' * power(2, greatest(n.attempts - 1, 0)), interval '6 hours')
         end
   where n.id = p_id and n.status = 'sending'
  returning n.status
$$;

-- "Envoyer maintenant" (admin, rssi): every message not sent is due at once, the given-up ones with their tries
-- counted afresh. The notifications-send function calls it with the admin's own token, which is also how it knows
-- the caller may ask, and then delivers with the service role. Audited. Returns how many messages are due.
create function public.requeue_notifications()
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  if not private.is_admin_or_rssi() then
    raise exception 'Seuls les administrateurs et le RSSI peuvent relancer l''envoi des notifications.' using errcode = '42501';
  end if;
  update public.notifications n
     set status = 'queued',
         attempts = case when n.status = 'failed' then 0 else n.attempts end,
         next_attempt_at = now()
   where n.status in ('queued', 'failed');
  get diagnostics v_count = row_count;
  perform private.write_audit('requeue_notifications', 'notifications', null, jsonb_build_object('messages', v_count));
  return v_count;
end;
$$;

revoke execute on function private.notification_max_attempts(), private.waiting_reviewers(uuid[]),
  private.add_counts(jsonb, jsonb), private.notifications_live(), private.notify_campaign_started(),
  private.notify_items_moved() from public;
revoke execute on function public.run_notification_schedule(timestamptz), public.claim_notifications(integer, timestamptz),
  public.finish_notification(uuid, boolean, text, timestamptz), public.requeue_notifications()
  from public, anon, authenticated, service_role;
grant execute on function public.run_notification_schedule(timestamptz), public.claim_notifications(integer, timestamptz),
  public.finish_notification(uuid, boolean, text, timestamptz) to service_role;
grant execute on function public.requeue_notifications() to authenticated;

-- ─── Items delegated ────────────────────────────────────────────────────────────────────────────────────────────
-- The person who receives a reviewer's items, delegated by the reviewer or reassigned by an administrator or the RSSI
-- (review_delegations, 20261121000750_delegations.sql), is told once: by whom, whose items at which stage, all of them
-- or how many chosen, until when, and how many wait for their decision now. The trigger is in
-- 20261121001155_effects.sql.

-- How many rights the delegation puts in its delegate's queue now: the rows private.acting_verdicts gives the delegate
-- for it with a decision open, under the same rules (the delegator's stage and scope, neither of them holding the
-- right, four eyes, waiting at that stage, the campaign running but for the RA), so that the mail and Mes revues agree
-- (tests/db/notifications.test.ts compares them).
create function private.delegated_waiting_count(p_delegation public.review_delegations) returns bigint
language sql stable
set search_path = ''
as $$
  select count(distinct ur.id)
    from public.users delegator
    cross join lateral (select private.review_stage_for(delegator.role) as stage) s
    join public.campaigns c on c.id = p_delegation.campaign_id
    join public.campaign_items i on i.campaign_id = c.id
    join public.user_rights ur on ur.id = i.right_id and ur.campaign_id = i.campaign_id
    join public.users h on h.id = ur.user_id
    join public.applications a on a.id = ur.application_id
   where delegator.id = p_delegation.delegator_id and delegator.active
     and s.stage <> 'user'
     and (p_delegation.item_ids is null or i.id = any (p_delegation.item_ids))
     and delegator.id in (h.manager_id, a.bpo_metier_id, a.bpo_groupe_id, a.ra_id)
     and ur.user_id not in (p_delegation.delegate_id, delegator.id)
     and private.reviews_at(s.stage, delegator.id, ur.user_id, h.manager_id, a.bpo_metier_id, a.bpo_groupe_id, a.ra_id)
     and ur.status = any (private.waiting_states(s.stage))
     and (s.stage = 'ra' or c.status = 'active')
     and private.answered_other_stage(ur.id, c.id, array[p_delegation.delegate_id, delegator.id], s.stage) is null
$$;

-- One message to the delegate, if still active, of a campaign whose notifications are on; none for a delegation
-- replayed at a past date. assigned_by_name is set when someone other than the delegator (a reassignment) created it.
create function private.notify_delegation() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.notifications_live() then
    return null;
  end if;
  insert into public.notifications (recipient_id, recipient_email, kind, campaign_id, payload, dedupe_key)
  select e.id, e.email, 'delegation', c.id,
         jsonb_build_object(
           'campaign_name', c.name, 'end_date', c.end_date, 'recipient_name', e.first_name || ' ' || e.last_name,
           'delegator_name', g.first_name || ' ' || g.last_name,
           'assigned_by_name', case when new.created_by is distinct from new.delegator_id then b.first_name || ' ' || b.last_name end,
           'stage', private.review_stage_for(g.role), 'items', cardinality(new.item_ids), 'ends_on', new.ends_on,
           'reason', new.reason, 'count', private.delegated_waiting_count(new)
         ),
         'delegation:' || new.id
    from public.campaigns c
    join public.users e on e.id = new.delegate_id and e.active
    join public.users g on g.id = new.delegator_id
    left join public.users b on b.id = new.created_by
   where c.id = new.campaign_id and c.notifications_enabled
  on conflict (dedupe_key) do nothing;
  return null;
end;
$$;

revoke execute on function private.delegated_waiting_count(public.review_delegations), private.notify_delegation() from public;

-- The admin page lists every message newest first, a page at a time (src/features/notifications/api).
create index notifications_created_idx on public.notifications (created_at desc, id);
