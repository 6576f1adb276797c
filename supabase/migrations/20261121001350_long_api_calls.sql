-- The API calls that may outlast their role's statement timeout (authenticated and service_role 8 s, as on hosted
-- Supabase), each given its own limit. PostgREST reads a called function's `statement_timeout` and applies it to the
-- call's transaction instead of the role's; a table's PATCH has no such setting, hence set_campaign_status.
-- Sized on the bench at scale 10 (2 M rights): a start takes about a minute, a completion a minute and a half.

-- Starts, completes or archives a campaign with the caller's own rights (the campaigns policies and column grants
-- decide, the status triggers do what the change sets off), under a limit a large campaign's start or completion fits.
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

-- Whole-campaign and whole-directory work: the scheduled passes (an automatic start), the evidence pack's readers,
-- the audit chain's check (a million events at scale 10), the imports and the reassignment of a reviewer's items.
alter function public.run_campaign_schedule set statement_timeout = '5min';
alter function public.run_notification_schedule set statement_timeout = '2min';
alter function public.campaign_evidence set statement_timeout = '2min';
alter function public.campaign_evidence_items set statement_timeout = '2min';
alter function public.campaign_evidence_journal set statement_timeout = '2min';
alter function public.verify_audit_chain set statement_timeout = '2min';
alter function public.rssi_compliance set statement_timeout = '1min';
alter function public.import_directory set statement_timeout = '2min';
alter function public.import_applications set statement_timeout = '2min';
alter function public.import_user_rights set statement_timeout = '2min';
alter function public.apply_review_decisions set statement_timeout = '1min';
alter function public.reassign_review_items set statement_timeout = '2min';
