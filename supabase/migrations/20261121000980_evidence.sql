-- ─── Evidence pack ───────────────────────────────────────────────────────────────────────────────────────────────

-- The record an auditor asks for, of one closed campaign, for admin and rssi: the summary (campaign_evidence), its
-- items with every stage's decision (campaign_evidence_items) and its audit events (campaign_evidence_journal).
-- Security definer because the pack carries what the audit trail recorded (who started and completed the campaign,
-- each decision's IP, the campaign's events), which row-level security keeps to the RSSI: these functions check the
-- caller's role themselves and read only the one campaign's record. The seal stays the RSSI's, as verify_audit_chain
-- is: for an admin, campaign_evidence leaves it out and the workbook says so.

-- The three readers run without JIT: their statements over a campaign's hundreds of thousands of items are estimated
-- past the JIT threshold, while each reads by index and is done in about a tenth of a second (compiling took longer,
-- as it did for campaign_export_rows).
-- The campaign, once the caller may have its pack and it is closed.
create function private.require_evidence_campaign(p_campaign_id uuid) returns public.campaigns
language plpgsql stable security definer
set search_path = ''
as $$
declare
  target public.campaigns;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent télécharger le rapport de campagne.');
  select c.* into target from public.campaigns c where c.id = p_campaign_id;
  if target.id is null then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;
  if target.status <> all (private.closed_campaign_statuses()) then
    raise exception 'Le rapport de campagne n''existe que pour une campagne terminée ou archivée (celle-ci est « % »).',
      private.campaign_status_label(target.status)
      using errcode = '22023';
  end if;
  return target;
end;
$$;

revoke execute on function private.require_evidence_campaign(uuid) from public, anon;

-- rpc('campaign_evidence', { p_campaign_id }) → one jsonb object:
--   campaign     id, name, description, status, start_date, end_date, created_at, created_by_name,
--                application_name (null = every application), account_type (null = every type);
--   started, completed   { at, by_name } from the audit events start_campaign and complete_campaign (latest), or null;
--   items, reviewed, undecided, progress
--                the number of items, those reviewed (« revus »), those Terminer sent to the RA undecided (« non
--                décidés à la clôture ») and the review rate: campaign_progress's rights_count, reviewed_count,
--                undecided_count and progress, read from it;
--   by_status    { status: count } over the items (the final outcome of each);
--   stages       [{ stage, approved, refused, awaiting }]: items whose latest decision at that stage approved or
--                refused them, and those left waiting for that stage (pending and validated_user for the manager,
--                validated_manager for BPO Métier, validated_bpo_metier for BPO Groupe, refused and treatment_required
--                for the RA);
--   decisions_after_end   decisions on the items taken after the end date;
--   generated_at the time of the pack; seal: verify_audit_chain's answer (rssi), null for an admin.
create function public.campaign_evidence(p_campaign_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
set statement_timeout = '2min'
set jit = off
as $$
declare
  target public.campaigns := private.require_evidence_campaign(p_campaign_id);
  result jsonb;
begin
  with counts as (
    select i.status, count(*) as n
      from public.campaign_items i
     where i.campaign_id = target.id
     group by i.status
  ),
  figures as (
    select p.rights_count, p.reviewed_count, p.undecided_count, p.progress
      from public.campaign_progress p
     where p.campaign_id = target.id
  ),
  -- A decision on an item carries the item's campaign (the decisions' insert guard checks it), so the campaign's
  -- decisions are read by their own campaign index, without joining its hundreds of thousands of items.
  latest as (
    select distinct on (d.item_id, d.stage) d.stage, d.decision
      from public.right_decisions d
     where d.campaign_id = target.id and d.item_id is not null
     order by d.item_id, d.stage, d.decided_at desc, d.id desc
  ),
  stages as (
    select s.stage, s.ord,
           (select count(*) from latest l where l.stage = s.stage and l.decision = 'approved') as approved,
           (select count(*) from latest l where l.stage = s.stage and l.decision = 'refused') as refused,
           (select coalesce(sum(k.n), 0) from counts k where k.status = any (s.awaiting)) as awaiting
      from (values
        ('user'::public.review_stage, 1, array[]::public.right_status[]),
        ('manager', 2, array['pending', 'validated_user']::public.right_status[]),
        ('bpo_metier', 3, array['validated_manager']::public.right_status[]),
        ('bpo_groupe', 4, array['validated_bpo_metier']::public.right_status[]),
        ('ra', 5, array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe',
                        'treatment_required']::public.right_status[])
      ) as s (stage, ord, awaiting)
  ),
  events as (
    select distinct on (l.action) l.action, l."timestamp", coalesce(l.user_name, l.user_email) as by_name
      from public.audit_logs l
     where l.resource_type = 'campaigns' and l.resource_id = target.id::text
       and l.action in ('start_campaign', 'complete_campaign')
     order by l.action, l.id desc
  )
  select jsonb_build_object(
    'campaign', jsonb_build_object(
      'id', target.id,
      'name', target.name,
      'description', target.description,
      'status', target.status,
      'start_date', target.start_date,
      'end_date', target.end_date,
      'created_at', target.created_at,
      'created_by_name', (select u.first_name || ' ' || u.last_name from public.users u where u.id = target.created_by),
      'application_name', (select a.name from public.applications a where a.id = target.application_id),
      'account_type', target.account_type
    ),
    'started', (select jsonb_build_object('at', e."timestamp", 'by_name', e.by_name) from events e where e.action = 'start_campaign'),
    'completed', (select jsonb_build_object('at', e."timestamp", 'by_name', e.by_name) from events e where e.action = 'complete_campaign'),
    'items', (select f.rights_count from figures f),
    'reviewed', (select f.reviewed_count from figures f),
    'undecided', (select f.undecided_count from figures f),
    'progress', (select f.progress from figures f),
    'by_status', (select coalesce(jsonb_object_agg(k.status, k.n), '{}'::jsonb) from counts k),
    'stages', (select jsonb_agg(jsonb_build_object('stage', s.stage, 'approved', s.approved, 'refused', s.refused,
                                                   'awaiting', s.awaiting) order by s.ord)
                 from stages s),
    'decisions_after_end', (
      select count(*)
        from public.right_decisions d
       where d.campaign_id = target.id and d.item_id is not null and d.decided_at >= (target.end_date + 1)::timestamptz
    ),
    'generated_at', now(),
    'seal', case when private.is_rssi() then public.verify_audit_chain() end
  )
    into result;
  return result;
end;
$$;

-- rpc('campaign_evidence_items', { p_campaign_id, p_after_id?, p_limit? }) → one JSON array of the campaign's items in
-- right id order (keyset: pass the last right id of a page as p_after_id; p_limit 1 to 10,000). A pack of 200,000
-- items is read in pages of thousands, so each item is an array in a fixed order rather than an object repeating its
-- keys, and its times are milliseconds since 1970 (numbers a browser reads without parsing text):
--   [right_id, holder_name, holder_email, manager_name, application_name, role_name, account_type, granted_at,
--    last_used_at, justification, status, decisions]
-- decisions is null or the item's latest decision at each stage, in stage order, each
--   [stage, decision, decided_by_name, decided_at, comment, ip_address]
-- the IP being the one the decision recorded, as its audit event did.
create function public.campaign_evidence_items(p_campaign_id uuid, p_after_id uuid default null, p_limit integer default 5000)
returns json
language plpgsql stable security definer
set search_path = ''
set statement_timeout = '2min'
set jit = off
as $$
declare
  target public.campaigns := private.require_evidence_campaign(p_campaign_id);
  result json;
begin
  if p_limit is null or p_limit < 1 or p_limit > 10000 then
    raise exception 'La taille de page doit être comprise entre 1 et 10 000.' using errcode = '22023';
  end if;
  -- The page's decisions are read in one pass over its items and grouped, rather than by a subquery per item: a
  -- third less time a page.
  with page as (
    select *
      from public.campaign_items c
     where c.campaign_id = target.id
       and c.right_id > coalesce(p_after_id, '00000000-0000-0000-0000-000000000000')
     order by c.right_id
     limit p_limit
  ),
  latest as (
    select distinct on (x.item_id, x.stage) x.item_id, x.stage, x.decision, x.decided_by_name, x.decided_at, x.comment,
           x.ip_address
      from public.right_decisions x
     where x.item_id in (select p.id from page p)
     order by x.item_id, x.stage, x.decided_at desc, x.id desc
  ),
  decisions as (
    select d.item_id,
           json_agg(json_build_array(
             d.stage, d.decision, d.decided_by_name, floor(extract(epoch from d.decided_at) * 1000)::bigint, d.comment,
             host(d.ip_address)
           ) order by d.stage) as list
      from latest d
     group by d.item_id
  )
  select coalesce(json_agg(json_build_array(
           i.right_id, i.holder_name, i.holder_email, i.manager_name, i.application_name, i.role_name, i.account_type,
           floor(extract(epoch from i.granted_at) * 1000)::bigint,
           floor(extract(epoch from i.last_used_at) * 1000)::bigint,
           i.justification, i.status, d.list
         ) order by i.right_id), '[]'::json)
    into result
    from page i
    left join decisions d on d.item_id = i.id;
  return result;
end;
$$;

-- rpc('campaign_evidence_journal', { p_campaign_id, p_after_id?, p_limit? }) → the campaign's audit events in id
-- order (keyset on id): those on the campaign itself, the decisions taken in it, and the other events on its items'
-- rights between its start and its completion (its dates when those events are missing).
create function public.campaign_evidence_journal(p_campaign_id uuid, p_after_id bigint default null, p_limit integer default 1000)
returns table (
  id bigint,
  "timestamp" timestamptz,
  user_name text,
  user_email text,
  action text,
  resource_type text,
  resource_id text,
  details jsonb,
  ip_address text
)
language plpgsql stable security definer
set search_path = ''
set statement_timeout = '2min'
set jit = off
as $$
declare
  target public.campaigns := private.require_evidence_campaign(p_campaign_id);
  window_start timestamptz;
  window_end timestamptz;
begin
  perform private.require_page(p_limit);
  select coalesce(max(l."timestamp") filter (where l.action = 'start_campaign'), target.start_date::timestamptz),
         coalesce(max(l."timestamp") filter (where l.action = 'complete_campaign'), (target.end_date + 1)::timestamptz)
    into window_start, window_end
    from public.audit_logs l
   where l.resource_type = 'campaigns' and l.resource_id = target.id::text;

  return query
    select l.id, l."timestamp", l.user_name, l.user_email, l.action, l.resource_type, l.resource_id, l.details,
           host(l.ip_address)
      from public.audit_logs l
     where l.id > coalesce(p_after_id, 0)
       and (
         (l.resource_type = 'campaigns' and l.resource_id = target.id::text)
         or (l.action = 'decide' and l.details ->> 'campaign_id' = target.id::text)
         or (
           l.resource_type = 'user_rights'
           and l."timestamp" between window_start and window_end
           -- One probe of the item key per event, as the page walks the log in id order: a set of 200,000 item ids
           -- outgrows work_mem, and PostgreSQL then rescanned the items for every event (7 s a page, 24 pages).
           -- The case keeps the cast to the rows whose resource_id is a right's id.
           and exists (
             select from public.campaign_items i
              where i.campaign_id = target.id
                and i.right_id = (case when l.resource_type = 'user_rights' then l.resource_id::uuid end)
           )
         )
       )
     order by l.id
     limit p_limit;
end;
$$;

revoke execute on function
  public.campaign_evidence(uuid),
  public.campaign_evidence_items(uuid, uuid, integer),
  public.campaign_evidence_journal(uuid, bigint, integer)
  from public, anon;

grant execute on function
  public.campaign_evidence(uuid),
  public.campaign_evidence_items(uuid, uuid, integer),
  public.campaign_evidence_journal(uuid, bigint, integer)
  to authenticated;
