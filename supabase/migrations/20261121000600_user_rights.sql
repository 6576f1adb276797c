-- The rights under review and the decisions taken on them. A right's status changes only through
-- validate_user_right (and the campaign lifecycle): no API role holds UPDATE on the workflow columns.

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
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint user_rights_role_name_present check (char_length(btrim(role_name)) between 1 and 200),
  constraint user_rights_justification_length check (char_length(justification) <= 2000),
  constraint user_rights_comment_length check (char_length(review_comment) <= 2000),
  constraint user_rights_unique_grant unique (user_id, application_id, role_name)
);
alter table public.user_rights enable row level security;

create index user_rights_application_id_idx on public.user_rights (application_id, status);
create index user_rights_campaign_id_idx on public.user_rights (campaign_id, status);
create index user_rights_validated_by_idx on public.user_rights (validated_by);
create index user_rights_status_idx on public.user_rights (status);
create index user_rights_granted_at_idx on public.user_rights (granted_at desc);

create trigger user_rights_set_updated_at
  before update on public.user_rights
  for each row execute function private.set_updated_at();

create trigger user_rights_audit
  after insert or update or delete on public.user_rights
  for each row execute function private.audit_row_change();

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
  campaign_id uuid references public.campaigns (id) on delete set null,
  stage public.review_stage not null,
  decision public.review_decision not null,
  from_status public.right_status not null,
  to_status public.right_status not null,
  comment text,
  decided_by uuid references public.users (id) on update cascade on delete set null,
  decided_by_email text not null,
  decided_by_name text not null,
  decided_at timestamptz not null default now()
);
alter table public.right_decisions enable row level security;

create index right_decisions_right_id_idx on public.right_decisions (right_id, decided_at);
create index right_decisions_campaign_id_idx on public.right_decisions (campaign_id, stage);
create index right_decisions_decided_by_idx on public.right_decisions (decided_by, decided_at desc);

-- Who sees a right (ARCHITECTURE §5): its holder, the holder's manager, the application's owners,
-- admin and rssi. The set-returning predicates are evaluated once per statement, not once per row.
create policy user_rights_select on public.user_rights
  for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or user_id in (select private.my_reports())
    or application_id in (select private.my_applications())
  );

create policy user_rights_insert on public.user_rights
  for insert to authenticated
  with check (
    (select private.is_admin())
    and status = 'pending'
    and validated_at is null
    and validated_by is null
    and review_comment is null
  );

create policy user_rights_update on public.user_rights
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy user_rights_delete on public.user_rights
  for delete to authenticated
  using ((select private.is_admin()));

revoke all on public.user_rights from anon, authenticated, service_role;
grant select, insert, delete on public.user_rights to authenticated, service_role;
-- What a right is cannot change once someone has decided on it: the decision would seem to cover another right.
create function private.guard_right_relabel() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status <> 'pending' and (new.role_name, new.account_type) is distinct from (old.role_name, old.account_type) then
    raise exception 'Ce droit a déjà été revu : son rôle et son type de compte ne peuvent plus être modifiés.'
      using errcode = '23514', hint = 'Importez-le comme un nouveau droit.';
  end if;
  return new;
end;
$$;

create trigger user_rights_guard_relabel
  before update of role_name, account_type on public.user_rights
  for each row execute function private.guard_right_relabel();

-- The descriptive columns only; status, validated_* , review_comment and campaign_id belong to the workflow.
grant update (role_name, account_type, justification, granted_at, last_used_at, updated_at)
  on public.user_rights to authenticated, service_role;

-- A decision is visible to whoever took it, to whoever may read the right, and to admin and rssi (also
-- once the right is gone).
create policy right_decisions_select on public.right_decisions
  for select to authenticated
  using (
    decided_by = (select auth.uid())
    or (select private.is_admin())
    or exists (select 1 from public.user_rights ur where ur.id = right_decisions.right_id)
  );

revoke all on public.right_decisions from anon, authenticated, service_role;
grant select on public.right_decisions to authenticated, service_role;

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

-- Who may decide what (ARCHITECTURE §4), in one place. validate_user_right enforces it on the right it locks,
-- and the reviewer queues (20261121001000_review_queues.sql) list exactly the rights it would accept; nothing else
-- restates these rules.

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

-- The states in which a right awaits a decision at a stage, for one outcome, or for either when p_outcome is null.
-- The RA treats what was refused, and may close as treated what is already awaiting treatment.
create function private.waiting_states(p_stage public.review_stage, p_outcome public.review_decision default null)
returns public.right_status[]
language plpgsql immutable
set search_path = ''
as $$
begin
  return case p_stage
    when 'user' then array['pending']
    when 'manager' then array['pending', 'validated_user']
    when 'bpo_metier' then array['validated_manager']
    when 'bpo_groupe' then array['validated_bpo_metier']
    when 'ra' then case
      when p_outcome is distinct from 'refused' then
        array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'treatment_required']
      else array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe']
    end
  end::public.right_status[];
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

grant execute on function
  private.review_stage_for(public.user_role),
  private.decision_status(public.review_stage, public.review_decision),
  private.waiting_states(public.review_stage, public.review_decision),
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
  coalesce(t.scope_refusal, case when not t.waits then 'not_waiting' end, t.campaign_refusal) as refusal,
  coalesce(t.scope_refusal, case when not t.waits_approval then 'not_waiting' end, t.campaign_refusal) as approve_refusal,
  coalesce(t.scope_refusal, case when not t.waits_refusal then 'not_waiting' end, t.campaign_refusal) as refuse_refusal
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
    end as campaign_refusal
  offset 0
) t;

revoke all on private.review_verdicts from public, anon, authenticated, service_role;
grant select on private.review_verdicts to authenticated, service_role;

-- The review workflow of ARCHITECTURE §4. The stage comes from the caller's role; the right is locked
-- before its state is read, so of two decisions arriving together exactly one finds it still waiting.
create function public.validate_user_right(
  right_id uuid,
  new_status public.right_status,
  comment text default null
) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  caller_id uuid := auth.uid();
  caller public.users;
  stage public.review_stage;
  approve_status public.right_status;
  refuse_status public.right_status;
  target public.user_rights;
  app public.applications;
  campaign_name text;
  refusal text;
  clean_comment text := nullif(btrim(comment), '');
  outcome public.review_decision;
  decision_id uuid;
begin
  if caller_id is null then
    raise exception 'Vous devez être connecté pour statuer sur un droit.' using errcode = '42501';
  end if;
  select * into caller from public.users u where u.id = caller_id;
  if caller.id is null then
    raise exception 'Votre profil utilisateur est introuvable.' using errcode = '42501';
  end if;

  stage := private.review_stage_for(caller.role);
  if stage is null then
    raise exception 'Votre rôle ne permet pas de statuer sur des droits.'
      using errcode = '42501', hint = 'Invalid user role for validation';
  end if;
  approve_status := private.decision_status(stage, 'approved');
  refuse_status := private.decision_status(stage, 'refused');

  if new_status is null or new_status not in (approve_status, refuse_status) then
    raise exception 'Le statut « % » ne peut pas être donné à votre étape de revue.',
      coalesce(private.right_status_label(new_status), 'vide')
      using errcode = '22023';
  end if;
  outcome := case when new_status = approve_status then 'approved' else 'refused' end::public.review_decision;

  if char_length(clean_comment) > 2000 then
    raise exception 'Le commentaire ne doit pas dépasser 2000 caractères.' using errcode = '22001';
  end if;

  select * into target from public.user_rights ur where ur.id = validate_user_right.right_id for update;
  if target.id is null then
    raise exception 'Ce droit est introuvable.' using errcode = 'P0001';
  end if;

  select * into app from public.applications a where a.id = target.application_id;
  select case outcome when 'approved' then v.approve_refusal else v.refuse_refusal end, v.campaign_name
    into refusal, campaign_name
    from private.review_verdicts v
   where v.right_id = target.id;
  if not found then
    raise exception 'Ce droit est introuvable.' using errcode = 'P0001';
  end if;

  if refusal = 'own_right' then
    raise exception 'Vous ne pouvez pas statuer sur un droit que vous détenez vous-même.' using errcode = '42501';
  elsif refusal = 'out_of_scope' then
    raise exception 'Ce droit ne fait pas partie de votre périmètre de revue.' using errcode = '42501';
  elsif refusal = 'not_waiting' then
    raise exception 'Ce droit n''attend pas votre décision : son statut est « % ».', private.right_status_label(target.status)
      using errcode = 'P0001';
  elsif refusal = 'no_campaign' then
    raise exception 'Ce droit ne fait partie d''aucune campagne de revue en cours.' using errcode = 'P0001';
  elsif refusal = 'campaign_closed' then
    raise exception 'La campagne « % » n''est pas en cours : les décisions y sont closes.', campaign_name
      using errcode = 'P0001';
  elsif refusal is not null then
    raise exception 'Décision refusée (%).', refusal using errcode = 'P0001';
  end if;

  -- This function writes its own, richer audit entry for the change.
  perform set_config('recertif.audit_suppressed', 'on', true);
  update public.user_rights ur
     set status = new_status,
         validated_at = now(),
         validated_by = caller_id,
         review_comment = clean_comment
   where ur.id = target.id;
  perform set_config('recertif.audit_suppressed', 'off', true);

  insert into public.right_decisions (
    right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name, account_type,
    campaign_id, stage, decision, from_status, to_status, comment, decided_by, decided_by_email, decided_by_name
  )
  select
    target.id, holder.id, holder.email, holder.first_name || ' ' || holder.last_name, app.id, app.name,
    target.role_name, target.account_type,
    target.campaign_id, stage, outcome, target.status, new_status, clean_comment, caller_id,
    caller.email, caller.first_name || ' ' || caller.last_name
  from public.users holder
  where holder.id = target.user_id
  returning id into decision_id;

  perform private.write_audit(
    'decide',
    'user_rights',
    target.id::text,
    jsonb_build_object(
      'stage', stage,
      'decision', outcome,
      'from_status', target.status,
      'to_status', new_status,
      'comment', clean_comment,
      'holder_id', target.user_id,
      'application_id', target.application_id,
      'campaign_id', target.campaign_id,
      'decision_id', decision_id
    )
  );

  return jsonb_build_object('success', true, 'status', new_status, 'decision_id', decision_id);
end;
$$;

revoke execute on function public.validate_user_right(uuid, public.right_status, text) from public, anon;
grant execute on function public.validate_user_right(uuid, public.right_status, text) to authenticated;

-- Starting a campaign attaches every in-scope right not held by another active campaign and resets it to
-- pending; completing it sends what is still undecided to the RA (ARCHITECTURE §3).
create function private.apply_campaign_transition() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  affected bigint;
begin
  if old.status = 'draft' and new.status = 'active' then
    update public.user_rights ur
       set campaign_id = new.id,
           status = 'pending',
           validated_at = null,
           validated_by = null,
           review_comment = null
     where (new.application_id is null or ur.application_id = new.application_id)
       and (new.account_type is null or ur.account_type = new.account_type)
       and not exists (
         select 1 from public.campaigns c
          where c.id = ur.campaign_id and c.status = 'active' and c.id <> new.id
       );
    get diagnostics affected = row_count;
    perform private.write_audit('start_campaign', 'campaigns', new.id::text, jsonb_build_object('rights_attached', affected));
  elsif old.status = 'active' and new.status = 'completed' then
    update public.user_rights ur
       set status = 'treatment_required'
     where ur.campaign_id = new.id
       and (
         ur.status in ('pending', 'validated_user', 'validated_manager')
         or (
           ur.status = 'validated_bpo_metier'
           and exists (select 1 from public.applications a where a.id = ur.application_id and a.bpo_groupe_id is not null)
         )
       );
    get diagnostics affected = row_count;
    perform private.write_audit('complete_campaign', 'campaigns', new.id::text, jsonb_build_object('rights_sent_to_ra', affected));
  end if;
  return null;
end;
$$;

create trigger campaigns_apply_transition
  after update of status on public.campaigns
  for each row
  when (old.status is distinct from new.status)
  execute function private.apply_campaign_transition();
