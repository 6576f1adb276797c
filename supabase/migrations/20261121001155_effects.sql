-- What a change in one area sets off in another: every trigger that one area's tables fire into a later area's
-- functions, here after all of them, so that each area's file reads without the ones after it.
--
-- Chiefly what a decision sets off. A statement that changes rights, items or decisions is checked by the freeze of
-- closed campaigns (20261121000500_campaigns.sql, 20261121000600_rights_and_decisions.sql), counted in the RSSI
-- tallies and risk sets (20261121000900_reporting.sql), and tells the next reviewers and the campaign's creator
-- (20261121001100_notifications.sql), and is announced live (20261121001140_live_updates.sql). Those are statement
-- triggers, built for Démarrer, Terminer and the imports, which move hundreds of thousands of rows at once. A decision moves one right, one item and adds one decision:
-- validate_user_right (20261121001160_decisions.sql) sets recertif.writer_applies_effects for its own three
-- statements, and the statement triggers whose work it does itself stand aside (their `when`). The contract of that
-- setting: whoever sets it has checked the freeze under the right's lock and calls private.apply_decision_effects for
-- its one row. No API role can set it (tests/api/rest-security.test.ts); tests/db/decision-path.test.ts lists every
-- statement trigger on the decision's tables and fails when one lacks the guard or apply_decision_effects does not
-- name its function.
--
-- Triggers of one kind fire in the order of their names, wherever they are declared.

-- ─── What a decision sets off, for one row ───────────────────────────────────────────────────────────────────────
-- What the guarded statement triggers would do after a decision, done by validate_user_right for its one right
-- (p_right, as it was before), item (p_item, as it is now; null for a right outside any campaign) and decision:
-- - the freeze checks (guard_campaign_items, guard_closed_campaign_rights_update, guard_closed_campaign_decision) have
--   nothing to add: validate_user_right refuses a closed campaign but for the RA's treatment, which they allow, and
--   writes the decision on the item it has just moved;
-- - the RSSI tallies (tally_rights, tally_decisions): the right leaves its status for the new one, one decision is
--   counted in its hour, its campaign joins the decided scopes; the risk sets (track_holder_risks) have nothing to
--   count, a decision changing no holder, application, role or account type;
-- - the next reviewer's digest and the campaign fully decided (notify_items_moved), through the same two functions;
-- - the live update of the right's audience (announce_rights_changed), through the function it calls.
-- tests/db/rssi-tallies.test.ts compares the tallies with full counts after decisions (concurrent ones included), and
-- tests/db/notifications.test.ts checks the digests and the fully-decided notice that decisions leave.
create function private.apply_decision_effects(
  p_right public.user_rights,
  p_new_status public.right_status,
  p_item public.campaign_items,
  p_decided_at timestamptz,
  p_decision public.review_decision
) returns void
language plpgsql security definer
set search_path = ''
as $$
-- In place of the triggers that stand aside for it (tests/db/decision-path.test.ts reads these names):
-- private.tally_rights, private.tally_decisions, private.notify_items_moved and private.announce_rights_changed, done
-- below for the one row;
-- private.track_holder_risks, with nothing to count; and the freeze checks private.guard_campaign_items,
-- private.guard_closed_campaign_rights_update and private.guard_closed_campaign_decision, which validate_user_right
-- makes itself under the right's lock.
declare
  v_stage public.review_stage;
  v_reviewer uuid;
begin
  if p_new_status <> p_right.status then
    insert into private.rights_tally_delta (application_id, account_type, campaign_id, status, rights)
    values (p_right.application_id, p_right.account_type, p_right.campaign_id, p_right.status, -1),
           (p_right.application_id, p_right.account_type, p_right.campaign_id, p_new_status, 1);
  end if;
  insert into private.decisions_tally_delta (decided_hour, decision, account_type, right_known, decisions)
  values (date_trunc('hour', p_decided_at, 'UTC'), p_decision, p_right.account_type, true, 1);
  if p_right.campaign_id is not null and not exists (
    select 1 from private.decided_scopes s
     where s.campaign_id = p_right.campaign_id and s.application_id = p_right.application_id
       and s.account_type = p_right.account_type
  ) then
    insert into private.decided_scopes (campaign_id, application_id, account_type)
    values (p_right.campaign_id, p_right.application_id, p_right.account_type);
  end if;
  perform private.fold_tallies_when_due(3);
  perform private.announce_rights_of(array[p_right.user_id], array[p_right.application_id],
                                     array_remove(array[p_right.campaign_id], null));

  if p_item.id is null or p_new_status = p_right.status or not private.notifications_live() then
    return;
  end if;
  -- The next reviewer's digest, as notify_items_moved words it, unless four eyes gives the item to the fallback
  -- reviewers (its reviewer already answered another stage of it).
  v_stage := private.awaited_stage(p_new_status);
  v_reviewer := private.stage_reviewer(v_stage, p_item.manager_id, p_item.bpo_metier_id, p_item.bpo_groupe_id, p_item.ra_id);
  if v_stage <> 'manager' and v_reviewer is not null
     and private.answered_other_stage(p_item.right_id, p_item.campaign_id, array[v_reviewer], v_stage) is null then
    perform private.queue_stage_digests(jsonb_build_array(jsonb_build_object(
      'campaign_id', p_item.campaign_id, 'reviewer_id', v_reviewer, 'stage', v_stage, 'n', 1
    )));
  end if;
  -- An item still waiting for a reviewer keeps its campaign from being fully decided.
  if not (p_new_status in ('pending', 'validated_user', 'validated_manager')
          or p_new_status = 'validated_bpo_metier' and p_item.bpo_groupe_id is not null) then
    perform private.notify_campaigns_decided(array[p_item.campaign_id]);
  end if;
end;
$$;

revoke execute on function
  private.apply_decision_effects(public.user_rights, public.right_status, public.campaign_items, timestamptz, public.review_decision)
  from public;

-- ─── The RSSI tallies (20261121000900_reporting.sql) ─────────────────────────────────────────────────────────────
-- Always, so that the generated dataset (loaded with session_replication_role = replica) is tallied as it loads.
-- The update of rights and the insert of decisions stand aside for a decision (recertif.writer_applies_effects).
create trigger user_rights_tally_insert
  after insert on public.user_rights
  referencing new table as tallied_new
  for each statement execute function private.tally_rights();
create trigger user_rights_tally_update
  after update on public.user_rights
  referencing old table as tallied_old new table as tallied_new
  for each statement
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on')
  execute function private.tally_rights();
create trigger user_rights_tally_delete
  after delete on public.user_rights
  referencing old table as tallied_old
  for each statement execute function private.tally_rights();
alter table public.user_rights enable always trigger user_rights_tally_insert;
alter table public.user_rights enable always trigger user_rights_tally_update;
alter table public.user_rights enable always trigger user_rights_tally_delete;

create trigger user_rights_tally_relabel
  after update of application_id, account_type on public.user_rights
  for each row
  when ((new.application_id, new.account_type) is distinct from (old.application_id, old.account_type))
  execute function private.tally_relabelled_decisions();
alter table public.user_rights enable always trigger user_rights_tally_relabel;

create trigger right_decisions_tally_insert
  after insert on public.right_decisions
  referencing new table as decided_new
  for each statement
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on')
  execute function private.tally_decisions();
create trigger right_decisions_tally_update
  after update on public.right_decisions
  referencing old table as decided_old new table as decided_new
  for each statement execute function private.tally_decisions();
create trigger right_decisions_tally_delete
  after delete on public.right_decisions
  referencing old table as decided_old
  for each statement execute function private.tally_decisions();
alter table public.right_decisions enable always trigger right_decisions_tally_insert;
alter table public.right_decisions enable always trigger right_decisions_tally_update;
alter table public.right_decisions enable always trigger right_decisions_tally_delete;

-- ─── The RSSI risk sets (20261121000900_reporting.sql) ──────────────────────────────────────────────────────────
-- The update stands aside for a decision, which changes none of the columns a risk depends on.
create trigger user_rights_risks_insert
  after insert on public.user_rights
  referencing new table as risk_new
  for each statement execute function private.track_holder_risks();
-- Nor for a campaign's start or completion (recertif.bulk_stamped), which change only the workflow's columns.
create trigger user_rights_risks_update
  after update on public.user_rights
  referencing old table as risk_old new table as risk_new
  for each statement
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on'
        and current_setting('recertif.bulk_stamped', true) is distinct from 'on')
  execute function private.track_holder_risks();
create trigger user_rights_risks_delete
  after delete on public.user_rights
  referencing old table as risk_old
  for each statement execute function private.track_holder_risks();
alter table public.user_rights enable always trigger user_rights_risks_insert;
alter table public.user_rights enable always trigger user_rights_risks_update;
alter table public.user_rights enable always trigger user_rights_risks_delete;

create trigger control_rules_risks
  after insert or delete on public.control_rules
  for each row execute function private.track_rule_conflicts();
create trigger control_rules_risks_update
  after update on public.control_rules
  for each row
  when ((old.id, old.enabled, old.parameters, old.application_id) is distinct from (new.id, new.enabled, new.parameters, new.application_id))
  execute function private.track_rule_conflicts();
alter table public.control_rules enable always trigger control_rules_risks;
alter table public.control_rules enable always trigger control_rules_risks_update;

-- ─── Notifications (20261121001100_notifications.sql) ───────────────────────────────────────────────────────────
create trigger campaigns_notify_started
  after update of status on public.campaigns
  for each row
  when (old.status = 'draft' and new.status = 'active' and new.notifications_enabled)
  execute function private.notify_campaign_started();

-- Stands aside for a decision, which tells its one item's next reviewer itself (private.apply_decision_effects).
create trigger campaign_items_notify_moved
  after update on public.campaign_items
  referencing old table as changed_from new table as changed_to
  for each statement
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on')
  execute function private.notify_items_moved();

-- The person a reviewer's items are delegated or reassigned to is told (private.notify_delegation).
create trigger review_delegations_notify_delegate
  after insert on public.review_delegations
  for each row execute function private.notify_delegation();

-- ─── What a change to a person sets off ─────────────────────────────────────────────────────────────────────────
-- Nobody who is an application's RA or BPO Métier is deleted (20261121000400_applications.sql).
create trigger users_guard_application_owner
  before delete on public.users
  for each row execute function private.guard_application_owner_delete();

-- A leaver's delegations end (20261121000750_delegations.sql).
create trigger users_end_delegations_of_leaver
  after update of active on public.users
  for each row
  when (old.active and not new.active)
  execute function private.end_delegations_of_leaver();

-- ─── Live updates (20261121001140_live_updates.sql) ─────────────────────────────────────────────────────────────
-- One trigger per table and operation: PostgreSQL allows transition tables only on a trigger for a single event.
-- The update of rights stands aside for a decision, which announces its one right itself.
create trigger user_rights_announce_insert
  after insert on public.user_rights
  referencing new table as live_new_rows
  for each statement execute function private.announce_rights_changed();
create trigger user_rights_announce_update
  after update on public.user_rights
  referencing old table as live_old_rows new table as live_new_rows
  for each statement
  when (current_setting('recertif.writer_applies_effects', true) is distinct from 'on')
  execute function private.announce_rights_changed();
create trigger user_rights_announce_delete
  after delete on public.user_rights
  referencing old table as live_old_rows
  for each statement execute function private.announce_rights_changed();

do $$
declare
  target record;
begin
  for target in
    select * from (values
      ('users', 'private.announce_users_changed()'),
      ('applications', 'private.announce_applications_changed()'),
      ('campaigns', 'private.announce_campaigns_changed()'),
      ('control_rules', 'private.announce_staff_views_changed()')
    ) t (table_name, fn)
  loop
    execute format('create trigger %I after insert on public.%I referencing new table as live_new_rows '
                   'for each statement execute function %s', target.table_name || '_announce_insert', target.table_name, target.fn);
    execute format('create trigger %I after update on public.%I referencing old table as live_old_rows new table as live_new_rows '
                   'for each statement execute function %s', target.table_name || '_announce_update', target.table_name, target.fn);
    execute format('create trigger %I after delete on public.%I referencing old table as live_old_rows '
                   'for each statement execute function %s', target.table_name || '_announce_delete', target.table_name, target.fn);
  end loop;
end;
$$;

-- The audit trail only grows.
create trigger audit_logs_announce_insert
  after insert on public.audit_logs
  for each statement execute function private.announce_staff_views_changed();
