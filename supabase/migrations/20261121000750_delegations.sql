-- Delegation, reassignment and fallback reviewers (ARCHITECTURE §4); the sign-off of a stage follows the review queue,
-- whose count it reads (20261121000850_sign_off.sql).
--
-- Who may decide for whom. A reviewer (manager, BPO Métier, BPO Groupe, RA) may delegate their items of a campaign,
-- all of them or a selection, to another person until an end date; an admin or the RSSI may do the same for an absent
-- reviewer (reassign). A campaign's fallback reviewers decide the items whose reviewer does not exist. Either way the
-- person acting decides at the reviewer's stage, under the same rules as the reviewer (private.acting_verdicts below,
-- which validate_user_right consults when the caller's own verdict refuses): never on a right they hold, never outside
-- what was delegated, never after the delegation ended or was revoked. The decision records both people
-- (right_decisions.decided_by and on_behalf_of, 20261121000600_rights_and_decisions.sql).
--
-- Every table here is written only through the security-definer functions of this file: no API role holds a write
-- grant on them.

-- ─── The reviewer of an item ─────────────────────────────────────────────────────────────────────────────────────

-- Whether p_reviewer reviews at p_stage a right held by p_holder, given the holder's manager and the application's
-- owners. The stage's reviewer never reviews a right they hold: such an item has no reviewer at that stage, like an
-- item whose holder has no manager or whose application has no BPO Groupe, and goes to the fallback reviewers.
create function private.reviews_at(
  p_stage public.review_stage,
  p_reviewer uuid,
  p_holder uuid,
  p_manager uuid,
  p_bpo_metier uuid,
  p_bpo_groupe uuid,
  p_ra uuid
) returns boolean
language plpgsql immutable
set search_path = ''
as $$
begin
  return p_reviewer is not null and p_reviewer is distinct from p_holder and p_reviewer = case p_stage
    when 'manager' then p_manager
    when 'bpo_metier' then p_bpo_metier
    when 'bpo_groupe' then p_bpo_groupe
    when 'ra' then p_ra
  end;
end;
$$;

-- The stage without a reviewer at which a right in this status waits, or null: the rule of the fallback reviewers.
-- A right waiting for its manager (pending, validated_user) whose holder has no manager; one waiting for the BPO
-- Métier, the BPO Groupe or the RA when the application has none, or when that person holds the right, or when that
-- person has been deactivated (a leaver: they can no longer sign in, so their items would wait forever), or when that
-- person already answered for another stage of the item (four eyes: private.answered_other_stage). Reactivating them
-- gives the items back. Stable, not immutable: it reads the reviewer's account and the item's decisions.
create function private.stage_without_reviewer(
  p_status public.right_status,
  p_holder uuid,
  p_manager uuid,
  p_bpo_metier uuid,
  p_bpo_groupe uuid,
  p_ra uuid,
  p_right_id uuid,
  p_campaign_id uuid
) returns public.review_stage
language plpgsql stable
set search_path = ''
as $$
declare
  waiting_stage public.review_stage := private.awaited_stage(p_status);
  reviewer uuid := private.stage_reviewer(waiting_stage, p_manager, p_bpo_metier, p_bpo_groupe, p_ra);
begin
  if waiting_stage is null
     or (reviewer is not null and reviewer <> p_holder
         and exists (select 1 from public.users u where u.id = reviewer and u.active)
         and private.answered_other_stage(p_right_id, p_campaign_id, array[reviewer], waiting_stage) is null) then
    return null;
  end if;
  return waiting_stage;
end;
$$;

-- Whether an item in this status may still need a decision at the stage: it waits there or has not reached it yet.
-- The RA treats refusals, which may come at any stage until the item is validated by the BPO Groupe or treated.
create function private.open_at_stage(p_stage public.review_stage, p_status public.right_status) returns boolean
language plpgsql immutable
set search_path = ''
as $$
begin
  return case p_stage
    when 'user' then p_status = 'pending'
    when 'manager' then p_status in ('pending', 'validated_user')
    when 'bpo_metier' then p_status in ('pending', 'validated_user', 'validated_manager')
    when 'bpo_groupe' then p_status in ('pending', 'validated_user', 'validated_manager', 'validated_bpo_metier')
    when 'ra' then p_status not in ('validated_bpo_groupe', 'treated')
  end;
end;
$$;

revoke execute on function
  private.reviews_at(public.review_stage, uuid, uuid, uuid, uuid, uuid, uuid),
  private.stage_without_reviewer(public.right_status, uuid, uuid, uuid, uuid, uuid, uuid, uuid),
  private.open_at_stage(public.review_stage, public.right_status)
  from public;

-- ─── Tables ──────────────────────────────────────────────────────────────────────────────────────────────────────

-- A delegation: the delegator's items of a campaign (item_ids null: all of them, now and those reaching their stage
-- later; otherwise those items) are decided by the delegate until ends_on, unless revoked. created_by is the
-- delegator, or the admin or RSSI who reassigned the items of an absent reviewer.
create table public.review_delegations (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  delegator_id uuid not null references public.users (id) on update cascade on delete cascade,
  delegate_id uuid not null references public.users (id) on update cascade on delete cascade,
  item_ids uuid[],
  reason text not null,
  ends_on date not null,
  created_by uuid references public.users (id) on update cascade on delete set null,
  created_at timestamptz not null default private.clock(),
  revoked_at timestamptz,
  revoked_by uuid references public.users (id) on update cascade on delete set null,
  constraint review_delegations_not_to_self check (delegate_id <> delegator_id),
  constraint review_delegations_reason_present check (char_length(btrim(reason)) between 1 and 500),
  constraint review_delegations_items_present check (item_ids is null or cardinality(item_ids) between 1 and 50000)
);
alter table public.review_delegations enable row level security;

create index review_delegations_delegate_idx on public.review_delegations (delegate_id, campaign_id);
create index review_delegations_delegator_idx on public.review_delegations (delegator_id, campaign_id);
create index review_delegations_campaign_idx on public.review_delegations (campaign_id);

-- The delegator, the delegate and admin/rssi read a delegation.
create policy "Its two parties, admins and the RSSI may read a delegation" on public.review_delegations
  for select to authenticated
  using (
    delegator_id = (select auth.uid())
    or delegate_id = (select auth.uid())
    or (select private.is_admin_or_rssi())
  );

revoke all on public.review_delegations from anon, authenticated, service_role;
grant select on public.review_delegations to authenticated, service_role;

-- A campaign's fallback reviewers (Entra's fallbackReviewers): they decide the items whose stage has no reviewer
-- (private.stage_without_reviewer). Readable by every signed-in user, like the campaign itself.
create table public.campaign_fallback_reviewers (
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  user_id uuid not null references public.users (id) on update cascade on delete cascade,
  created_by uuid references public.users (id) on update cascade on delete set null,
  created_at timestamptz not null default private.clock(),
  primary key (campaign_id, user_id)
);
alter table public.campaign_fallback_reviewers enable row level security;

create index campaign_fallback_reviewers_user_idx on public.campaign_fallback_reviewers (user_id, campaign_id);

create policy "Signed-in people may read fallback reviewers" on public.campaign_fallback_reviewers
  for select to authenticated
  using (true);

revoke all on public.campaign_fallback_reviewers from anon, authenticated, service_role;
grant select on public.campaign_fallback_reviewers to authenticated, service_role;

-- ─── Acting for a reviewer ───────────────────────────────────────────────────────────────────────────────────────

-- Every right the caller may decide for someone else (one right when p_right_id is given), with the stage, the
-- reviewer acted for (null for a fallback reviewer, who acts for nobody) and the verdict, worded as
-- private.review_verdicts words it: 'own_right' (the caller or the reviewer holds the right), 'out_of_scope' (the
-- right is no longer the delegator's to review), 'not_waiting', 'campaign_closed'. Only still-valid delegations
-- count: not revoked, ends_on not passed, the right still in the delegation's campaign. Security definer: a delegate
-- cannot read the delegator's rights through row-level security, and needs no more than these rows.
create function private.acting_verdicts(p_right_id uuid default null)
returns table (
  right_id uuid,
  item_id uuid,
  stage public.review_stage,
  on_behalf_of uuid,
  on_behalf_of_name text,
  acting_as text,
  delegation_id uuid,
  ends_on date,
  approve_refusal text,
  refuse_refusal text
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Most callers act for nobody: they are answered by index, without planning the query below, which every decision
  -- asks (validate_user_right) and whose planning alone took about 7 ms of an 11 ms decision at ten times the large
  -- dataset.
  if not exists (
       select 1 from public.review_delegations d
        where d.delegate_id = (select auth.uid()) and d.revoked_at is null and d.ends_on >= current_date
     )
     and not exists (select 1 from public.campaign_fallback_reviewers f where f.user_id = (select auth.uid())) then
    return;
  end if;
  -- A leaver acts for nobody, whatever token they still hold.
  if private.current_role() is null then
    return;
  end if;
  -- PL/pgSQL, so that a call for one right is planned with its id and reaches it by index.
  return query
  with acting as (
    select ur.id as right_id, i.id as item_id, private.review_stage_for(delegator.role) as stage,
           delegator.id as on_behalf_of, delegator.first_name || ' ' || delegator.last_name as on_behalf_of_name,
           'delegate' as acting_as, d.id as delegation_id, d.ends_on, ur.status, ur.user_id as holder_id,
           c.id as campaign_id, c.status as campaign_status,
           private.reviews_at(private.review_stage_for(delegator.role), delegator.id, ur.user_id, h.manager_id,
                              a.bpo_metier_id, a.bpo_groupe_id, a.ra_id) as in_scope
      from public.review_delegations d
      join public.users delegator on delegator.id = d.delegator_id and delegator.active
      join public.campaigns c on c.id = d.campaign_id
      join public.campaign_items i on i.campaign_id = d.campaign_id
      join public.user_rights ur on ur.id = i.right_id and ur.campaign_id = i.campaign_id
      join public.users h on h.id = ur.user_id
      join public.applications a on a.id = ur.application_id
     where d.delegate_id = (select auth.uid())
       and d.revoked_at is null
       and d.ends_on >= current_date
       and (d.item_ids is null or i.id = any (d.item_ids))
       -- Only the rights the delegator holds some office for: the verdict's finer test runs on those alone.
       and d.delegator_id in (h.manager_id, a.bpo_metier_id, a.bpo_groupe_id, a.ra_id)
       and (p_right_id is null or ur.id = p_right_id)
    union all
    select ur.id, i.id, s.stage, null, null, 'fallback', null, null, ur.status, ur.user_id, c.id, c.status, true
      from public.campaign_fallback_reviewers f
      join public.campaigns c on c.id = f.campaign_id
      join public.user_rights ur on ur.campaign_id = f.campaign_id
      join public.campaign_items i on i.campaign_id = ur.campaign_id and i.right_id = ur.id
      join public.users h on h.id = ur.user_id
      join public.applications a on a.id = ur.application_id
      cross join lateral (
        select private.stage_without_reviewer(ur.status, ur.user_id, h.manager_id, a.bpo_metier_id, a.bpo_groupe_id,
                                              a.ra_id, ur.id, ur.campaign_id) as stage
      ) s
     where f.user_id = (select auth.uid())
       and s.stage is not null
       and (p_right_id is null or ur.id = p_right_id)
  )
  select t.right_id, t.item_id, t.stage, t.on_behalf_of, t.on_behalf_of_name, t.acting_as, t.delegation_id, t.ends_on,
         coalesce(t.scope_refusal, case when not t.status = any (private.waiting_states(t.stage, 'approved')) then 'not_waiting' end,
                  t.campaign_refusal),
         coalesce(t.scope_refusal, case when not t.status = any (private.waiting_states(t.stage, 'refused')) then 'not_waiting' end,
                  t.campaign_refusal)
    from (
      select acting.*,
             case
               when acting.stage is null or acting.stage = 'user' then 'out_of_scope'
               when acting.holder_id in ((select auth.uid()), acting.on_behalf_of) then 'own_right'
               when not acting.in_scope then 'out_of_scope'
               when private.answered_other_stage(acting.right_id, acting.campaign_id,
                      array_remove(array[(select auth.uid()), acting.on_behalf_of], null), acting.stage) is not null
                 then 'four_eyes'
             end as scope_refusal,
             case when acting.stage <> 'ra' and acting.campaign_status <> 'active' then 'campaign_closed' end
               as campaign_refusal
        from acting
    ) t;
end;
$$;

revoke execute on function private.acting_verdicts(uuid) from public;

-- rpc('delegated_review_queue') → the rights awaiting the caller's decision for someone else, as review_queue
-- describes a right, with on_behalf_of_name (null for a fallback reviewer), acting_as ('delegate' or 'fallback') and
-- ends_on (the delegation's end). In right id order, at most 1000 rows.
create function public.delegated_review_queue()
returns table (
  right_id uuid,
  holder_id uuid,
  holder_name text,
  holder_email text,
  application_id uuid,
  application_name text,
  role_name text,
  account_type public.account_type,
  justification text,
  status public.right_status,
  last_used_at timestamptz,
  campaign_id uuid,
  campaign_name text,
  campaign_end_date date,
  stage public.review_stage,
  approve_status public.right_status,
  refuse_status public.right_status,
  on_behalf_of uuid,
  on_behalf_of_name text,
  acting_as text,
  ends_on date
)
language sql stable security definer
set search_path = ''
as $$
  select distinct on (ur.id)
         ur.id, h.id, h.first_name || ' ' || h.last_name, h.email, a.id, a.name, ur.role_name, ur.account_type,
         ur.justification, ur.status, ur.last_used_at, c.id, c.name, c.end_date, v.stage,
         case when v.approve_refusal is null then private.decision_status(v.stage, 'approved') end,
         case when v.refuse_refusal is null then private.decision_status(v.stage, 'refused') end,
         v.on_behalf_of, v.on_behalf_of_name, v.acting_as, v.ends_on
    from private.acting_verdicts(null) v
    join public.user_rights ur on ur.id = v.right_id
    join public.users h on h.id = ur.user_id
    join public.applications a on a.id = ur.application_id
    join public.campaigns c on c.id = ur.campaign_id
   where v.approve_refusal is null or v.refuse_refusal is null
   order by ur.id, v.acting_as desc, v.ends_on desc nulls last
   limit 1000
$$;

revoke execute on function public.delegated_review_queue() from public, anon;
grant execute on function public.delegated_review_queue() to authenticated;

-- ─── Delegating and reassigning ──────────────────────────────────────────────────────────────────────────────────

-- rpc('delegate_candidates', { p_search }) → at most 20 active people whose name or e-mail contains the search (two
-- characters at least), the caller left out: the people a reviewer may delegate to or an admin reassign to.
create function public.delegate_candidates(p_search text)
returns table (id uuid, full_name text, email text, role public.user_role)
language sql stable
set search_path = ''
as $$
  select u.id, u.first_name || ' ' || u.last_name, u.email, u.role
    from public.users u
   where char_length(btrim(p_search)) >= 2
     and u.active
     and u.id <> (select auth.uid())
     and (u.first_name || ' ' || u.last_name || ' ' || u.email) ilike
         '%' || replace(replace(replace(btrim(p_search), '\', '\\'), '%', '\%'), '_', '\_') || '%'
   order by u.last_name, u.first_name, u.id
   limit 20
$$;

revoke execute on function public.delegate_candidates(text) from public, anon;
grant execute on function public.delegate_candidates(text) to authenticated;

-- The stage at which p_delegator's items of the campaign may go to p_delegate, or the refusal: the campaign (locked
-- for share until the delegation is written) exists and still runs, the delegator reviews at a stage and is active,
-- the delegate is someone else and active.
create function private.check_delegation_parties(p_campaign_id uuid, p_delegator_id uuid, p_delegate_id uuid)
returns public.review_stage
language plpgsql
set search_path = ''
as $$
declare
  target public.campaigns;
  delegator public.users;
  delegate public.users;
  stage public.review_stage;
begin
  select * into target from public.campaigns c where c.id = p_campaign_id for share;
  if target.id is null then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;
  select * into delegator from public.users u where u.id = p_delegator_id;
  stage := private.review_stage_for(delegator.role);
  if delegator.id is null or stage is null or stage = 'user' then
    raise exception 'Seuls les droits d''un manager, d''un BPO ou d''un RA peuvent être délégués.' using errcode = '42501';
  end if;
  -- A leaver delegates nothing: their items go to the campaign's fallback reviewers.
  if not delegator.active then
    raise exception '% est désactivé(e) : ses revues ne se délèguent pas, elles vont aux relecteurs de secours de la campagne.',
      delegator.first_name || ' ' || delegator.last_name
      using errcode = '42501';
  end if;
  if target.status <> 'active' and not (stage = 'ra' and target.status = 'completed') then
    raise exception 'La campagne « % » n''est pas en cours : ses revues ne peuvent pas être déléguées.', target.name
      using errcode = 'P0001';
  end if;
  select * into delegate from public.users u where u.id = p_delegate_id;
  if delegate.id is null or not delegate.active then
    raise exception 'La personne choisie est introuvable ou désactivée.' using errcode = '22023';
  end if;
  if delegate.id = delegator.id then
    raise exception 'On ne peut pas déléguer ses revues à soi-même.' using errcode = '22023';
  end if;
  return stage;
end;
$$;

-- The delegation's reason, trimmed, or the refusal: a reason of 1 to 500 characters and an end date not yet passed.
create function private.check_delegation_terms(p_reason text, p_ends_on date) returns text
language plpgsql stable
set search_path = ''
as $$
declare
  clean_reason text := nullif(btrim(p_reason), '');
begin
  if clean_reason is null then
    raise exception 'Indiquez le motif de la délégation.' using errcode = '22023';
  end if;
  if char_length(clean_reason) > 500 then
    raise exception 'Le motif ne doit pas dépasser 500 caractères.' using errcode = '22001';
  end if;
  if p_ends_on is null or p_ends_on < current_date then
    raise exception 'La date de fin de la délégation doit être aujourd''hui ou plus tard.' using errcode = '22023';
  end if;
  return clean_reason;
end;
$$;

-- The items of the campaign that carry the chosen rights (null when none are chosen: all the delegator's items), or the
-- refusal when a chosen right is not one the delegator reviews at p_stage in that campaign.
create function private.delegated_items(p_campaign_id uuid, p_delegator_id uuid, p_stage public.review_stage, p_right_ids uuid[])
returns uuid[]
language plpgsql stable
set search_path = ''
as $$
declare
  chosen uuid[];
  items uuid[];
  in_scope integer;
begin
  if p_right_ids is null then
    return null;
  end if;
  select array_agg(distinct x) into chosen from unnest(p_right_ids) x where x is not null;
  if chosen is null then
    raise exception 'Choisissez au moins un droit à déléguer.' using errcode = '22023';
  end if;
  select array_agg(i.id), count(*)::integer into items, in_scope
    from public.campaign_items i
    join public.users h on h.id = i.holder_id
    join public.applications a on a.id = i.application_id
   where i.campaign_id = p_campaign_id
     and i.right_id = any (chosen)
     and private.reviews_at(p_stage, p_delegator_id, i.holder_id, h.manager_id, a.bpo_metier_id, a.bpo_groupe_id, a.ra_id);
  if in_scope <> cardinality(chosen) then
    raise exception 'Certains droits choisis ne font pas partie des revues de % dans la campagne « % ».',
      (select u.first_name || ' ' || u.last_name from public.users u where u.id = p_delegator_id),
      (select c.name from public.campaigns c where c.id = p_campaign_id)
      using errcode = '42501';
  end if;
  return items;
end;
$$;

-- Records a delegation of p_delegator's items of a campaign once the three checks above let it, and audits it as
-- p_action: the shared work of delegate_review_items and reassign_review_items, which check who may ask.
create function private.create_delegation(
  p_action text,
  p_campaign_id uuid,
  p_delegator_id uuid,
  p_delegate_id uuid,
  p_reason text,
  p_ends_on date,
  p_right_ids uuid[]
) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  stage public.review_stage;
  clean_reason text;
  items uuid[];
  delegator public.users;
  delegate public.users;
  delegation_id uuid;
begin
  stage := private.check_delegation_parties(p_campaign_id, p_delegator_id, p_delegate_id);
  clean_reason := private.check_delegation_terms(p_reason, p_ends_on);
  items := private.delegated_items(p_campaign_id, p_delegator_id, stage, p_right_ids);
  select * into delegator from public.users u where u.id = p_delegator_id;
  select * into delegate from public.users u where u.id = p_delegate_id;

  insert into public.review_delegations (campaign_id, delegator_id, delegate_id, item_ids, reason, ends_on, created_by)
  values (p_campaign_id, delegator.id, delegate.id, items, clean_reason, p_ends_on, auth.uid())
  returning id into delegation_id;

  perform private.write_audit(
    p_action,
    'review_delegations',
    delegation_id::text,
    jsonb_build_object(
      'campaign_id', p_campaign_id,
      'delegator_id', delegator.id,
      'delegator_name', delegator.first_name || ' ' || delegator.last_name,
      'delegate_id', delegate.id,
      'delegate_name', delegate.first_name || ' ' || delegate.last_name,
      'stage', stage,
      'items', cardinality(items),
      'reason', clean_reason,
      'ends_on', p_ends_on
    )
  );
  return delegation_id;
end;
$$;

revoke execute on function
  private.check_delegation_parties(uuid, uuid, uuid),
  private.check_delegation_terms(text, date),
  private.delegated_items(uuid, uuid, public.review_stage, uuid[]),
  private.create_delegation(text, uuid, uuid, uuid, text, date, uuid[])
  from public;

-- rpc('delegate_review_items', { p_campaign_id, p_delegate_id, p_reason, p_ends_on, p_right_ids? }) → the delegation's
-- id. The caller's items of the campaign (all, or the items of the chosen rights) go to the delegate until p_ends_on.
create function public.delegate_review_items(
  p_campaign_id uuid,
  p_delegate_id uuid,
  p_reason text,
  p_ends_on date,
  p_right_ids uuid[] default null
) returns uuid
language plpgsql security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Vous devez être connecté.' using errcode = '42501';
  end if;
  return private.create_delegation('delegate', p_campaign_id, auth.uid(), p_delegate_id, p_reason, p_ends_on, p_right_ids);
end;
$$;

-- rpc('reassign_review_items', { p_campaign_id, p_from_id, p_to_id, p_reason, p_ends_on, p_right_ids? }) → the
-- delegation's id: an admin or the RSSI hands an absent reviewer's items to someone else.
create function public.reassign_review_items(
  p_campaign_id uuid,
  p_from_id uuid,
  p_to_id uuid,
  p_reason text,
  p_ends_on date,
  p_right_ids uuid[] default null
) returns uuid
language plpgsql security definer
set search_path = ''
set statement_timeout = '2min'
as $$
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent réattribuer des revues.');
  return private.create_delegation('reassign', p_campaign_id, p_from_id, p_to_id, p_reason, p_ends_on, p_right_ids);
end;
$$;

-- rpc('revoke_delegation', { p_delegation_id }): the delegator, whoever created it, admin and rssi end a delegation
-- at once; the decisions already taken stay.
create function public.revoke_delegation(p_delegation_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  target public.review_delegations;
begin
  if auth.uid() is null then
    raise exception 'Vous devez être connecté.' using errcode = '42501';
  end if;
  select * into target from public.review_delegations d where d.id = p_delegation_id for update;
  if target.id is null
     or not (auth.uid() in (target.delegator_id, target.created_by) or private.is_admin_or_rssi()) then
    raise exception 'Délégation introuvable.' using errcode = 'P0001';
  end if;
  if target.revoked_at is not null then
    raise exception 'Cette délégation est déjà révoquée.' using errcode = 'P0001';
  end if;
  update public.review_delegations d set revoked_at = private.clock(), revoked_by = auth.uid() where d.id = target.id;
  perform private.write_audit(
    'revoke_delegation', 'review_delegations', target.id::text,
    jsonb_build_object('campaign_id', target.campaign_id, 'delegator_id', target.delegator_id,
                       'delegate_id', target.delegate_id)
  );
end;
$$;

-- A leaver's live delegations, given or received, end when they are deactivated (each audited); reactivating them does
-- not revive them.
create function private.end_delegations_of_leaver() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  ended record;
begin
  for ended in
    update public.review_delegations d
       set revoked_at = private.clock(), revoked_by = auth.uid()
     where new.id in (d.delegator_id, d.delegate_id) and d.revoked_at is null and d.ends_on >= current_date
    returning d.id, d.campaign_id, d.delegator_id, d.delegate_id
  loop
    perform private.write_audit(
      'revoke_delegation', 'review_delegations', ended.id::text,
      jsonb_build_object('campaign_id', ended.campaign_id, 'delegator_id', ended.delegator_id,
                         'delegate_id', ended.delegate_id, 'reason', 'Compte désactivé')
    );
  end loop;
  return null;
end;
$$;

revoke execute on function private.end_delegations_of_leaver() from public;

-- rpc('my_delegations') → the delegations the caller gave or received, newest first, with both names, the campaign,
-- how many items (null: all) and whether it is still in force.
create function public.my_delegations()
returns table (
  id uuid,
  campaign_id uuid,
  campaign_name text,
  delegator_id uuid,
  delegator_name text,
  delegate_id uuid,
  delegate_name text,
  items_count integer,
  reason text,
  ends_on date,
  created_at timestamptz,
  revoked_at timestamptz,
  in_force boolean
)
language sql stable
set search_path = ''
as $$
  select d.id, c.id, c.name, d.delegator_id, g.first_name || ' ' || g.last_name, d.delegate_id,
         e.first_name || ' ' || e.last_name, cardinality(d.item_ids), d.reason, d.ends_on, d.created_at, d.revoked_at,
         d.revoked_at is null and d.ends_on >= current_date and c.status in ('active', 'completed')
    from public.review_delegations d
    join public.campaigns c on c.id = d.campaign_id
    join public.users g on g.id = d.delegator_id
    join public.users e on e.id = d.delegate_id
   where (select auth.uid()) in (d.delegator_id, d.delegate_id)
   order by d.created_at desc, d.id
   limit 200
$$;

revoke execute on function
  public.delegate_review_items(uuid, uuid, text, date, uuid[]),
  public.reassign_review_items(uuid, uuid, uuid, text, date, uuid[]),
  public.revoke_delegation(uuid),
  public.my_delegations()
  from public, anon;
grant execute on function
  public.delegate_review_items(uuid, uuid, text, date, uuid[]),
  public.reassign_review_items(uuid, uuid, uuid, text, date, uuid[]),
  public.revoke_delegation(uuid),
  public.my_delegations()
  to authenticated;

-- ─── Fallback reviewers ──────────────────────────────────────────────────────────────────────────────────────────

-- rpc('set_campaign_fallback_reviewers', { p_campaign_id, p_user_ids }): admin and rssi set the whole list (empty: none)
-- of a draft or active campaign; audited with the list before and after.
create function public.set_campaign_fallback_reviewers(p_campaign_id uuid, p_user_ids uuid[]) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  target public.campaigns;
  wanted uuid[];
  before uuid[];
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent choisir les relecteurs de secours.');
  select * into target from public.campaigns c where c.id = p_campaign_id for update;
  if target.id is null then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;
  if target.status not in ('draft', 'active') then
    raise exception 'La campagne « % » est clôturée : ses relecteurs de secours ne changent plus.', target.name
      using errcode = 'P0001';
  end if;
  select coalesce(array_agg(distinct x order by x), '{}') into wanted from unnest(coalesce(p_user_ids, '{}')) x where x is not null;
  if cardinality(wanted) > 20 then
    raise exception 'Vingt relecteurs de secours au plus par campagne.' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(wanted) x where not exists (select 1 from public.users u where u.id = x and u.active)) then
    raise exception 'Un relecteur de secours choisi est introuvable ou désactivé.' using errcode = '22023';
  end if;
  select coalesce(array_agg(f.user_id order by f.user_id), '{}') into before
    from public.campaign_fallback_reviewers f where f.campaign_id = target.id;
  if before = wanted then
    return;
  end if;
  delete from public.campaign_fallback_reviewers f where f.campaign_id = target.id and f.user_id <> all (wanted);
  insert into public.campaign_fallback_reviewers (campaign_id, user_id, created_by)
  select target.id, x, auth.uid() from unnest(wanted) x
  on conflict do nothing;
  perform private.write_audit(
    'set_fallback_reviewers', 'campaigns', target.id::text,
    jsonb_build_object('changes', jsonb_build_object('fallback_reviewers', jsonb_build_object('old', to_jsonb(before), 'new', to_jsonb(wanted))))
  );
end;
$$;

revoke execute on function public.set_campaign_fallback_reviewers(uuid, uuid[]) from public, anon;
grant execute on function public.set_campaign_fallback_reviewers(uuid, uuid[]) to authenticated;
