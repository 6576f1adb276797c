-- Review campaigns: draft → active → completed → archived. Only drafts are edited or deleted. Starting a campaign
-- makes its record, one item per in-scope right (campaign_items, below); completing it sends what is still undecided
-- to the RA and freezes that record, and the campaign's rights and decisions with it
-- (20261121000600_rights_and_decisions.sql).

-- How often a campaign comes back (Entra's recurrenceSettings): each occurrence is a campaign of its own, with its own
-- record; the next one is made by the scheduled pass (run_campaign_schedule, below) when its start date comes.
create type public.campaign_recurrence as enum ('quarterly', 'semiannual', 'annual');

create table public.campaigns (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  description text not null default '',
  application_id uuid references public.applications (id) on delete restrict,
  account_type public.account_type,
  start_date date not null,
  end_date date not null,
  status public.campaign_status not null default 'draft',
  created_by uuid default auth.uid() references public.users (id) on update cascade on delete set null,
  recurrence public.campaign_recurrence,
  -- Started by the scheduled pass on its start date rather than by someone's click.
  auto_start boolean not null default false,
  -- The occurrence this one follows; at most one follows each, which makes the scheduled pass safe to run twice.
  previous_occurrence_id uuid references public.campaigns (id) on delete set null,
  created_at timestamptz not null default private.clock(),
  updated_at timestamptz not null default private.clock(),
  -- E-mail settings (Entra's mailNotificationsEnabled, remindersEnabled; 20261121001100_notifications.sql), changeable
  -- while the campaign runs (guard_campaign_update freezes only what the review is about).
  notifications_enabled boolean not null default true,
  reminders_enabled boolean not null default true,
  -- Days before the end date; a day that falls before the start date sends nothing (the start's message tells).
  reminder_days integer[] not null default '{7,3,1}',
  -- Days after the end date before the late reviewers' managers and the creator are told: 0 is the day after it.
  escalation_delay_days integer not null default 0,
  constraint campaigns_one_next_occurrence unique (previous_occurrence_id),
  -- private.check_campaign_reminders says what is wrong in French first; these hold the line whoever writes.
  constraint campaigns_reminder_days_valid check (
    cardinality(reminder_days) <= 10
    and array_position(reminder_days, null) is null
    and 1 <= all (reminder_days) and 365 >= all (reminder_days)
  ),
  constraint campaigns_escalation_delay_valid check (escalation_delay_days between 0 and 30),
  constraint campaigns_name_present check (char_length(btrim(name)) between 1 and 200),
  constraint campaigns_description_length check (char_length(description) <= 2000),
  constraint campaigns_dates_ordered check (end_date >= start_date)
);
alter table public.campaigns enable row level security;

create index campaigns_application_id_idx on public.campaigns (application_id);
create index campaigns_created_by_idx on public.campaigns (created_by);
create index campaigns_status_idx on public.campaigns (status);
create index campaigns_created_at_idx on public.campaigns (created_at desc);

create trigger campaigns_set_updated_at
  before update on public.campaigns
  for each row execute function private.set_updated_at();

create trigger campaigns_audit
  after insert or update or delete on public.campaigns
  for each row execute function private.audit_row_change();

create function private.campaign_status_label(p_status public.campaign_status) returns text
language sql immutable
set search_path = ''
as $$
  select case p_status
    when 'draft' then 'Brouillon'
    when 'active' then 'Active'
    when 'completed' then 'Terminée'
    when 'archived' then 'Archivée'
  end
$$;

-- The guards below run as the caller, and name statuses in their messages.
grant execute on function private.campaign_status_label(public.campaign_status) to authenticated, service_role;

-- A campaign's reminder days and escalation delay, checked with a French message for each mistake (the table's
-- constraints would answer in English): at most 10 days, each from 1 to 365 days before the end date and given once;
-- the escalation from 0 to 30 days after it.
create function private.check_campaign_reminders(p_days integer[], p_delay integer) returns void
language plpgsql immutable
set search_path = ''
as $$
declare
  v_day integer;
begin
  if p_days is null or array_position(p_days, null) is not null then
    raise exception 'Les jours de rappel doivent être des nombres entiers.' using errcode = '23514';
  end if;
  if cardinality(p_days) > 10 then
    raise exception 'Une campagne compte au plus 10 rappels (% demandés).', cardinality(p_days) using errcode = '23514';
  end if;
  foreach v_day in array p_days loop
    if v_day not between 1 and 365 then
      raise exception 'Un rappel est envoyé de 1 à 365 jours avant la date de fin (% demandé).', v_day using errcode = '23514';
    end if;
  end loop;
  select d into v_day from unnest(p_days) d group by d having count(*) > 1 order by d desc limit 1;
  if found then
    raise exception 'Le rappel à % jours avant la fin est donné deux fois.', v_day using errcode = '23514';
  end if;
  if p_delay is null or p_delay not between 0 and 30 then
    raise exception 'Le délai d''escalade est de 0 à 30 jours après la date de fin.' using errcode = '23514';
  end if;
end;
$$;

revoke execute on function private.check_campaign_reminders(integer[], integer) from public;
-- The guards below run as the caller.
grant execute on function private.check_campaign_reminders(integer[], integer) to authenticated, service_role;

create function private.guard_campaign_insert() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status <> 'draft' then
    raise exception 'Une nouvelle campagne est toujours créée en brouillon.' using errcode = '23514';
  end if;
  if auth.uid() is not null then
    new.created_by := auth.uid();
  end if;
  perform private.check_campaign_reminders(new.reminder_days, new.escalation_delay_days);
  return new;
end;
$$;

create trigger campaigns_guard_insert
  before insert on public.campaigns
  for each row execute function private.guard_campaign_insert();

create function private.guard_campaign_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- The creator never changes, except that the foreign key clears it once that person's profile is deleted.
  if new.created_by is distinct from old.created_by
     and current_setting('recertif.relinking_user', true) is distinct from 'on'
     and not (new.created_by is null and not exists (select 1 from public.users u where u.id = old.created_by)) then
    raise exception 'Le créateur d''une campagne ne peut pas être modifié.' using errcode = '42501';
  end if;

  if new.status is distinct from old.status then
    if not ((old.status, new.status) in (('draft', 'active'), ('active', 'completed'), ('completed', 'archived'))) then
      raise exception 'Passage impossible du statut « % » au statut « % ».',
        private.campaign_status_label(old.status), private.campaign_status_label(new.status)
        using errcode = '23514';
    end if;
  end if;

  -- A closed campaign is closed whole: after Terminer nothing of it changes but the move to archived, whoever asks
  -- (its settings included, from which the scheduled pass would make its next occurrence).
  if old.status = any (private.closed_campaign_statuses())
     and (to_jsonb(new) - array['status', 'updated_at', 'created_by']) is distinct from (to_jsonb(old) - array['status', 'updated_at', 'created_by']) then
    raise exception 'La campagne « % » est clôturée : elle ne peut plus être modifiée.', old.name using errcode = '23514';
  end if;

  if old.status <> 'draft' and (
    new.name, new.description, new.application_id, new.account_type, new.start_date, new.end_date
  ) is distinct from (
    old.name, old.description, old.application_id, old.account_type, old.start_date, old.end_date
  ) then
    raise exception 'Seule une campagne en brouillon peut être modifiée.' using errcode = '23514';
  end if;

  if (new.reminder_days, new.escalation_delay_days) is distinct from (old.reminder_days, old.escalation_delay_days) then
    perform private.check_campaign_reminders(new.reminder_days, new.escalation_delay_days);
  end if;
  return new;
end;
$$;

create trigger campaigns_guard_update
  before update on public.campaigns
  for each row execute function private.guard_campaign_update();

-- Security definer: the decisions it looks for are all of them, not those the deleting caller may read.
create function private.guard_campaign_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if old.status <> 'draft' then
    raise exception 'Seule une campagne en brouillon peut être supprimée.' using errcode = '23514';
  end if;
  -- right_decisions.campaign_id has no foreign key (20261121000600_rights_and_decisions.sql): a decision never loses
  -- the campaign it was taken in. A draft has no items, so no decisions either: this holds the line should that change.
  if exists (select 1 from public.right_decisions d where d.campaign_id = old.id) then
    raise exception 'Des décisions ont été prises dans cette campagne : elle ne peut pas être supprimée.' using errcode = '23514';
  end if;
  return old;
end;
$$;

create trigger campaigns_guard_delete
  before delete on public.campaigns
  for each row execute function private.guard_campaign_delete();

create policy "Signed-in people may read campaigns" on public.campaigns
  for select to authenticated
  using (true);

create policy "Admins and the RSSI may create campaigns" on public.campaigns
  for insert to authenticated
  with check ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may update campaigns" on public.campaigns
  for update to authenticated
  using ((select private.is_admin_or_rssi()))
  with check ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may delete campaigns" on public.campaigns
  for delete to authenticated
  using ((select private.is_admin_or_rssi()));

revoke all on public.campaigns from anon, authenticated, service_role;
grant select, insert, delete on public.campaigns to authenticated;
grant update (name, description, application_id, account_type, start_date, end_date, status, recurrence, auto_start, updated_at,
              notifications_enabled, reminders_enabled, reminder_days, escalation_delay_days)
  on public.campaigns to authenticated;
grant select, insert, update, delete on public.campaigns to service_role;

-- ─── The campaign's record: its items ───────────────────────────────────────────────────────────────────────────
-- Starting a campaign makes one item per right it reviews: a copy of what is reviewed (the holder, their manager, the
-- application and its owners, the role, the account type, the dates and the justification), as it stood when the
-- right entered the campaign, and the item's own status in this campaign. The campaign's figures and Excel files are
-- read from its items, so a later campaign that takes the same rights over (user_rights.campaign_id, the inventory's
-- "latest campaign") leaves them as they were. The ids are copies too, not foreign keys: an item outlives its right,
-- its holder and its application, as the decisions do. Its campaign is no foreign key either: the freeze's insert
-- check below refuses, once per statement, an item whose campaign is not running (or does not exist), where a foreign
-- key checked each of a start's 200,000 items on its own (about half a second); and a campaign that has items is never
-- deleted (only a draft is, and a draft has none), so there is nothing to cascade.
-- While the campaign runs, its items follow the workflow (validate_user_right sets the right's status and its item's
-- in one transaction), a right added to it brings its item, a right deleted from it takes its item along, and a change
-- to what a right is (role, account type, dates, justification) reaches its item. Once it is completed or archived,
-- nothing changes an item any more but the RA's treatment (see the freeze below). No API role writes items: only
-- the workflow's security-definer code does.
create table public.campaign_items (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null,
  right_id uuid not null,
  holder_id uuid not null,
  holder_name text not null,
  holder_email text not null,
  manager_id uuid,
  manager_name text,
  application_id uuid not null,
  application_name text not null,
  ra_id uuid,
  bpo_metier_id uuid,
  bpo_groupe_id uuid,
  rssi_id uuid,
  role_name text not null,
  account_type public.account_type not null,
  granted_at timestamptz not null,
  last_used_at timestamptz,
  justification text,
  status public.right_status not null default 'pending',
  -- Set by Terminer on the items it sends to the RA still undecided (« non décidé à la clôture »): such an item was
  -- never reviewed, whatever the RA does with it afterwards (private.is_reviewed, 20261121000900_reporting.sql).
  undecided_at_closure boolean not null default false,
  created_at timestamptz not null default private.clock(),
  updated_at timestamptz not null default private.clock(),
  constraint campaign_items_one_per_right unique (campaign_id, right_id)
);
alter table public.campaign_items enable row level security;

-- The workflow finds a right's item in its latest campaign by the unique key. Figures per campaign and status; then
-- the three Excel files, each one status of one campaign in right id order (keyset), as partial indexes because under
-- row-level security a condition on the status enum cannot be an index condition (the enum's equality is not
-- leakproof, so Postgres checks the policy first), while a partial index's predicate still selects the rows.
create index campaign_items_campaign_status_idx on public.campaign_items (campaign_id, status);
create index campaign_items_pending_idx on public.campaign_items (campaign_id, right_id)
  where status = 'pending';
create index campaign_items_validated_manager_idx on public.campaign_items (campaign_id, right_id)
  where status = 'validated_manager';
create index campaign_items_validated_bpo_metier_idx on public.campaign_items (campaign_id, right_id)
  where status = 'validated_bpo_metier';

-- Not while a campaign's completion moves all its items and stamps them itself (apply_campaign_transition, below).
create trigger campaign_items_set_updated_at
  before update on public.campaign_items
  for each row
  when (current_setting('recertif.bulk_stamped', true) is distinct from 'on')
  execute function private.set_updated_at();

-- Who reads an item: whoever could read the right when it was reviewed (ARCHITECTURE §5, on the copy's people):
-- its holder, the holder's manager, the application's RA, BPO Métier, BPO Groupe and RSSI; admin and rssi.
create policy "Its people, admins and the RSSI may read a campaign item" on public.campaign_items
  for select to authenticated
  using (
    (select private.is_admin_or_rssi())
    or (select auth.uid()) in (holder_id, manager_id, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id)
  );

revoke all on public.campaign_items from anon, authenticated, service_role;
grant select on public.campaign_items to authenticated, service_role;

-- The campaigns running now. A statement whose rights or items all were and stay in these cannot break the freeze,
-- so the checks below skip pairing its old and new rows, which is planned at each call (a decision pays for it).
create function private.running_campaign_ids() returns uuid[]
language sql stable
set search_path = ''
as $$
  select coalesce(array_agg(c.id), '{}') from public.campaigns c where c.status = 'active'
$$;

revoke execute on function private.running_campaign_ids() from public;
-- Run as the caller: row-level security may hide a campaign, which then only takes the statement the long way.
grant execute on function private.running_campaign_ids() to authenticated, service_role;

-- The freeze (ARCHITECTURE §3). Items are made only inside a running campaign, and once it is completed or archived
-- no item of it is added, removed or changed, whoever asks, the owner's functions included, except by the workflow:
-- the completion sends the undecided items to the RA and the RA treats the refused ones (status → treatment_required
-- or treated, nothing else). Inserts and updates are checked once per statement over the rows they touched, so that
-- the start of a campaign of 200,000 rights pays one query, not one per item; a deletion row by row and before it
-- happens, so that it is refused for what it is and not for the decisions it would detach. The queries have no LIMIT:
-- with one, the planner expects an offending row early and joins the two transition tables by a nested loop, which
-- made completing a campaign of 150,000 undecided items run for minutes. The columns are compared one by one rather
-- than as JSON minus status and updated_at, which cost seconds per 100,000 rows.
create function private.guard_campaign_items() returns trigger
language plpgsql
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = old_items, newtable = new_items
declare
  offending uuid;
  running uuid[];
begin
  if tg_op = 'INSERT' then
    select a.campaign_id into offending
      from new_items a left join public.campaigns c on c.id = a.campaign_id
     where c.status is distinct from 'active';
  elsif tg_op = 'UPDATE' then
    running := private.running_campaign_ids();
    if not exists (select 1 from old_items o where not coalesce(o.campaign_id = any (running), false))
       and not exists (select 1 from new_items n where not coalesce(n.campaign_id = any (running), false)) then
      return null;
    end if;
    -- Planned at each call (EXECUTE), with the transition tables' real sizes: the plan a session kept from a one-item
    -- decision joined them by a nested loop, so that a completion on the same connection afterwards compared every
    -- item with every other (70 s for 15,000 items at a tenth of the large dataset, instead of 0.6 s).
    -- plpgsql_check, which would have a static statement here, keeps its performance warnings for the rest.
    perform 'PRAGMA:DISABLE:PERFORMANCE_WARNINGS';
    execute $sql$
    select n.campaign_id
      from old_items o
      join new_items n on n.id = o.id
      join public.campaigns c on c.id in (o.campaign_id, n.campaign_id)
     where c.status = any (private.closed_campaign_statuses())
       and (
         -- Every column but status, undecided_at_closure (both below) and updated_at (tests/db/closed-campaigns.test.ts
         -- checks that the list names them all).
         (n.campaign_id, n.right_id, n.holder_id, n.holder_name, n.holder_email, n.manager_id, n.manager_name,
          n.application_id, n.application_name, n.ra_id, n.bpo_metier_id, n.bpo_groupe_id, n.rssi_id, n.role_name,
          n.account_type, n.granted_at, n.last_used_at, n.justification, n.created_at)
         is distinct from
         (o.campaign_id, o.right_id, o.holder_id, o.holder_name, o.holder_email, o.manager_id, o.manager_name,
          o.application_id, o.application_name, o.ra_id, o.bpo_metier_id, o.bpo_groupe_id, o.rssi_id, o.role_name,
          o.account_type, o.granted_at, o.last_used_at, o.justification, o.created_at)
         or (n.status is distinct from o.status and not (
           n.status in ('treatment_required', 'treated') and o.status not in ('validated_bpo_groupe', 'treated')
         ))
         -- Set once, by Terminer, on what it sends to the RA undecided.
         or (n.undecided_at_closure is distinct from o.undecided_at_closure and not (
           n.undecided_at_closure and n.status = 'treatment_required'
           and o.status in ('pending', 'validated_user', 'validated_manager', 'validated_bpo_metier')
         ))
       )
    $sql$ into offending;
  elsif exists (select 1 from public.campaigns c where c.id = old.campaign_id and c.status = any (private.closed_campaign_statuses())) then
    offending := old.campaign_id;
  end if;

  if offending is not null then
    if tg_op = 'INSERT' and not exists (select 1 from public.campaigns c where c.id = offending) then
      raise exception 'Cette campagne n''existe pas : aucun élément de revue ne peut lui être ajouté.'
        using errcode = '23503';
    end if;
    if tg_op = 'INSERT' and exists (select 1 from public.campaigns c where c.id = offending and c.status = 'draft') then
      raise exception 'Une campagne en brouillon n''a pas encore d''éléments de revue : ils sont créés à son démarrage.'
        using errcode = '23514';
    end if;
    raise exception 'Cette campagne est clôturée : ses éléments de revue ne peuvent plus être modifiés.'
      using errcode = '23514', hint = 'Une campagne terminée ou archivée est figée ; seul le RA traite encore ses droits refusés.';
  end if;
  return case when tg_op = 'DELETE' then old end;
end;
$$;

create trigger campaign_items_guard_insert
  after insert on public.campaign_items
  referencing new table as new_items
  for each statement execute function private.guard_campaign_items();

-- Stands aside while a decision's writer applies its effects itself (recertif.writer_applies_effects,
-- 20261121001155_effects.sql): validate_user_right refuses a closed campaign itself, under the right's lock.
create trigger campaign_items_guard_update
  after update on public.campaign_items
  referencing old table as old_items new table as new_items
  for each statement
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on')
  execute function private.guard_campaign_items();

create trigger campaign_items_guard_delete
  before delete on public.campaign_items
  for each row execute function private.guard_campaign_items();

-- ─── Start and completion ────────────────────────────────────────────────────────────────────────────────────────

-- The rights in a campaign's scope not under review in another running campaign, in one reading: those its start
-- takes, and those it leaves with the RA (refused, or undecided when their last campaign closed, and not yet treated:
-- private.statuses_awaiting_treatment()). p_campaign_id is the campaign starting, whose own rights do not count as
-- another's.
create function private.start_scope_counts(
  p_campaign_id uuid,
  p_application_id uuid,
  p_account_type public.account_type,
  out rights_to_attach bigint,
  out rights_left_with_ra bigint
)
language plpgsql stable
set search_path = ''
as $$
begin
  select count(*) filter (where not (ur.status = any (private.statuses_awaiting_treatment()))),
         count(*) filter (where ur.status = any (private.statuses_awaiting_treatment()))
    into rights_to_attach, rights_left_with_ra
    from public.user_rights ur
   where (p_application_id is null or ur.application_id = p_application_id)
     and (p_account_type is null or ur.account_type = p_account_type)
     and not exists (
       select 1 from public.campaigns c
        where c.id = ur.campaign_id and c.status = 'active' and c.id is distinct from p_campaign_id
     );
end;
$$;

revoke execute on function private.start_scope_counts(uuid, uuid, public.account_type) from public;

-- rpc('campaign_start_preview', { p_campaign_id }) → { rights_to_attach, rights_left_with_ra }: what Démarrer would do
-- to a draft now, for its confirmation dialog. Admin and rssi only, like the start itself.
create function public.campaign_start_preview(p_campaign_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  target public.campaigns;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent démarrer une campagne.');
  select * into target from public.campaigns c where c.id = p_campaign_id;
  if target.id is null then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;
  return to_jsonb(private.start_scope_counts(target.id, target.application_id, target.account_type));
end;
$$;

revoke execute on function public.campaign_start_preview(uuid) from public, anon;
grant execute on function public.campaign_start_preview(uuid) to authenticated;

-- Starting a campaign attaches every in-scope right not under review in another active campaign, resets it to pending
-- and makes its item; completing it sends what is still undecided to the RA, right and item alike (ARCHITECTURE §3).
-- Each transition is audited by one summary event (its counts and scope), not one event per right it moves: the items
-- are the per-right record of what the campaign took and how it ended, and one sealed audit row per right (each hashed
-- into the chain after the previous one) made the start of a 300,000-right campaign last minutes. So the per-row audit
-- of user_rights is suppressed while the transition moves them, and the suppression is set back as it was.
-- Both statements write updated_at themselves and switch off, for that statement, the per-row trigger that would
-- (recertif.bulk_stamped, read by user_rights_set_updated_at and campaign_items_set_updated_at): a PL/pgSQL call per
-- row cost the start of a 200,000-right campaign about half a second.
-- No JIT: the transition tables' joins (the realtime capture, the freeze check) are estimated at hundreds of millions
-- of rows, so the planner compiled each of them, which cost more than a second of the start and saved nothing.
-- The start writes its items in right id order, so that the two indexes keyed on it (campaign_items_one_per_right,
-- campaign_items_pending_idx) fill page after page instead of at random. It sorts the rights it took before their
-- holders and applications are joined, when a row is less than half as wide: two million of them spilled 579 MB to
-- disk sorted after the joins. The joins keep that order, each probing a table of holders or applications held in
-- memory.
-- Defined before user_rights (20261121000600_rights_and_decisions.sql): a PL/pgSQL body is bound at its first call,
-- not when it is created.

-- Démarrer's rows: the rights of the campaign's scope that no other active campaign holds and that do not wait for
-- the RA become its items, pending. Returns how many rights it took.
create function private.attach_campaign_rights(p_campaign public.campaigns, p_stamped_at timestamptz) returns bigint
language plpgsql security definer
set search_path = ''
set jit = off
set work_mem = '128MB'
as $$
declare
  affected bigint;
begin
  with attached as (
    update public.user_rights ur
       set campaign_id = p_campaign.id,
           status = 'pending',
           validated_at = null,
           validated_by = null,
           review_comment = null,
           updated_at = p_stamped_at
     where (p_campaign.application_id is null or ur.application_id = p_campaign.application_id)
       and (p_campaign.account_type is null or ur.account_type = p_campaign.account_type)
       and not exists (
         select 1 from public.campaigns c
          where c.id = ur.campaign_id and c.status = 'active' and c.id <> p_campaign.id
       )
       and not (ur.status = any (private.statuses_awaiting_treatment()))
    -- What the items copy, not the whole row: the statement keeps 200,000 of them until the insert reads them.
    returning ur.id, ur.user_id, ur.application_id, ur.role_name, ur.account_type, ur.granted_at, ur.last_used_at,
              ur.justification, ur.status
  )
  insert into public.campaign_items (
    id, campaign_id, right_id, holder_id, holder_name, holder_email, manager_id, manager_name, application_id,
    application_name, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id, role_name, account_type, granted_at,
    last_used_at, justification, status, created_at, updated_at
  )
  -- Ids that grow with time, as UUID version 7 lays them out (the time in milliseconds, then random bits), so that
  -- the primary key fills its last pages: random ones landed all over an index larger than the cache, and the
  -- start of two million items read and wrote back about a million of its pages.
  select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                  placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6),
                52, 1), 53, 1), 'hex')::uuid,
         p_campaign.id, r.id, h.id, h.first_name || ' ' || h.last_name, h.email, m.id, m.first_name || ' ' || m.last_name,
         a.id, a.name, a.ra_id, a.bpo_metier_id, a.bpo_groupe_id, a.rssi_id, r.role_name, r.account_type,
         r.granted_at, r.last_used_at, r.justification, r.status, p_stamped_at, p_stamped_at
    from (select * from attached order by id) r
    join public.users h on h.id = r.user_id
    join public.applications a on a.id = r.application_id
    left join public.users m on m.id = h.manager_id;
  get diagnostics affected = row_count;
  return affected;
end;
$$;

-- Terminer's rows: what still waits for a reviewer goes to the RA, undecided at closure. The rights first, then their
-- items, in the order validate_user_right locks them. The rights are found by their items (no index of user_rights
-- covers the workflow's columns: 20261121000600_rights_and_decisions.sql); the right's own campaign and status decide,
-- as they always move together with its item's. Returns how many rights it sent to the RA.
create function private.send_undecided_to_ra(p_campaign public.campaigns, p_stamped_at timestamptz) returns bigint
language plpgsql security definer
set search_path = ''
set jit = off
set work_mem = '128MB'
as $$
declare
  affected bigint;
begin
  with sent as (
    update public.user_rights ur
       set status = 'treatment_required',
           updated_at = p_stamped_at
      from public.campaign_items i
     where i.campaign_id = p_campaign.id
       and i.status in ('pending', 'validated_user', 'validated_manager', 'validated_bpo_metier')
       and ur.id = i.right_id
       and ur.campaign_id = p_campaign.id
       and (
         ur.status in ('pending', 'validated_user', 'validated_manager')
         or (
           ur.status = 'validated_bpo_metier'
           and exists (select 1 from public.applications a where a.id = ur.application_id and a.bpo_groupe_id is not null)
         )
       )
    returning ur.id
  )
  update public.campaign_items i
     set status = 'treatment_required',
         undecided_at_closure = true,
         updated_at = p_stamped_at
    from sent
   where i.campaign_id = p_campaign.id
     and i.right_id = sent.id;
  get diagnostics affected = row_count;
  return affected;
end;
$$;

revoke execute on function private.attach_campaign_rights(public.campaigns, timestamptz),
  private.send_undecided_to_ra(public.campaigns, timestamptz) from public;

create function private.apply_campaign_transition() returns trigger
language plpgsql security definer
set search_path = ''
set jit = off
set work_mem = '128MB'
as $$
declare
  affected bigint;
  items bigint;
  suppressed text := coalesce(nullif(current_setting('recertif.audit_suppressed', true), ''), 'off');
  -- Read once, for every row the statements below write, rather than once per row.
  stamped_at timestamptz := private.clock();
begin
  if old.status = 'draft' and new.status = 'active' then
    -- One start at a time: a right is under review in one active campaign at most. Two campaigns starting together
    -- would otherwise each read the other as a draft and both take the rights they share; the statement below takes
    -- its snapshot once the lock is held, so it sees the campaigns started before.
    perform pg_advisory_xact_lock(hashtextextended('recertif.campaign_start', 0));
    perform set_config('recertif.audit_suppressed', 'on', true);
    perform set_config('recertif.bulk_stamped', 'on', true);
    affected := private.attach_campaign_rights(new, stamped_at);
    perform set_config('recertif.bulk_stamped', 'off', true);
    perform set_config('recertif.audit_suppressed', suppressed, true);
    perform private.write_audit('start_campaign', 'campaigns', new.id::text, jsonb_build_object(
      'rights_attached', affected,
      'rights_left_with_ra', (private.start_scope_counts(new.id, new.application_id, new.account_type)).rights_left_with_ra,
      'scope', jsonb_build_object('application_id', new.application_id, 'account_type', new.account_type)
    ));
  elsif old.status = 'active' and new.status = 'completed' then
    perform set_config('recertif.audit_suppressed', 'on', true);
    perform set_config('recertif.bulk_stamped', 'on', true);
    affected := private.send_undecided_to_ra(new, stamped_at);
    perform set_config('recertif.bulk_stamped', 'off', true);
    perform set_config('recertif.audit_suppressed', suppressed, true);
    select count(*) into items from public.campaign_items i where i.campaign_id = new.id;
    perform private.write_audit('complete_campaign', 'campaigns', new.id::text, jsonb_build_object(
      'rights_sent_to_ra', affected,
      'items', items
    ));
  end if;
  return null;
end;
$$;

create trigger campaigns_apply_transition
  after update of status on public.campaigns
  for each row
  when (old.status is distinct from new.status)
  execute function private.apply_campaign_transition();

-- ─── Recurrence and automatic start ─────────────────────────────────────────────────────────────────────────────

-- The period an occurrence covers, for its name: « T1 2027 », « S2 2027 », « 2027 ».
create function private.campaign_period_label(p_recurrence public.campaign_recurrence, p_start date) returns text
language sql immutable
set search_path = ''
as $$
  select case p_recurrence
    when 'quarterly' then format('T%s %s', extract(quarter from p_start)::integer, extract(year from p_start)::integer)
    when 'semiannual' then format('S%s %s', case when extract(month from p_start) <= 6 then 1 else 2 end,
                                   extract(year from p_start)::integer)
    when 'annual' then extract(year from p_start)::integer::text
  end
$$;

create function private.campaign_recurrence_step(p_recurrence public.campaign_recurrence) returns interval
language sql immutable
set search_path = ''
as $$
  select case p_recurrence
    when 'quarterly' then interval '3 months'
    when 'semiannual' then interval '6 months'
    when 'annual' then interval '1 year'
  end
$$;

-- rpc('run_campaign_schedule', { p_now? }) → { created, started }: the campaigns' part of the scheduled pass, for the
-- service role only (the scheduled function; tests pass "now" in rather than wait for it).
--   * Each recurring campaign that is the last of its series and no longer a draft gets its next occurrence once the
--     next start date has come (in Paris): same scope, same length, same settings, named after the first occurrence
--     and the period it covers. After a pause of several periods, only the current period's occurrence is made: a
--     review of a past quarter would have nothing to review that the current one does not.
--   * Each draft set to start automatically whose start date has come is started, through the same transition as a
--     click on Démarrer (its record, its audit row).
-- Both are idempotent: a second run at the same time finds nothing left to do (one next occurrence per campaign, the
-- status transition once), and two runs at once queue on the campaigns they both lock.
create function public.run_campaign_schedule(p_now timestamptz default now()) returns jsonb
language plpgsql security definer
set search_path = ''
set statement_timeout = '5min'
as $$
declare
  today date := (p_now at time zone 'Europe/Paris')::date;
  last_one record;
  next_start date;
  created integer := 0;
  started integer := 0;
begin
  for last_one in
    select c.*, private.campaign_recurrence_step(c.recurrence) as step
      from public.campaigns c
     where c.recurrence is not null
       and c.status <> 'draft'
       and (c.start_date + private.campaign_recurrence_step(c.recurrence))::date <= today
       and not exists (select 1 from public.campaigns n where n.previous_occurrence_id = c.id)
     order by c.start_date, c.id
       for update of c skip locked
  loop
    next_start := (last_one.start_date + last_one.step)::date;
    while (next_start + last_one.step)::date <= today loop
      next_start := (next_start + last_one.step)::date;
    end loop;
    insert into public.campaigns (
      name, description, application_id, account_type, start_date, end_date, created_by, recurrence, auto_start,
      notifications_enabled, reminders_enabled, reminder_days, escalation_delay_days, previous_occurrence_id
    )
    select left(coalesce((
             -- The series' name is its first occurrence's.
             with recursive series as (
               select p.id, p.name, p.previous_occurrence_id from public.campaigns p where p.id = last_one.id
               union all
               select p.id, p.name, p.previous_occurrence_id
                 from public.campaigns p join series s on p.id = s.previous_occurrence_id
             )
             select s.name from series s where s.previous_occurrence_id is null limit 1
           ), last_one.name), 180) || ' — ' || private.campaign_period_label(last_one.recurrence, next_start),
           last_one.description, last_one.application_id, last_one.account_type, next_start,
           next_start + (last_one.end_date - last_one.start_date), last_one.created_by, last_one.recurrence,
           last_one.auto_start, last_one.notifications_enabled, last_one.reminders_enabled, last_one.reminder_days,
           last_one.escalation_delay_days, last_one.id
    on conflict (previous_occurrence_id) do nothing;
    if found then
      created := created + 1;
    end if;
  end loop;

  with due as (
    select c.id from public.campaigns c
     where c.status = 'draft' and c.auto_start and c.start_date <= today
     order by c.start_date, c.id
       for update skip locked
  )
  update public.campaigns c set status = 'active' from due where c.id = due.id;
  get diagnostics started = row_count;

  return jsonb_build_object('created', created, 'started', started);
end;
$$;

revoke execute on function public.run_campaign_schedule(timestamptz) from public, anon, authenticated;
grant execute on function public.run_campaign_schedule(timestamptz) to service_role;

-- Starts, completes or archives a campaign with the caller's own rights (the campaigns policies and column grants
-- decide, the status triggers do what the change sets off), under a limit a large campaign's start or completion fits
-- (about a minute and a minute and a half at 2 M rights): PostgREST applies a called function's statement_timeout to
-- its call instead of the role's 8 s, which a PATCH of the table cannot have.
create function public.set_campaign_status(p_campaign_id uuid, p_status public.campaign_status)
returns public.campaigns
language plpgsql
set search_path = ''
set statement_timeout = '5min'
as $$
declare
  changed public.campaigns;
begin
  if p_campaign_id is null or p_status is null then
    raise exception 'Indiquez la campagne et son nouveau statut.' using errcode = '22023';
  end if;
  update public.campaigns set status = p_status where id = p_campaign_id returning * into changed;
  if changed.id is null then
    raise exception 'Campagne introuvable, ou vous n''avez pas le droit de la modifier.' using errcode = '42501';
  end if;
  return changed;
end;
$$;

revoke execute on function public.set_campaign_status(uuid, public.campaign_status) from public, anon;
grant execute on function public.set_campaign_status(uuid, public.campaign_status) to authenticated, service_role;
