-- The rights under review and the decisions taken on them (ARCHITECTURE §3, §4): the tables, who decides what, the
-- review workflow (validate_user_right) and the freeze of closed campaigns; the import of rights follows in
-- 20261121000650_rights_import.sql. A right's status changes only through validate_user_right and the campaign
-- lifecycle: no API role holds UPDATE on the workflow columns. user_rights is the inventory: campaign_id and status
-- say where a right stands in its latest campaign; each campaign's own record is its items
-- (20261121000500_campaigns.sql), which the workflow here keeps in step.

create table public.user_rights (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on update cascade on delete cascade,
  application_id uuid not null references public.applications (id) on delete cascade,
  role_name text not null,
  account_type public.account_type not null default 'standard',
  justification text,
  status public.right_status not null default 'pending',
  granted_at timestamptz not null default now(),
  last_used_at timestamptz,
  validated_at timestamptz,
  validated_by uuid references public.users (id) on update cascade on delete set null,
  review_comment text,
  campaign_id uuid references public.campaigns (id) on delete cascade,
  created_at timestamptz not null default private.clock(),
  updated_at timestamptz not null default private.clock(),
  constraint user_rights_role_name_present check (char_length(btrim(role_name)) between 1 and 200),
  constraint user_rights_justification_length check (char_length(justification) <= 2000),
  constraint user_rights_comment_length check (char_length(review_comment) <= 2000),
  constraint user_rights_unique_grant unique (user_id, application_id, role_name)
)
-- Room in each page for a new version of every row, so that the workflow's updates stay heap-only (HOT, below).
with (fillfactor = 50);
alter table public.user_rights enable row level security;

-- No index covers the workflow's columns (status, campaign_id, validated_by, validated_at, review_comment): then
-- a change to them is a heap-only update, which writes the row's new version in its own page and no index entry.
-- Starting a campaign changes those columns on every right it takes, 200,000 at once; with an entry to add in each
-- of the dozen indexes that once covered them, the start took over 20 s, heap-only about half of that (docs/performance.md).
-- Who needs the rights of one status finds them otherwise: a campaign's by its items
-- (20261121000500_campaigns.sql), a reviewer's queue by holder, team or application (20261121000800_reviews.sql), the
-- figures by counting over all rights, as they did already.
create index user_rights_granted_at_idx on public.user_rights (granted_at desc);
-- The compliance rules: inactivity_threshold (rights never used or not used since a date, over all applications or
-- one) and incompatible_roles (the holders of the listed role names).
create index user_rights_last_used_at_idx on public.user_rights (last_used_at);
create index user_rights_application_last_used_idx on public.user_rights (application_id, last_used_at);
create index user_rights_role_name_idx on public.user_rights (role_name, user_id);
-- The RSSI's search by role name (20261121000900_reporting.sql, private.rights_matching).
select private.create_trigram_index('user_rights_role_name_trgm_idx', 'public.user_rights', 'role_name');

-- Not while a campaign's start or completion moves its rights and stamps them itself
-- (private.apply_campaign_transition, 20261121000500_campaigns.sql).
create trigger user_rights_set_updated_at
  before update on public.user_rights
  for each row
  when (current_setting('recertif.bulk_stamped', true) is distinct from 'on')
  execute function private.set_updated_at();

-- The condition repeats audit_row_change's own test of the suppression so that a campaign's start, which moves every
-- in-scope right with its audit suppressed, does not queue one trigger event per right only for it to do nothing.
create trigger user_rights_audit
  after insert or update or delete on public.user_rights
  for each row
  when (current_setting('recertif.audit_suppressed', true) is distinct from 'on')
  execute function private.audit_row_change();

-- What a right is cannot change once someone has decided on it: the decision would seem to cover another right.
-- A right of a closed campaign gets the freeze's refusal (below), which says more, although it is checked only at the
-- end of the statement: so this is security definer, to read the campaign whoever asks.
create function private.guard_right_relabel() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if old.status <> 'pending' and (new.role_name, new.account_type) is distinct from (old.role_name, old.account_type) then
    if exists (select 1 from public.campaigns c where c.id = old.campaign_id and c.status = any (private.closed_campaign_statuses())) then
      perform private.refuse_closed_campaign_right();
    end if;
    raise exception 'Ce droit a déjà été revu : son rôle et son type de compte ne peuvent plus être modifiés.'
      using errcode = '23514', hint = 'Importez-le comme un nouveau droit.';
  end if;
  return new;
end;
$$;

create trigger user_rights_guard_relabel
  before update of role_name, account_type on public.user_rights
  for each row execute function private.guard_right_relabel();

-- ─── Rights in a running campaign and their items ──────────────────────────────────────────────────────────────
-- A right added to an active campaign (import, or an administrator's insert) becomes an item of it at once; a right
-- deleted from an active campaign takes its item along (its decisions stay, without item); a change to what a right is
-- reaches its item while the campaign runs. Items of drafts do not exist yet, and those of closed campaigns never
-- change (20261121000500_campaigns.sql). Security definer: no API role writes items.
create function private.add_campaign_items() returns trigger
language plpgsql security definer
set search_path = ''
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: newtable = added
begin
  insert into public.campaign_items (
    campaign_id, right_id, holder_id, holder_name, holder_email, manager_id, manager_name, application_id,
    application_name, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id, role_name, account_type, granted_at,
    last_used_at, justification, status
  )
  select c.id, r.id, h.id, h.first_name || ' ' || h.last_name, h.email, m.id, m.first_name || ' ' || m.last_name,
         a.id, a.name, a.ra_id, a.bpo_metier_id, a.bpo_groupe_id, a.rssi_id, r.role_name, r.account_type,
         r.granted_at, r.last_used_at, r.justification, r.status
    from added r
    join public.campaigns c on c.id = r.campaign_id and c.status = 'active'
    join public.users h on h.id = r.user_id
    join public.applications a on a.id = r.application_id
    left join public.users m on m.id = h.manager_id;
  return null;
end;
$$;

create trigger user_rights_add_campaign_items
  after insert on public.user_rights
  referencing new table as added
  for each statement execute function private.add_campaign_items();

create function private.follow_right_in_campaign_item() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    delete from public.campaign_items i
     using public.campaigns c
     where i.campaign_id = old.campaign_id and i.right_id = old.id
       and c.id = i.campaign_id and c.status = 'active';
    return old;
  end if;
  update public.campaign_items i
     set holder_id = new.user_id,
         role_name = new.role_name,
         account_type = new.account_type,
         justification = new.justification,
         granted_at = new.granted_at,
         last_used_at = new.last_used_at
    from public.campaigns c
   where i.campaign_id = new.campaign_id and i.right_id = new.id
     and c.id = i.campaign_id and c.status = 'active';
  return new;
end;
$$;

create trigger user_rights_follow_in_item_on_update
  after update of user_id, role_name, account_type, justification, granted_at, last_used_at on public.user_rights
  for each row
  when (
    new.campaign_id is not null
    and (new.user_id, new.role_name, new.account_type, new.justification, new.granted_at, new.last_used_at)
      is distinct from (old.user_id, old.role_name, old.account_type, old.justification, old.granted_at, old.last_used_at)
  )
  execute function private.follow_right_in_campaign_item();

create trigger user_rights_follow_in_item_on_delete
  after delete on public.user_rights
  for each row
  when (old.campaign_id is not null)
  execute function private.follow_right_in_campaign_item();

-- A decision is evidence: it outlives the right, its holder and its application, so it keeps a copy of
-- what was decided on, and right_id is cleared rather than the row deleted.
create table public.right_decisions (
  id uuid primary key default gen_random_uuid(),
  right_id uuid references public.user_rights (id) on delete set null,
  holder_id uuid not null,
  holder_email text not null,
  holder_name text not null,
  application_id uuid not null,
  application_name text not null,
  role_name text not null,
  account_type public.account_type not null,
  -- No foreign key to campaigns: the campaign is held through the item decided on, which must be that right's item in
  -- that campaign (validate_user_right writes it so, the guard below checks any other writer), and the item's own key
  -- to its campaign; a campaign that ever had items is no longer a draft and can never be deleted (guard_campaign_delete,
  -- which also refuses the deletion of a campaign that decisions name). A key here made every decision take a key-share
  -- lock on its campaign's row: all the reviewers of a campaign at once, each lock adding a multixact of every
  -- transaction holding one. With 50 reviewers in one campaign at ten times the large dataset, the decision p95 went
  -- from 115-151 ms with the key to 101-112 ms without (docs/performance.md).
  campaign_id uuid,
  -- The campaign item decided on: set on every decision taken in a campaign (see the guard below); cleared only when
  -- a running campaign loses the item because its right was deleted.
  item_id uuid references public.campaign_items (id) on delete set null,
  stage public.review_stage not null,
  decision public.review_decision not null,
  from_status public.right_status not null,
  to_status public.right_status not null,
  comment text,
  decided_by uuid references public.users (id) on update cascade on delete set null,
  decided_by_email text not null,
  decided_by_name text not null,
  -- Someone deciding for another (20261121000750_delegations.sql): acting_as 'delegate', on_behalf_of the reviewer
  -- whose item it was (a copy, like the holder's, that outlives the profile); or 'fallback', a fallback reviewer of
  -- the campaign deciding an item without reviewer, on behalf of nobody. Null both for a reviewer's own decision.
  on_behalf_of uuid,
  on_behalf_of_name text,
  acting_as text,
  decided_at timestamptz not null default private.clock(),
  -- The address the decision came from, as its audit event records it (private.request_ip): kept here too so that a
  -- campaign's evidence pack reads it with the decision instead of searching the audit trail for each one. Like the
  -- trail's, it is the RSSI's and the admin's to read (through the pack), not every reader's of the decision: see the
  -- column grant below.
  ip_address inet default private.request_ip(),
  constraint right_decisions_acting_as check (
    acting_as in ('delegate', 'fallback') and (acting_as = 'delegate') = (on_behalf_of is not null)
    or acting_as is null and on_behalf_of is null
  )
);
alter table public.right_decisions enable row level security;

create index right_decisions_right_id_idx on public.right_decisions (right_id, decided_at);
create index right_decisions_campaign_id_idx on public.right_decisions (campaign_id, stage);
-- An item's decisions (the Excel files' stage columns).
create index right_decisions_item_id_idx on public.right_decisions (item_id, stage, decided_at);
-- A person's history, newest first, paged on (decided_at, id): the decisions they took, and those on their rights.
create index right_decisions_decided_by_idx on public.right_decisions (decided_by, decided_at, id);
create index right_decisions_holder_id_idx on public.right_decisions (holder_id, decided_at, id);
-- The decisions taken within the RSSI dashboard's window.
create index right_decisions_decided_at_idx on public.right_decisions (decided_at);

-- Who sees a right (ARCHITECTURE §5): its holder, the holder's manager, the application's owners,
-- admin and rssi. The set-returning predicates are evaluated once per statement, not once per row.
create policy "Holders, managers, owners, admins and RSSI may read a right" on public.user_rights
  for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin_or_rssi())
    or user_id in (select private.my_reports())
    or application_id in (select private.my_applications())
  );

create policy "Admins and the RSSI may add pending rights" on public.user_rights
  for insert to authenticated
  with check (
    (select private.is_admin_or_rssi())
    and status = 'pending'
    and validated_at is null
    and validated_by is null
    and review_comment is null
  );

create policy "Admins and the RSSI may update rights" on public.user_rights
  for update to authenticated
  using ((select private.is_admin_or_rssi()))
  with check ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may delete rights" on public.user_rights
  for delete to authenticated
  using ((select private.is_admin_or_rssi()));

revoke all on public.user_rights from anon, authenticated, service_role;
grant select, insert, delete on public.user_rights to authenticated, service_role;
-- The descriptive columns only; status, validated_* , review_comment and campaign_id belong to the workflow.
grant update (role_name, account_type, justification, granted_at, last_used_at, updated_at)
  on public.user_rights to authenticated, service_role;

-- A decision is visible to whoever took it, to whoever may read the right or the campaign item it was taken on, and
-- to admin and rssi (also once the right is gone).
create policy "Its decider and the readers of its right may read a decision" on public.right_decisions
  for select to authenticated
  using (
    decided_by = (select auth.uid())
    or (select private.is_admin_or_rssi())
    or exists (select 1 from public.user_rights ur where ur.id = right_decisions.right_id)
    or exists (select 1 from public.campaign_items i where i.id = right_decisions.item_id)
  );

revoke all on public.right_decisions from anon, authenticated, service_role;
-- Every column but ip_address: the holder, their manager and the application's owners see who decided and why, not
-- from where (the audit trail, which records it too, is the RSSI's).
grant select (
  id, right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name, account_type,
  campaign_id, item_id, stage, decision, from_status, to_status, comment, decided_by, decided_by_email, decided_by_name,
  on_behalf_of, on_behalf_of_name, acting_as, decided_at
) on public.right_decisions to authenticated;
grant select on public.right_decisions to service_role;

create function private.right_status_label(p_status public.right_status) returns text
language sql immutable
set search_path = ''
as $$
  select case p_status
    when 'pending' then 'En attente'
    when 'validated_user' then 'Validé par l''utilisateur'
    when 'refused_user' then 'Refusé par l''utilisateur'
    when 'validated_manager' then 'Validé par le manager'
    when 'refused_manager' then 'Refusé par le manager'
    when 'validated_bpo_metier' then 'Validé par le BPO Métier'
    when 'refused_bpo_metier' then 'Refusé par le BPO Métier'
    when 'validated_bpo_groupe' then 'Validé par le BPO Groupe'
    when 'refused_bpo_groupe' then 'Refusé par le BPO Groupe'
    when 'treatment_required' then 'Traitement requis'
    when 'treated' then 'Traité'
  end
$$;

-- Who may decide what (ARCHITECTURE §4): the stages, the statuses they give and await, and one's own verdict on each
-- right. private.decision_authority (20261121001160_decisions.sql) joins this verdict and the acting one of
-- delegates and fallback reviewers into the one rule every decision goes through.

-- The stage at which a role decides; null for a role that takes no review decision (admin, rssi).
-- These helpers are PL/pgSQL rather than SQL: they are called per query by the queues and the verdict below, and a
-- SQL function with its own search_path is planned anew at every call, a PL/pgSQL one once per session.
create function private.review_stage_for(p_role public.user_role) returns public.review_stage
language plpgsql immutable
set search_path = ''
as $$
begin
  return case p_role
    when 'user' then 'user'
    when 'manager' then 'manager'
    when 'bpo_metier' then 'bpo_metier'
    when 'bpo_groupe' then 'bpo_groupe'
    when 'ra' then 'ra'
  end::public.review_stage;
end;
$$;

-- The status a decision gives at a stage: approving or refusing; for the RA, treated or treatment_required.
create function private.decision_status(p_stage public.review_stage, p_outcome public.review_decision)
returns public.right_status
language plpgsql immutable
set search_path = ''
as $$
begin
  return case p_stage
    when 'user' then case p_outcome when 'approved' then 'validated_user' when 'refused' then 'refused_user' end
    when 'manager' then case p_outcome when 'approved' then 'validated_manager' when 'refused' then 'refused_manager' end
    when 'bpo_metier' then case p_outcome when 'approved' then 'validated_bpo_metier' when 'refused' then 'refused_bpo_metier' end
    when 'bpo_groupe' then case p_outcome when 'approved' then 'validated_bpo_groupe' when 'refused' then 'refused_bpo_groupe' end
    when 'ra' then case p_outcome when 'approved' then 'treated' when 'refused' then 'treatment_required' end
  end::public.right_status;
end;
$$;

-- The reviewer stage at which a right in this status waits, or null when it waits for nobody (validated by the BPO
-- Groupe, treated): the manager for a pending right (the holder's own answer is optional), the RA for a refusal.
create function private.awaited_stage(p_status public.right_status) returns public.review_stage
language plpgsql immutable
set search_path = ''
as $$
begin
  return case
    when p_status in ('pending', 'validated_user') then 'manager'
    when p_status = 'validated_manager' then 'bpo_metier'
    when p_status = 'validated_bpo_metier' then 'bpo_groupe'
    when p_status in ('refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'treatment_required')
      then 'ra'
  end::public.review_stage;
end;
$$;

-- The states in which a right awaits a decision at a stage, for one outcome, or for either when p_outcome is null:
-- those whose awaited stage it is (private.awaited_stage), and for the holder's own, optional, answer a pending right.
-- The RA treats what was refused, and may close as treated what is already awaiting treatment, not refuse it again.
-- Called with constants or once per query, it is evaluated when the query is planned.
create function private.waiting_states(p_stage public.review_stage, p_outcome public.review_decision default null)
returns public.right_status[]
language plpgsql immutable
set search_path = ''
as $$
begin
  if p_stage = 'user' then
    return array['pending']::public.right_status[];
  end if;
  return array(
    select s from unnest(enum_range(null::public.right_status)) s
     where private.awaited_stage(s) = p_stage
       and (p_outcome is distinct from 'refused' or s <> 'treatment_required')
  );
end;
$$;

-- The reviewer of an item or right at a stage, from its manager, BPO Métier, BPO Groupe and RA; null for the holder's
-- own stage (user).
create function private.stage_reviewer(
  p_stage public.review_stage,
  p_manager uuid,
  p_bpo_metier uuid,
  p_bpo_groupe uuid,
  p_ra uuid
) returns uuid
language plpgsql immutable
set search_path = ''
as $$
begin
  return case p_stage
    when 'manager' then p_manager
    when 'bpo_metier' then p_bpo_metier
    when 'bpo_groupe' then p_bpo_groupe
    when 'ra' then p_ra
  end;
end;
$$;

-- The caller's review stage.
create function private.my_review_stage() returns public.review_stage
language plpgsql stable
set search_path = ''
as $$
begin
  return private.review_stage_for(private.current_role());
end;
$$;

-- Four eyes: the stage, other than p_stage, at which one of p_people already answered for this right in this campaign,
-- having recorded a decision or had one recorded on their behalf; null when none did. Nobody answers for two stages
-- of one item, whatever path led them there (own role, delegation, fallback, reassignment). The RA's treatment counts
-- as a stage. Security definer: the decisions it reads are all of them, not those the caller may see.
create function private.answered_other_stage(
  p_right_id uuid,
  p_campaign_id uuid,
  p_people uuid[],
  p_stage public.review_stage
) returns public.review_stage
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select d.stage
      from public.right_decisions d
     where d.right_id = p_right_id
       and d.campaign_id is not distinct from p_campaign_id
       and d.stage <> p_stage
       and (d.decided_by = any (p_people) or d.on_behalf_of = any (p_people))
     limit 1
  );
end;
$$;

revoke execute on function private.answered_other_stage(uuid, uuid, uuid[], public.review_stage) from public;
grant execute on function private.answered_other_stage(uuid, uuid, uuid[], public.review_stage) to authenticated, service_role;

-- The French name of a review stage, for messages.
create function private.review_stage_label(p_stage public.review_stage) returns text
language sql immutable
set search_path = ''
as $$
  select case p_stage
    when 'user' then 'Utilisateur'
    when 'manager' then 'Manager'
    when 'bpo_metier' then 'BPO Métier'
    when 'bpo_groupe' then 'BPO Groupe'
    when 'ra' then 'RA'
  end
$$;

grant execute on function private.review_stage_label(public.review_stage) to authenticated, service_role;

grant execute on function
  private.review_stage_for(public.user_role),
  private.decision_status(public.review_stage, public.review_decision),
  private.waiting_states(public.review_stage, public.review_decision),
  private.awaited_stage(public.right_status),
  private.stage_reviewer(public.review_stage, uuid, uuid, uuid, uuid),
  private.my_review_stage()
  to authenticated, service_role;

-- For each right, whether the caller may decide on it now, and if not why: null when the decision would be accepted,
-- otherwise, checked in this order,
--   'own_right'        nobody decides at the manager, BPO or RA stage on a right they hold;
--   'out_of_scope'     the stage's scope: the holder, the holder's manager, the application's BPO Métier, BPO Groupe
--                      or RA (and any caller without a stage);
--   'not_waiting'      the right is not in a state awaiting the caller's stage;
--   'no_campaign', 'campaign_closed'
--                      reviews happen inside a running campaign; the RA's treatment goes on after it closes.
-- refusal is for a decision either way; approve_refusal and refuse_refusal for one outcome (they differ only where
-- the RA may close as treated, but not refuse again, a right already awaiting treatment). Beside the verdict, what
-- the right is: its holder, application and campaign.
-- A view rather than a function: it is bound when created (no search_path applies to it) and the planner folds it
-- into the query that reads it, so the reviewer queues test thousands of candidate rights with plain expressions and
-- no function call per right (a SQL function with its own search_path is never inlined). The caller's identity and
-- stage are initplans, evaluated once per query. It runs as the querying role: row-level security applies to a
-- signed-in caller; validate_user_right reads it as the owner.
create view private.review_verdicts
with (security_invoker = true)
as
select
  ur.id as right_id,
  ur.status,
  ur.role_name,
  ur.account_type,
  ur.justification,
  ur.granted_at,
  ur.last_used_at,
  ur.user_id as holder_id,
  h.first_name as holder_first_name,
  h.last_name as holder_last_name,
  h.email as holder_email,
  h.position as holder_position,
  h.department as holder_department,
  ur.application_id,
  a.name as application_name,
  ur.campaign_id,
  c.name as campaign_name,
  c.status as campaign_status,
  c.end_date as campaign_end_date,
  t.stage,
  coalesce(t.scope_refusal, case when not t.waits then 'not_waiting' end, t.four_eyes_refusal, t.campaign_refusal) as refusal,
  coalesce(t.scope_refusal, case when not t.waits_approval then 'not_waiting' end, t.four_eyes_refusal, t.campaign_refusal) as approve_refusal,
  coalesce(t.scope_refusal, case when not t.waits_refusal then 'not_waiting' end, t.four_eyes_refusal, t.campaign_refusal) as refuse_refusal
from public.user_rights ur
join public.users h on h.id = ur.user_id
join public.applications a on a.id = ur.application_id
left join public.campaigns c on c.id = ur.campaign_id
-- Each test written once (offset 0 keeps the planner from copying it into every column that uses it).
cross join lateral (
  select
    (select private.my_review_stage()) as stage,
    case
      when (select private.my_review_stage()) is null or (select auth.uid()) is null then 'out_of_scope'
      when (select private.my_review_stage()) <> 'user' and ur.user_id = (select auth.uid()) then 'own_right'
      when not coalesce(case (select private.my_review_stage())
        when 'user' then ur.user_id = (select auth.uid())
        when 'manager' then h.manager_id = (select auth.uid())
        when 'bpo_metier' then a.bpo_metier_id = (select auth.uid())
        when 'bpo_groupe' then a.bpo_groupe_id = (select auth.uid())
        when 'ra' then a.ra_id = (select auth.uid())
      end, false) then 'out_of_scope'
    end as scope_refusal,
    coalesce(ur.status = any ((select private.waiting_states(private.my_review_stage(), null))::public.right_status[]), false) as waits,
    coalesce(ur.status = any ((select private.waiting_states(private.my_review_stage(), 'approved'))::public.right_status[]), false) as waits_approval,
    coalesce(ur.status = any ((select private.waiting_states(private.my_review_stage(), 'refused'))::public.right_status[]), false) as waits_refusal,
    case
      when (select private.my_review_stage()) = 'ra' then null
      when c.id is null then 'no_campaign'
      when c.status <> 'active' then 'campaign_closed'
    end as campaign_refusal,
    -- Only asked of a right waiting for the caller's stage: the others are refused before it counts.
    case
      when (select private.my_review_stage()) in ('user') or (select auth.uid()) is null then null
      when not coalesce(ur.status = any ((select private.waiting_states(private.my_review_stage(), null))::public.right_status[]), false) then null
      when private.answered_other_stage(ur.id, ur.campaign_id, array[(select auth.uid())], (select private.my_review_stage())) is not null
        then 'four_eyes'
    end as four_eyes_refusal
  offset 0
) t;

revoke all on private.review_verdicts from public, anon, authenticated, service_role;
grant select on private.review_verdicts to authenticated, service_role;

-- ─── Closed campaigns are frozen ─────────────────────────────────────────────────────────────────────────────────
-- Once a campaign is completed or archived, its figures and Excel files must never change (ARCHITECTURE §3): no right
-- enters it, leaves it or changes in it, and no decision in it is added or changed, whoever asks — admin, rssi, a
-- reviewer or the service role, through the API or any function. What the workflow itself still does there passes,
-- and only that:
--   * completing sends the undecided rights and their items to the RA (status → treatment_required), in the
--     completion itself;
--   * the RA treats what was refused after the campaign closed (validate_user_right: status → treated or
--     treatment_required, with validated_at, validated_by and review_comment, and a decision at the 'ra' stage); the
--     item of the closed campaign takes the same status, since the RA's treatment is part of that campaign's outcome;
--   * a new campaign's start takes its in-scope rights out of closed campaigns (campaign_id → the started campaign,
--     status reset): the inventory moves on, while the closed campaign keeps its items and its decisions, so its
--     figures and files stay as they were;
--   * a right goes with its holder or its application (on delete cascade), and follows its holder's profile when it
--     is linked to its account (update_user_id); a decision follows its author's profile the same way and loses its
--     link to a right that is gone.
-- The workflow columns (status, validated_*, review_comment, campaign_id) and right_decisions are written by those
-- security-definer functions only: no API role holds UPDATE on them. The campaign is read as the owner; an insert
-- takes a share lock on it, so that a campaign cannot close between the check and the insert's commit (updates do
-- not: they hold a right's lock, which the completion waits for).
-- Inserts and deletions are checked row by row, before they happen. Updates are checked once per statement over the
-- rows they changed: completing a campaign or starting one moves up to hundreds of thousands of rights in one
-- statement, and a check per row (a function call, a campaign lookup and two row-to-JSON conversions each) made that
-- statement several times slower.
create function private.guard_closed_campaign_right() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  new_status public.campaign_status;
begin
  if tg_op = 'INSERT' then
    select c.status into new_status from public.campaigns c where c.id = new.campaign_id for share;
    if new_status = any (private.closed_campaign_statuses()) then
      perform private.refuse_closed_campaign_right();
    end if;
    return new;
  end if;
  if exists (select 1 from public.campaigns c where c.id = old.campaign_id and c.status = any (private.closed_campaign_statuses()))
     and exists (select 1 from public.users u where u.id = old.user_id)
     and exists (select 1 from public.applications a where a.id = old.application_id) then
    perform private.refuse_closed_campaign_right();
  end if;
  return old;
end;
$$;

create function private.refuse_closed_campaign_right() returns void
language plpgsql
set search_path = ''
as $$
-- plpgsql_check would have it immutable, as it reads nothing: the planner would then raise while planning each caller.
-- @plpgsql_check_options: performance_warnings = false
begin
  raise exception 'Cette campagne est clôturée : ses droits ne peuvent plus être modifiés.'
    using errcode = '23514', hint = 'Une campagne terminée ou archivée est figée ; seul le RA traite encore ses droits refusés.';
end;
$$;

-- No LIMIT in the query below: with one, the planner expects an offending row early and joins the two transition
-- tables by a nested loop, which is quadratic when, as nearly always, there is none. The columns are compared one by
-- one rather than as JSON minus the workflow's keys, which cost seconds per 100,000 rows. The join of a start's
-- 200,000 rights sorts both sides: in memory, not in temporary files.
create function private.guard_closed_campaign_rights_update() returns trigger
language plpgsql security definer
set search_path = ''
set work_mem = '64MB'
as $$
-- The statement's rows, for plpgsql_check (scripts/db-lint/plpgsql-check.ts):
-- @plpgsql_check_options: oldtable = changed_from, newtable = changed_to
declare
  offending uuid;
  running uuid[];
begin
  -- When every right the statement changed is now in a running campaign, none can offend: a right leaves a closed
  -- campaign only for the one being started, and a closed campaign's right that stayed in it is not in a running one.
  -- Then the old and new rows need no pairing: a start's two million rights and a decision pass with one scan.
  running := private.running_campaign_ids();
  if not exists (select 1 from changed_to n where not coalesce(n.campaign_id = any(running), false)) then
    return null;
  end if;
  -- Planned at each call (EXECUTE), with the transition tables' real sizes: the plan a session kept from a one-right
  -- decision joined them by a nested loop, so that a completion on the same connection afterwards compared every
  -- right with every other (41 s for 15,000 rights at a tenth of the large dataset, instead of 0.6 s).
  -- plpgsql_check, which would have a static statement here, keeps its performance warnings for the rest.
  perform 'PRAGMA:DISABLE:PERFORMANCE_WARNINGS';
  execute $sql$
  select n.id
    from changed_from o
    join changed_to n on n.id = o.id
    left join public.campaigns oc on oc.id = o.campaign_id
    left join public.campaigns nc on nc.id = n.campaign_id
   where (n.campaign_id is distinct from o.campaign_id and nc.status = any (private.closed_campaign_statuses()))
      or (oc.status = any (private.closed_campaign_statuses()) and case
           -- Out of a closed campaign, only into the one being started.
           when n.campaign_id is distinct from o.campaign_id then nc.status is distinct from 'active'
           else
             -- The holder changes only when the profile was relinked (its old id is gone).
             (n.user_id is distinct from o.user_id and exists (select 1 from public.users u where u.id = o.user_id))
             or n.status is distinct from o.status and n.status not in ('treatment_required', 'treated')
             -- Every other column (tests/db/closed-campaigns.test.ts checks that the list names them all).
             or (n.application_id, n.role_name, n.account_type, n.justification, n.granted_at, n.last_used_at,
                 n.created_at)
                is distinct from (o.application_id, o.role_name, o.account_type, o.justification, o.granted_at,
                                  o.last_used_at, o.created_at)
         end)
  $sql$ into offending;
  if offending is not null then
    perform private.refuse_closed_campaign_right();
  end if;
  return null;
end;
$$;

revoke execute on function
  private.guard_right_relabel(),
  private.guard_closed_campaign_right(),
  private.refuse_closed_campaign_right(),
  private.guard_closed_campaign_rights_update()
  from public;

create trigger user_rights_guard_closed_campaign
  before insert or delete on public.user_rights
  for each row execute function private.guard_closed_campaign_right();

-- This one and the decisions' below stand aside while a decision's writer applies its effects itself
-- (recertif.writer_applies_effects, 20261121001155_effects.sql): validate_user_right refuses a closed campaign itself
-- and writes the decision on the item it has just moved.
create trigger user_rights_guard_closed_campaign_update
  after update on public.user_rights
  referencing old table as changed_from new table as changed_to
  for each statement
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on')
  execute function private.guard_closed_campaign_rights_update();

create function private.guard_closed_campaign_decision() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  closed boolean;
begin
  select bool_or(c.status = any (private.closed_campaign_statuses())) into closed
    from public.campaigns c
   where c.id in (
     case when tg_op <> 'INSERT' then old.campaign_id end,
     case when tg_op <> 'DELETE' then new.campaign_id end
   );

  if coalesce(closed, false) and (case tg_op
    when 'INSERT' then new.stage <> 'ra'
    when 'DELETE' then true
    else
      (new.right_id is distinct from old.right_id and new.right_id is not null)
      or (new.decided_by is distinct from old.decided_by and exists (select 1 from public.users u where u.id = old.decided_by))
      or (to_jsonb(new) - array['right_id', 'decided_by']) is distinct from (to_jsonb(old) - array['right_id', 'decided_by'])
  end) then
    raise exception 'Cette campagne est clôturée : ses décisions ne peuvent plus être modifiées.'
      using errcode = '23514', hint = 'Une campagne terminée ou archivée est figée ; seul le RA traite encore ses droits refusés.';
  end if;
  -- The campaign a decision was taken in is part of the evidence, and the item is what holds it (no foreign key on
  -- campaign_id, see the table).
  if tg_op = 'UPDATE' and new.campaign_id is distinct from old.campaign_id then
    raise exception 'Une décision reste attachée à la campagne où elle a été prise.' using errcode = '23514';
  end if;
  -- A decision taken in a campaign is taken on one of its items: that right's item in that campaign.
  if tg_op = 'INSERT' and new.campaign_id is not null and not exists (
    select 1 from public.campaign_items i
     where i.id = new.item_id and i.campaign_id = new.campaign_id and i.right_id = new.right_id
  ) then
    raise exception 'Une décision prise dans une campagne porte sur l''élément de revue de ce droit dans cette campagne.'
      using errcode = '23514';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create trigger right_decisions_guard_closed_campaign
  before insert or update or delete on public.right_decisions
  for each row
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on')
  execute function private.guard_closed_campaign_decision();
