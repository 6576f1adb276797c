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
  waiting_states public.right_status[];
  target public.user_rights;
  app public.applications;
  holder_manager uuid;
  campaign public.campaigns;
  in_scope boolean;
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

  case caller.role
    when 'user' then
      stage := 'user'; approve_status := 'validated_user'; refuse_status := 'refused_user';
    when 'manager' then
      stage := 'manager'; approve_status := 'validated_manager'; refuse_status := 'refused_manager';
    when 'bpo_metier' then
      stage := 'bpo_metier'; approve_status := 'validated_bpo_metier'; refuse_status := 'refused_bpo_metier';
    when 'bpo_groupe' then
      stage := 'bpo_groupe'; approve_status := 'validated_bpo_groupe'; refuse_status := 'refused_bpo_groupe';
    when 'ra' then
      stage := 'ra'; approve_status := 'treated'; refuse_status := 'treatment_required';
    else
      raise exception 'Votre rôle ne permet pas de statuer sur des droits.'
        using errcode = '42501', hint = 'Invalid user role for validation';
  end case;

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

  if stage <> 'user' and target.user_id = caller_id then
    raise exception 'Vous ne pouvez pas statuer sur un droit que vous détenez vous-même.' using errcode = '42501';
  end if;

  select * into app from public.applications a where a.id = target.application_id;
  select u.manager_id into holder_manager from public.users u where u.id = target.user_id;
  in_scope := case stage
    when 'user' then target.user_id = caller_id
    when 'manager' then holder_manager = caller_id
    when 'bpo_metier' then app.bpo_metier_id = caller_id
    when 'bpo_groupe' then app.bpo_groupe_id = caller_id
    when 'ra' then app.ra_id = caller_id
  end;
  if not coalesce(in_scope, false) then
    raise exception 'Ce droit ne fait pas partie de votre périmètre de revue.' using errcode = '42501';
  end if;

  waiting_states := case stage
    when 'user' then array['pending']
    when 'manager' then array['pending', 'validated_user']
    when 'bpo_metier' then array['validated_manager']
    when 'bpo_groupe' then array['validated_bpo_metier']
    -- The RA treats what was refused, and may close as treated what is already awaiting treatment.
    when 'ra' then case outcome
      when 'approved' then array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'treatment_required']
      else array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe']
    end
  end::public.right_status[];
  if not (target.status = any (waiting_states)) then
    raise exception 'Ce droit n''attend pas votre décision : son statut est « % ».', private.right_status_label(target.status)
      using errcode = 'P0001';
  end if;

  -- Reviews happen inside a running campaign; the RA's treatment goes on after it closes.
  if stage <> 'ra' then
    select * into campaign from public.campaigns c where c.id = target.campaign_id;
    if campaign.id is null then
      raise exception 'Ce droit ne fait partie d''aucune campagne de revue en cours.' using errcode = 'P0001';
    end if;
    if campaign.status <> 'active' then
      raise exception 'La campagne « % » n''est pas en cours : les décisions y sont closes.', campaign.name
        using errcode = 'P0001';
    end if;
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
