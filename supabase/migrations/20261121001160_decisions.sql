-- The decision: who may decide an item (one rule, private.decision_authority), the decision itself
-- (validate_user_right) and the decisions sent back in a stage file (apply_review_decisions). What a decision sets off
-- beyond its own rows is private.apply_decision_effects (20261121001155_effects.sql). After every area it reads.

-- ─── Who may decide an item ──────────────────────────────────────────────────────────────────────────────────────
-- For the caller and a right, whether the caller may give it new_status now, at which stage and on whose behalf.
-- Every decision goes through it (validate_user_right, and through it the offline file). Its invariants:
--   * four eyes: nobody records decisions at two stages of one item, whatever path led there (own role, delegation,
--     fallback reviewer, reassignment): private.answered_other_stage. An item whose stage reviewer already answered
--     another stage has no reviewer at that stage and goes to the campaign's fallback reviewers
--     (private.stage_without_reviewer); a delegate who answered another stage is not given it, and the item stays
--     with the reviewer who delegated it;
--   * leavers have no power: a deactivated person decides nothing, whether for themselves, as a delegate or as a
--     fallback reviewer, and nobody decides for them;
--   * nobody decides at the manager, BPO or RA stage on a right they hold; the RA only treats refusals.
-- The queues read the same rule in bulk through its two halves, private.review_verdicts (one's own stage) and
-- private.acting_verdicts (someone else's stage); tests/db/authority-model.test.ts checks after random steps that
-- what the queues offer is exactly what this function allows.
-- refusal: null when allowed, otherwise 'signed_out', 'no_profile', 'inactive', 'no_role', 'wrong_status' (the status
-- is not one the caller's stage or acting stage gives), 'not_found', then private.review_verdicts' codes
-- ('own_right', 'out_of_scope', 'not_waiting', 'no_campaign', 'campaign_closed', 'four_eyes'). For 'four_eyes',
-- refused_stage and refused_people say whose answer at which other stage refused it.
create function private.decision_authority(p_right_id uuid, p_new_status public.right_status)
returns table (
  stage public.review_stage,
  on_behalf_of uuid,
  on_behalf_of_name text,
  acting_as text,
  refusal text,
  refused_stage public.review_stage,
  refused_people uuid[],
  campaign_name text
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  caller public.users;
  own_stage public.review_stage;
  may_act boolean;
  own_refusal text;
  acting record;
begin
  refused_people := array_remove(array[(select auth.uid())], null);
  select * into caller from public.users u where u.id = (select auth.uid());
  refusal := case when (select auth.uid()) is null then 'signed_out'
                  when caller.id is null then 'no_profile'
                  when not caller.active then 'inactive' end;
  if refusal is not null then
    return next;
    return;
  end if;

  own_stage := private.review_stage_for(caller.role);
  stage := own_stage;
  refused_stage := own_stage;
  -- Whether the caller may act at someone else's stage is asked only when their own stage does not settle it.
  if not coalesce(p_new_status in (private.decision_status(own_stage, 'approved'), private.decision_status(own_stage, 'refused')), false) then
    may_act := exists (select 1 from private.acting_verdicts(p_right_id));
    if own_stage is null and not may_act then
      refusal := 'no_role';
    elsif not may_act then
      refusal := 'wrong_status';
    end if;
    if refusal is not null then
      return next;
      return;
    end if;
  end if;

  select case when p_new_status = private.decision_status(own_stage, 'approved') then v.approve_refusal
              when p_new_status = private.decision_status(own_stage, 'refused') then v.refuse_refusal
              else 'out_of_scope' end,
         v.campaign_name
    into own_refusal, campaign_name
    from private.review_verdicts v
   where v.right_id = p_right_id;
  if not found then
    refusal := 'not_found';
    return next;
    return;
  end if;
  refusal := own_refusal;
  if refusal is null then
    return next;
    return;
  end if;
  may_act := coalesce(may_act, exists (select 1 from private.acting_verdicts(p_right_id)));
  if not may_act then
    return next;
    return;
  end if;

  -- One's own stage first; otherwise a delegate or a fallback reviewer decides at the reviewer's stage, under the
  -- reviewer's verdict. A refusal of one's own stage that says more than « outside your scope » is kept.
  select a.stage, a.on_behalf_of, a.on_behalf_of_name, a.acting_as,
         case when p_new_status = private.decision_status(a.stage, 'approved') then a.approve_refusal
              else a.refuse_refusal end as refusal
    into acting
    from private.acting_verdicts(p_right_id) a
   where p_new_status in (private.decision_status(a.stage, 'approved'), private.decision_status(a.stage, 'refused'))
   order by (case when p_new_status = private.decision_status(a.stage, 'approved') then a.approve_refusal
                  else a.refuse_refusal end) is null desc
   limit 1;
  if not found then
    if own_stage is null or p_new_status is null
       or p_new_status not in (private.decision_status(own_stage, 'approved'), private.decision_status(own_stage, 'refused')) then
      refusal := 'wrong_status';
    end if;
  elsif acting.refusal is null then
    stage := acting.stage;
    on_behalf_of := acting.on_behalf_of;
    on_behalf_of_name := acting.on_behalf_of_name;
    acting_as := acting.acting_as;
    refusal := null;
  elsif refusal = 'out_of_scope' then
    refusal := acting.refusal;
    refused_stage := acting.stage;
    refused_people := array_remove(array[(select auth.uid()), acting.on_behalf_of], null);
  end if;
  return next;
end;
$$;

revoke execute on function private.decision_authority(uuid, public.right_status) from public;
grant execute on function private.decision_authority(uuid, public.right_status) to authenticated, service_role;

-- Raises the French error that says which rule of private.decision_authority refused a decision, with the code
-- PostgREST turns into 401/403 (42501), 400 (22023) or 400 (P0001).
create function private.refuse_decision(
  p_refusal text,
  p_right public.user_rights,
  p_new_status public.right_status,
  p_campaign_name text,
  p_refused_stage public.review_stage,
  p_refused_people uuid[]
) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  case p_refusal
    when 'signed_out' then
      raise exception 'Vous devez être connecté pour statuer sur un droit.' using errcode = '42501';
    when 'no_profile' then
      raise exception 'Votre profil utilisateur est introuvable.' using errcode = '42501';
    when 'inactive' then
      raise exception 'Votre compte est désactivé : vous ne pouvez plus statuer sur des droits.' using errcode = '42501';
    when 'no_role' then
      raise exception 'Votre rôle ne permet pas de statuer sur des droits.'
        using errcode = '42501', hint = 'Invalid user role for validation';
    when 'wrong_status' then
      raise exception 'Le statut « % » ne peut pas être donné à votre étape de revue.',
        coalesce(private.right_status_label(p_new_status), 'vide')
        using errcode = '22023';
    when 'not_found' then
      raise exception 'Ce droit est introuvable.' using errcode = 'P0001';
    when 'own_right' then
      raise exception 'Vous ne pouvez pas statuer sur un droit que vous détenez vous-même.' using errcode = '42501';
    when 'out_of_scope' then
      raise exception 'Ce droit ne fait pas partie de votre périmètre de revue.' using errcode = '42501';
    when 'not_waiting' then
      raise exception 'Ce droit n''attend pas votre décision : son statut est « % ».', private.right_status_label(p_right.status)
        using errcode = 'P0001';
    when 'no_campaign' then
      raise exception 'Ce droit ne fait partie d''aucune campagne de revue en cours.' using errcode = 'P0001';
    when 'campaign_closed' then
      raise exception 'La campagne « % » n''est pas en cours : les décisions y sont closes.', p_campaign_name
        using errcode = 'P0001';
    when 'four_eyes' then
      raise exception 'Principe des quatre yeux : % déjà statué sur ce droit à l''étape « % » de cette campagne ; une autre personne doit le revoir à l''étape « % ».',
        case when cardinality(p_refused_people) = 1 then 'vous avez' else 'vous ou la personne pour qui vous agissez avez' end,
        private.review_stage_label(private.answered_other_stage(p_right.id, p_right.campaign_id, p_refused_people, p_refused_stage)),
        private.review_stage_label(p_refused_stage)
        using errcode = '42501';
    else
      raise exception 'Décision refusée (%).', p_refusal using errcode = 'P0001';
  end case;
end;
$$;

revoke execute on function
  private.refuse_decision(text, public.user_rights, public.right_status, text, public.review_stage, uuid[])
  from public;

-- ─── The decision ────────────────────────────────────────────────────────────────────────────────────────────────
-- The audit entry of a decision: what was decided at which stage, from and to which status, and for whom when the
-- caller acted for someone else. p_right is the right as it was before the decision.
create function private.audit_decision(
  p_right public.user_rights,
  p_new_status public.right_status,
  p_outcome public.review_decision,
  p_comment text,
  p_item_id uuid,
  p_decision_id uuid,
  p_stage public.review_stage,
  p_acting_as text,
  p_on_behalf_of uuid,
  p_on_behalf_of_name text
) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit(
    'decide',
    'user_rights',
    p_right.id::text,
    jsonb_build_object(
      'stage', p_stage,
      'decision', p_outcome,
      'from_status', p_right.status,
      'to_status', p_new_status,
      'comment', p_comment,
      'holder_id', p_right.user_id,
      'application_id', p_right.application_id,
      'campaign_id', p_right.campaign_id,
      'item_id', p_item_id,
      'decision_id', p_decision_id
    ) || case when p_acting_as is not null then jsonb_build_object(
      'acting_as', p_acting_as,
      'on_behalf_of', p_on_behalf_of,
      'on_behalf_of_name', p_on_behalf_of_name
    ) else '{}'::jsonb end
  );
end;
$$;

revoke execute on function
  private.audit_decision(public.user_rights, public.right_status, public.review_decision, text, uuid, uuid,
                         public.review_stage, text, uuid, text)
  from public;

-- The review workflow of ARCHITECTURE §4, under the rule above. The caller's account and the right are locked before
-- the rule is read: of two decisions arriving together exactly one finds the right still waiting, and a deactivation
-- waits for a decision its leaver takes part in (or is seen by it).
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
  authority record;
  target public.user_rights;
  app public.applications;
  clean_comment text := nullif(btrim(comment), '');
  outcome public.review_decision;
  decision_id uuid;
  decision_time timestamptz;
  item public.campaign_items;
  item_id uuid;
begin
  select * into caller from public.users u where u.id = caller_id for share;
  select * into target from public.user_rights ur where ur.id = validate_user_right.right_id for update;
  select * into authority from private.decision_authority(validate_user_right.right_id, new_status);
  -- What is wrong with the caller or the status is said before anything about the comment or the right.
  if authority.refusal in ('signed_out', 'no_profile', 'inactive', 'no_role', 'wrong_status') then
    perform private.refuse_decision(authority.refusal, target, new_status, null, null, null);
  end if;
  if char_length(clean_comment) > 2000 then
    raise exception 'Le commentaire ne doit pas dépasser 2000 caractères.' using errcode = '22001';
  end if;
  -- The reviewer acted for must still be active when the decision is written (a deactivation waits for it).
  if authority.refusal is null and authority.on_behalf_of is not null then
    perform 1 from public.users u where u.id = authority.on_behalf_of and u.active for share;
    if not found then
      raise exception 'La personne pour qui vous agissez a été désactivée : sa délégation a pris fin.' using errcode = '42501';
    end if;
  end if;
  if authority.refusal is not null then
    perform private.refuse_decision(authority.refusal, target, new_status, authority.campaign_name,
                                    authority.refused_stage, authority.refused_people);
  end if;
  select * into app from public.applications a where a.id = target.application_id;
  outcome := case when new_status = private.decision_status(authority.stage, 'approved') then 'approved'
                  else 'refused' end::public.review_decision;

  -- From here to the decision's row, the statement triggers that stand aside for a writer applying its effects itself
  -- do nothing (20261121001155_effects.sql): this function has checked the campaign under the right's lock, and
  -- applies the effects of the one right, item and decision it writes (private.apply_decision_effects, below).
  perform set_config('recertif.writer_applies_effects', 'on', true);
  -- This function writes its own, richer audit entry for the change.
  perform set_config('recertif.audit_suppressed', 'on', true);
  update public.user_rights ur
     set status = new_status,
         validated_at = private.clock(),
         validated_by = caller_id,
         review_comment = clean_comment
   where ur.id = target.id;
  perform set_config('recertif.audit_suppressed', 'off', true);

  -- The item of the right's latest campaign, under the right's lock taken above: the completion locks the right before
  -- its item too, so the two agree on which of them came first. After the campaign closed, this is the RA's treatment,
  -- which is part of that campaign's outcome.
  update public.campaign_items i
     set status = new_status
   where i.campaign_id = target.campaign_id and i.right_id = target.id
  returning i.* into item;
  item_id := item.id;
  if target.campaign_id is not null and item_id is null then
    raise exception 'Ce droit n''a pas d''élément de revue dans la campagne « % » : la décision n''est pas enregistrée.',
      authority.campaign_name
      using errcode = 'P0001';
  end if;

  insert into public.right_decisions (
    right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name, account_type,
    campaign_id, item_id, stage, decision, from_status, to_status, comment, decided_by, decided_by_email, decided_by_name,
    on_behalf_of, on_behalf_of_name, acting_as
  )
  select
    target.id, holder.id, holder.email, holder.first_name || ' ' || holder.last_name, app.id, app.name,
    target.role_name, target.account_type,
    target.campaign_id, item_id, authority.stage, outcome, target.status, new_status, clean_comment, caller_id,
    caller.email, caller.first_name || ' ' || caller.last_name,
    authority.on_behalf_of, authority.on_behalf_of_name, authority.acting_as
  from public.users holder
  where holder.id = target.user_id
  returning right_decisions.id, right_decisions.decided_at into decision_id, decision_time;
  perform set_config('recertif.writer_applies_effects', 'off', true);
  perform private.apply_decision_effects(target, new_status, item, decision_time, outcome);

  perform private.audit_decision(target, new_status, outcome, clean_comment, item_id, decision_id,
                                 authority.stage, authority.acting_as, authority.on_behalf_of, authority.on_behalf_of_name);

  return jsonb_build_object('success', true, 'status', new_status, 'decision_id', decision_id, 'item_id', item_id);
end;
$$;

revoke execute on function public.validate_user_right(uuid, public.right_status, text) from public, anon;
grant execute on function public.validate_user_right(uuid, public.right_status, text) to authenticated;

-- ─── Decisions sent back in a file ───────────────────────────────────────────────────────────────────────────────
-- What makes a stage file sent back unreadable as a whole, refused before any line is read: no signed-in caller, a
-- stage without a file, a body that is not a list of at least one and at most p_max decisions.
create function private.check_decisions_file(p_stage public.review_stage, p_decisions jsonb, p_max integer) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Vous devez être connecté pour appliquer des décisions.' using errcode = '42501';
  end if;
  if p_stage is null or p_stage not in ('manager', 'bpo_metier', 'bpo_groupe') then
    raise exception 'Seuls les fichiers des étapes manager, BPO Métier et BPO Groupe peuvent être renvoyés.' using errcode = '22023';
  end if;
  if p_decisions is null or jsonb_typeof(p_decisions) <> 'array' then
    raise exception 'Les décisions doivent être une liste.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_decisions) = 0 then
    raise exception 'Le fichier ne contient aucune décision.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_decisions) > p_max then
    raise exception 'Le fichier contient % décisions : au plus % peuvent être appliquées à la fois.',
      jsonb_array_length(p_decisions), p_max
      using errcode = '22023';
  end if;
end;
$$;

revoke execute on function private.check_decisions_file(public.review_stage, jsonb, integer) from public;
grant execute on function private.check_decisions_file(public.review_stage, jsonb, integer) to authenticated;

-- A reviewer who filled in their stage's Excel file offline (manager, BPO Métier or BPO Groupe) sends it back: each
-- decision of the file goes through validate_user_right as the caller (security invoker), so that a file can never do
-- what the reviewer could not on screen: the same scope, stage, own-right, delegation and closed-campaign rules, the
-- same decision rows and audit entries. All or nothing: if one line is refused, none is applied. With p_dry_run the
-- same work is done and always rolled back, so that the preview says exactly what applying would do.
-- p_decisions: [{ "line": the file's row number, "right_id": uuid, "decision": "approved" | "refused", "comment" }].
-- Returns { applied, count, lines: [{ line, right_id, ok, reason, holder_name, application_name, role_name }] }, the
-- names read as the caller (row-level security), for the preview to show which right an identifier really is.
create function public.apply_review_decisions(
  p_stage public.review_stage,
  p_decisions jsonb,
  p_dry_run boolean default false
) returns jsonb
language plpgsql security invoker
set search_path = ''
set statement_timeout = '1min'
as $$
declare
  -- Each decision is a full validate_user_right in its own subtransaction: beyond this, one request would outlast
  -- the API's statement timeout. The file reader refuses larger files before they are sent.
  max_decisions constant integer := 2000;
  entry record;
  right_uuid uuid;
  outcome public.review_decision;
  reason text;
  -- An array, appended to in place: a jsonb value would be copied whole at each line.
  results jsonb[] := '{}'::jsonb[];
  failures integer := 0;
  names record;
begin
  perform private.check_decisions_file(p_stage, p_decisions, max_decisions);

  begin
    for entry in
      select d.line, d.raw_id, d.decision, d.comment,
             -- The line where the same right first appears, when it is not this one.
             nullif(first_value(d.line_text) over (partition by lower(btrim(d.raw_id)) order by d.ord), d.line_text) as first_line
        from (
          select e.ord, e.value ->> 'right_id' as raw_id, e.value ->> 'decision' as decision, e.value ->> 'comment' as comment,
                 case when jsonb_typeof(e.value -> 'line') = 'number' then (e.value ->> 'line')::numeric::integer end as line,
                 coalesce(e.value ->> 'line', '?') || '#' || e.ord as line_text
            from jsonb_array_elements(p_decisions) with ordinality e(value, ord)
        ) d
       order by d.ord
    loop
      right_uuid := null;
      reason := null;
      outcome := case entry.decision when 'approved' then 'approved' when 'refused' then 'refused' end::public.review_decision;
      begin
        right_uuid := entry.raw_id::uuid;
      exception when invalid_text_representation then
        reason := 'Identifiant de droit illisible.';
      end;
      if reason is null and right_uuid is null then
        reason := 'Identifiant de droit manquant.';
      elsif reason is null and outcome is null then
        reason := 'Décision illisible : indiquez « Validé » ou « Refusé ».';
      elsif reason is null and entry.first_line is not null then
        reason := format('Ce droit figure déjà à la ligne %s du fichier.', split_part(entry.first_line, '#', 1));
      end if;
      if reason is null then
        begin
          perform public.validate_user_right(right_uuid, private.decision_status(p_stage, outcome), entry.comment);
        exception when others then
          reason := sqlerrm;
        end;
      end if;
      if reason is not null then
        failures := failures + 1;
      end if;
      select h.first_name || ' ' || h.last_name as holder_name, a.name as application_name, ur.role_name
        into names
        from public.user_rights ur
        join public.users h on h.id = ur.user_id
        join public.applications a on a.id = ur.application_id
       where ur.id = right_uuid;
      results := results || jsonb_build_object(
        'line', entry.line,
        'right_id', entry.raw_id,
        'ok', reason is null,
        'reason', reason,
        'holder_name', names.holder_name,
        'application_name', names.application_name,
        'role_name', names.role_name
      );
    end loop;
    if p_dry_run or failures > 0 then
      -- Undoes every decision taken above (this block's subtransaction); what the loop learnt stays in its variables.
      raise exception using errcode = 'RCA01';
    end if;
  exception when sqlstate 'RCA01' then
    null;
  end;

  return jsonb_build_object(
    'applied', not p_dry_run and failures = 0,
    'count', jsonb_array_length(p_decisions) - failures,
    'lines', to_jsonb(results)
  );
end;
$$;

revoke execute on function public.apply_review_decisions(public.review_stage, jsonb, boolean) from public, anon;
grant execute on function public.apply_review_decisions(public.review_stage, jsonb, boolean) to authenticated;

