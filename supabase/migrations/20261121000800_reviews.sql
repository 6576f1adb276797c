-- Reviews seen from each person (SPEC §2 user and manager dashboards, Mes revues, Équipe, Profil;
-- ARCHITECTURE §4 and §6): the queue of rights awaiting the caller's decision, its count for the header, its summary
-- per campaign and stage for the reviewers' dashboards, the manager's team progress and dashboard counters, a
-- person's decision history and the user's deadline. Every figure is computed here over all the rows concerned, so
-- nothing depends on fetching rights into the browser or is cut at the API's 1000-row page; every list is paged (at
-- most 1000 rows a call).
--
-- Every function runs as the caller (security invoker): row-level security applies as everywhere else, and a queue
-- is a part of what its owner may read anyway. Who may decide what is not restated here: a right is in the caller's
-- queue exactly when private.review_verdicts (20261121000600_rights_and_decisions.sql), the verdict validate_user_right
-- enforces, accepts a decision by the caller on it. The candidate sets below only narrow the search to what an index
-- finds quickly (a holder's rights, a team's, an application's: no index of user_rights covers its status, which the
-- workflow changes heap-only, 20261121000600_rights_and_decisions.sql); each is a superset of what the verdict accepts.
--
-- These figures read user_rights, the inventory, not the campaigns' items: a queue, a team's or a holder's counters
-- are about where each right stands now, that is in its latest campaign, which is the active one while it runs, and
-- user_rights carries exactly that status (validate_user_right sets the right and its item together). A campaign's own
-- figures, which must not change once it is closed, come from its items (20261121000900_reporting.sql).
--
-- Definitions (SPEC §2, §4, §9):
--   * pending right     = status pending;
--   * validated right, refused right: private.validated_statuses(), private.refused_statuses()
--                         (20261121000100_types_and_helpers.sql);
--   * decided right     = any status but pending; progress = round(100 × decided / rights), null when no rights
--                         (SPEC §4's campaign progress, applied to a person's or a team's rights);
--   * inactivity        = never used, or last used more than 90 days ago (last_used_at < now − 90 days), which
--                         suggests refusing the right; days_unused counts the whole days since the last use.

-- ─── The reviewer queue ──────────────────────────────────────────────────────────────────────────────────────────

-- The rights that may await the caller's decision at the caller's stage, filtered as asked: the rights in the scope of
-- the caller's stage (found by index) in one of its waiting states (constants there, folded when the function is
-- planned). The five candidate sets are gated by the caller's stage (an initplan evaluated once), so only one of them
-- is ever read. Cheap to find, a candidate is not yet a right of the queue: private.review_queue_rows judges it.
create function private.review_queue_candidates(
  p_campaign_id uuid,
  p_application_id uuid,
  p_status public.right_status
)
returns setof uuid
language sql stable
set search_path = ''
-- Its cost estimate (the five sets, of which one is read) passes JIT's threshold: compiling took about 70 ms of a
-- 120 ms call at ten times the large dataset, for a query that runs in 25 ms.
set jit = off
as $$
  with candidates as (
    -- The holder: their own rights.
    select ur.id, ur.campaign_id, ur.application_id, ur.status
      from public.user_rights ur
     where (select private.my_review_stage()) = 'user'
       and ur.user_id = (select auth.uid())
       and ur.status = any (private.waiting_states('user'))
    union all
    -- The manager: the rights of the people whose manager they are.
    select ur.id, ur.campaign_id, ur.application_id, ur.status
      from public.users member
      join public.user_rights ur on ur.user_id = member.id
     where (select private.my_review_stage()) = 'manager'
       and member.manager_id = (select auth.uid())
       and ur.status = any (private.waiting_states('manager'))
    union all
    -- The BPO Métier, the BPO Groupe, the RA: the rights on the applications they hold that office for.
    select ur.id, ur.campaign_id, ur.application_id, ur.status
      from public.applications owned
      join public.user_rights ur on ur.application_id = owned.id
     where (select private.my_review_stage()) = 'bpo_metier'
       and owned.bpo_metier_id = (select auth.uid())
       and ur.status = any (private.waiting_states('bpo_metier'))
    union all
    select ur.id, ur.campaign_id, ur.application_id, ur.status
      from public.applications owned
      join public.user_rights ur on ur.application_id = owned.id
     where (select private.my_review_stage()) = 'bpo_groupe'
       and owned.bpo_groupe_id = (select auth.uid())
       and ur.status = any (private.waiting_states('bpo_groupe'))
    union all
    select ur.id, ur.campaign_id, ur.application_id, ur.status
      from public.applications owned
      join public.user_rights ur on ur.application_id = owned.id
     where (select private.my_review_stage()) = 'ra'
       and owned.ra_id = (select auth.uid())
       and ur.status = any (private.waiting_states('ra'))
  )
  select c.id
    from candidates c
   where (p_campaign_id is null or c.campaign_id = p_campaign_id)
     and (p_application_id is null or c.application_id = p_application_id)
     and (p_status is null or c.status = p_status)
$$;

-- Of the given rights (candidates), those awaiting the caller's decision, with what the screen shows about each: a
-- right is kept only if private.review_verdicts accepts a decision on it. The candidates narrow the search, the verdict
-- decides. Given the ids rather than finding them, so that review_queue judges one page of candidates at a time.
create function private.review_queue_rows(p_right_ids uuid[])
returns table (
  right_id uuid,
  holder_id uuid,
  holder_first_name text,
  holder_last_name text,
  holder_name text,
  holder_email text,
  holder_position text,
  holder_department text,
  application_id uuid,
  application_name text,
  role_name text,
  account_type public.account_type,
  justification text,
  status public.right_status,
  granted_at timestamptz,
  last_used_at timestamptz,
  campaign_id uuid,
  campaign_name text,
  campaign_status public.campaign_status,
  campaign_end_date date,
  stage public.review_stage,
  approve_status public.right_status,
  refuse_status public.right_status,
  days_unused integer,
  suggests_refusal boolean,
  recommendation text
)
language sql stable
set search_path = ''
as $$
  select
    v.right_id,
    v.holder_id,
    v.holder_first_name,
    v.holder_last_name,
    v.holder_first_name || ' ' || v.holder_last_name,
    v.holder_email,
    v.holder_position,
    v.holder_department,
    v.application_id,
    v.application_name,
    v.role_name,
    v.account_type,
    v.justification,
    v.status,
    v.granted_at,
    v.last_used_at,
    v.campaign_id,
    v.campaign_name,
    v.campaign_status,
    v.campaign_end_date,
    v.stage,
    case when v.approve_refusal is null then (select private.decision_status(private.my_review_stage(), 'approved')) end,
    case when v.refuse_refusal is null then (select private.decision_status(private.my_review_stage(), 'refused')) end,
    -- Inactivity (SPEC §9): never used, or not used for more than 90 days, suggests refusing; so does a holder who
    -- left (deactivated: 20261121001200_directory_sync.sql), whatever the right's use.
    case when v.last_used_at is not null
      then greatest(floor(extract(epoch from (now() - v.last_used_at)) / 86400), 0)::integer
    end,
    not holder.active or v.last_used_at is null or v.last_used_at < now() - interval '90 days',
    case
      when not holder.active then 'Refuser : compte désactivé'
      when v.last_used_at is null then 'Jamais utilisé'
      when v.last_used_at < now() - interval '90 days'
        then format('Inutilisé depuis %s jours', floor(extract(epoch from (now() - v.last_used_at)) / 86400)::integer)
    end
  from private.review_verdicts v
  join public.users holder on holder.id = v.holder_id
  where v.right_id = any (p_right_ids)
    and v.refusal is null
$$;

revoke execute on function private.review_queue_candidates(uuid, uuid, public.right_status) from public;
revoke execute on function private.review_queue_rows(uuid[]) from public;
grant execute on function private.review_queue_candidates(uuid, uuid, public.right_status) to authenticated, service_role;
grant execute on function private.review_queue_rows(uuid[]) to authenticated, service_role;

-- The rights awaiting the caller's decision for someone else, once each: delegated to them, or without a reviewer in a
-- campaign of which they are a fallback reviewer (private.acting_verdicts, 20261121000750_delegations.sql). These are
-- the rights Mes revues lists under « Droits qui me sont confiés » (public.delegated_review_queue, which picks the same
-- row for a right acted on in two ways), with what the counts below filter and group on. Security definer: the
-- verdict is the owner's alone, since it reads the delegator's rights, which row-level security hides from the
-- delegate; only counts leave this file. PL/pgSQL, so that it may name a function of a later migration.
create function private.acting_queue_rows()
returns table (
  right_id uuid,
  campaign_id uuid,
  campaign_name text,
  campaign_status public.campaign_status,
  campaign_end_date date,
  application_id uuid,
  status public.right_status,
  stage public.review_stage,
  acting_as text,
  on_behalf_of uuid,
  on_behalf_of_name text
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select distinct on (ur.id)
           ur.id, c.id, c.name, c.status, c.end_date, ur.application_id, ur.status, v.stage, v.acting_as,
           v.on_behalf_of, v.on_behalf_of_name
      from private.acting_verdicts(null) v
      join public.user_rights ur on ur.id = v.right_id
      join public.campaigns c on c.id = ur.campaign_id
     where v.approve_refusal is null or v.refuse_refusal is null
     order by ur.id, v.acting_as desc, v.ends_on desc nulls last;
end;
$$;

revoke execute on function private.acting_queue_rows() from public;
grant execute on function private.acting_queue_rows() to authenticated, service_role;

-- rpc('review_queue', { p_campaign_id?, p_application_id?, p_status?, p_after_id?, p_limit? }) → rows ordered by
-- right_id. Paging: pass the last right_id of a page as p_after_id for the next (keyset: no right is skipped or seen
-- twice while others are decided); p_limit between 1 and 1000 (default 1000). Filters: null = all. An empty queue
-- for admin and rssi, who take no review decision.
--   approve_status / refuse_status: the status each button gives (refuse_status is null when only closing is
--   possible: the RA closes as treated a right already awaiting treatment).
--   days_unused (null = never used), suggests_refusal, recommendation ('Jamais utilisé', 'Inutilisé depuis N jours'
--   or null): the inactivity recommendation.
create function public.review_queue(
  p_campaign_id uuid default null,
  p_application_id uuid default null,
  p_status public.right_status default null,
  p_after_id uuid default null,
  p_limit integer default 1000
)
returns table (
  right_id uuid,
  holder_id uuid,
  holder_first_name text,
  holder_last_name text,
  holder_name text,
  holder_email text,
  holder_position text,
  holder_department text,
  application_id uuid,
  application_name text,
  role_name text,
  account_type public.account_type,
  justification text,
  status public.right_status,
  granted_at timestamptz,
  last_used_at timestamptz,
  campaign_id uuid,
  campaign_name text,
  campaign_status public.campaign_status,
  campaign_end_date date,
  stage public.review_stage,
  approve_status public.right_status,
  refuse_status public.right_status,
  days_unused integer,
  suggests_refusal boolean,
  recommendation text
)
language plpgsql stable
set search_path = ''
as $$
-- Judging a candidate costs far more than finding it (the verdict reads its holder, application and campaign): at ten
-- times the large dataset, judging all of a manager's 15,114 candidates to return the first 100 took 260-400 ms. So
-- the candidates after the cursor are found and sorted first (about 20 ms there), then judged in consecutive slices of
-- that order, each slice's accepted rights returned in order, until the page is full: the same rows, in the same
-- order, as judging them all. A slice twice the size of the one before, when candidates were turned down, keeps the
-- rounds few.
declare
  candidates uuid[];
  slice_size integer := p_limit;
  judged integer := 0;
  returned integer := 0;
  found_now integer;
begin
  perform private.require_page(p_limit);
  candidates := array(
    select c.id
      from private.review_queue_candidates(p_campaign_id, p_application_id, p_status) c(id)
     where p_after_id is null or c.id > p_after_id
     order by c.id
  );
  while returned < p_limit and judged < cardinality(candidates) loop
    return query
      select q.*
        from private.review_queue_rows(candidates[judged + 1 : judged + slice_size]) q
       order by q.right_id
       limit p_limit - returned;
    get diagnostics found_now = row_count;
    returned := returned + found_now;
    judged := judged + slice_size;
    slice_size := slice_size * 2;
  end loop;
end;
$$;

-- rpc('review_queue_count', { p_campaign_id?, p_application_id?, p_status? }) → integer: how many rights await the
-- caller's decision, their own queue and the rights they decide for someone else (delegated, or as a fallback
-- reviewer), each right once: everything Mes revues shows waiting for them (the header's bell calls it without
-- arguments).
create function public.review_queue_count(
  p_campaign_id uuid default null,
  p_application_id uuid default null,
  p_status public.right_status default null
) returns integer
language sql stable
set search_path = ''
as $$
  select count(*)::integer
    from (
      select q.right_id
        from private.review_queue_rows(
          array(select private.review_queue_candidates(p_campaign_id, p_application_id, p_status))
        ) q
      union
      select a.right_id
        from private.acting_queue_rows() a
       where (p_campaign_id is null or a.campaign_id = p_campaign_id)
         and (p_application_id is null or a.application_id = p_application_id)
         and (p_status is null or a.status = p_status)
    ) waiting
$$;

revoke execute on function public.review_queue(uuid, uuid, public.right_status, uuid, integer) from public, anon;
revoke execute on function public.review_queue_count(uuid, uuid, public.right_status) from public, anon;
grant execute on function public.review_queue(uuid, uuid, public.right_status, uuid, integer) to authenticated, service_role;
grant execute on function public.review_queue_count(uuid, uuid, public.right_status) to authenticated, service_role;

-- rpc('review_queue_summary') → what awaits the caller's decision counted per campaign, stage and for whom, for the
-- dashboards: campaign_id, campaign_name, campaign_status and end_date (null for rights in no campaign; the RA treats
-- refusals after the campaign's completion, past its end date), stage, acting_as (null for the caller's own queue,
-- 'delegate' or 'fallback' for the rights they decide for someone else), on_behalf_of and on_behalf_of_name (the
-- delegator; null otherwise), rights_count; the nearest end date first, the caller's own queue before what is
-- delegated. The same rights as review_queue_count, each once, so the counts add up to the header's bell.
create function public.review_queue_summary()
returns table (
  campaign_id uuid,
  campaign_name text,
  campaign_status public.campaign_status,
  end_date date,
  stage public.review_stage,
  acting_as text,
  on_behalf_of uuid,
  on_behalf_of_name text,
  rights_count integer
)
language sql stable
set search_path = ''
as $$
  with own as (
    select q.right_id, q.campaign_id, q.campaign_name, q.campaign_status, q.campaign_end_date, q.stage,
           null::text as acting_as, null::uuid as on_behalf_of, null::text as on_behalf_of_name
      from private.review_queue_rows(array(select private.review_queue_candidates(null, null, null))) q
  ), waiting as (
    select * from own
    union all
    select a.right_id, a.campaign_id, a.campaign_name, a.campaign_status, a.campaign_end_date, a.stage, a.acting_as,
           a.on_behalf_of, a.on_behalf_of_name
      from private.acting_queue_rows() a
     where a.right_id not in (select own.right_id from own)
  )
  select w.campaign_id, w.campaign_name, w.campaign_status, w.campaign_end_date, w.stage, w.acting_as, w.on_behalf_of,
         w.on_behalf_of_name, count(*)::integer
    from waiting w
   group by w.campaign_id, w.campaign_name, w.campaign_status, w.campaign_end_date, w.stage, w.acting_as,
            w.on_behalf_of, w.on_behalf_of_name
   order by w.campaign_end_date nulls last, w.campaign_name, w.campaign_id, w.acting_as nulls first, w.stage,
            w.on_behalf_of_name, w.on_behalf_of
$$;

revoke execute on function public.review_queue_summary() from public, anon;
grant execute on function public.review_queue_summary() to authenticated, service_role;

-- rpc('review_conflicts', { p_right_ids }) → the separation-of-duties conflicts of the given rights that await the
-- caller's decision, for the page of Mes revues on screen and the validation dialog (at most 1000 ids a call): one
-- row per (right, rule, conflicting right) with right_id, rule_id, rule_name, other_right_id, other_role_name,
-- other_application_name, by right, rule and application. A conflict is what rssi_compliance counts as a violation
-- of an incompatible_roles rule (20261121000900_reporting.sql): an enabled rule lists the right's role and another
-- role its holder also holds, both within the rule's scope (any application for a global rule, else the rule's own).
-- Security definer: control rules are readable by admin and rssi only, and a reviewer must see the holder's other
-- right even on an application they do not review, to refuse one of the two knowing the combination. It answers only
-- for rights in the caller's queue (private.review_verdicts, the queue's own test); any other id is left out.
-- Set-based over the page: the rules' role lists are unfolded once, then joined to the holders' rights by index.
create function public.review_conflicts(p_right_ids uuid[])
returns table (
  right_id uuid,
  rule_id uuid,
  rule_name text,
  other_right_id uuid,
  other_role_name text,
  other_application_name text
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality(p_right_ids), 0) > 1000 then
    raise exception 'Au plus 1000 droits par demande.' using errcode = '22023';
  end if;
  return query
    with queued as (
      select v.right_id, v.holder_id, v.role_name, v.application_id
        from private.review_verdicts v
       where v.right_id = any (p_right_ids)
         and v.refusal is null
    ),
    rules as (
      select r.id, r.name, r.application_id, array(
          select distinct btrim(e.value #>> '{}')
            from jsonb_array_elements(r.parameters -> 'incompatible_roles') e
           where jsonb_typeof(e.value) = 'string' and btrim(e.value #>> '{}') <> ''
        ) as roles
        from public.control_rules r
       where r.enabled
         and jsonb_typeof(r.parameters -> 'incompatible_roles') = 'array'
    )
    select q.right_id, r.id, r.name, o.id, o.role_name, a.name
      from queued q
      join rules r
        on q.role_name = any (r.roles)
       and (r.application_id is null or r.application_id = q.application_id)
      join public.user_rights o
        on o.user_id = q.holder_id
       and o.role_name = any (r.roles)
       and o.role_name <> q.role_name
       and (r.application_id is null or o.application_id = r.application_id)
      join public.applications a on a.id = o.application_id
     order by q.right_id, r.name, r.id, a.name, o.role_name, o.id;
end;
$$;

revoke execute on function public.review_conflicts(uuid[]) from public, anon;
grant execute on function public.review_conflicts(uuid[]) to authenticated, service_role;

-- ─── The manager's team ──────────────────────────────────────────────────────────────────────────────────────────

-- rpc('team_progress', { p_campaign_id? }) → one row per person whose manager is the caller (ARCHITECTURE §6), by
-- last then first name, with their rights counted (all their rights, or those of one campaign): rights_count,
-- pending_count, validated_count, refused_count, treatment_required_count (status treatment_required: refused, the RA
-- has yet to act), treated_count (status treated), progress (null when they hold no right). Every status is in
-- exactly one of the five counts, so they add up to rights_count, as the screen's columns must. A person with no
-- report gets no row.
create function public.team_progress(p_campaign_id uuid default null)
returns table (
  user_id uuid,
  first_name text,
  last_name text,
  full_name text,
  email text,
  "position" text,
  department text,
  rights_count integer,
  pending_count integer,
  validated_count integer,
  refused_count integer,
  treatment_required_count integer,
  treated_count integer,
  progress integer
)
language sql stable
set search_path = ''
as $$
  select
    m.id,
    m.first_name,
    m.last_name,
    m.first_name || ' ' || m.last_name,
    m.email,
    m.position,
    m.department,
    count(ur.id)::integer,
    count(ur.id) filter (where ur.status = 'pending')::integer,
    count(ur.id) filter (where ur.status = any (private.validated_statuses()))::integer,
    count(ur.id) filter (where ur.status = any (private.refused_statuses()))::integer,
    count(ur.id) filter (where ur.status = 'treatment_required')::integer,
    count(ur.id) filter (where ur.status = 'treated')::integer,
    case when count(ur.id) > 0
      then round(100.0 * count(ur.id) filter (where ur.status <> 'pending') / count(ur.id))::integer
    end
  from public.users m
  left join public.user_rights ur
    on ur.user_id = m.id
   and (p_campaign_id is null or ur.campaign_id = p_campaign_id)
  where m.manager_id = (select auth.uid())
  group by m.id
  order by m.last_name, m.first_name, m.id
$$;

-- rpc('manager_dashboard', { p_campaign_id? }) → one row: team_size (people whose manager is the caller), and over
-- their rights (all, or one campaign's): rights_count, pending_count (SPEC's "En attente": status pending),
-- validated_count, refused_count, treatment_required_count, treated_count (the five add up to rights_count), progress;
-- awaiting_decision_count = the rights in the caller's own review queue (the table 'Droits à valider pour l'équipe'; the
-- rights delegated to them are counted apart, by review_queue_summary).
create function public.manager_dashboard(p_campaign_id uuid default null)
returns table (
  team_size integer,
  rights_count integer,
  pending_count integer,
  validated_count integer,
  refused_count integer,
  treatment_required_count integer,
  treated_count integer,
  progress integer,
  awaiting_decision_count integer
)
language sql stable
set search_path = ''
as $$
  with rights as (
    select ur.status
      from public.users m
      join public.user_rights ur on ur.user_id = m.id
     where m.manager_id = (select auth.uid())
       and (p_campaign_id is null or ur.campaign_id = p_campaign_id)
  )
  select
    (select count(*) from public.users m where m.manager_id = (select auth.uid()))::integer,
    (select count(*) from rights)::integer,
    (select count(*) from rights r where r.status = 'pending')::integer,
    (select count(*) from rights r where r.status = any (private.validated_statuses()))::integer,
    (select count(*) from rights r where r.status = any (private.refused_statuses()))::integer,
    (select count(*) from rights r where r.status = 'treatment_required')::integer,
    (select count(*) from rights r where r.status = 'treated')::integer,
    (select case when count(*) > 0 then round(100.0 * count(*) filter (where r.status <> 'pending') / count(*))::integer end
       from rights r),
    (select count(*)
       from private.review_queue_rows(array(select private.review_queue_candidates(p_campaign_id, null, null))))::integer
$$;

revoke execute on function public.team_progress(uuid) from public, anon;
revoke execute on function public.manager_dashboard(uuid) from public, anon;
grant execute on function public.team_progress(uuid) to authenticated, service_role;
grant execute on function public.manager_dashboard(uuid) to authenticated, service_role;

-- ─── The holder ──────────────────────────────────────────────────────────────────────────────────────────────────

-- rpc('my_rights_summary') → one row over the caller's own rights: rights_count, pending_count, validated_count,
-- refused_count, treatment_required_count, treated_count (the user dashboard's counters Droits, En attente, Validés,
-- Refusés, En traitement, Traités; the last five add up to the first).
create function public.my_rights_summary()
returns table (
  rights_count integer,
  pending_count integer,
  validated_count integer,
  refused_count integer,
  treatment_required_count integer,
  treated_count integer
)
language sql stable
set search_path = ''
as $$
  select
    count(*)::integer,
    count(*) filter (where ur.status = 'pending')::integer,
    count(*) filter (where ur.status = any (private.validated_statuses()))::integer,
    count(*) filter (where ur.status = any (private.refused_statuses()))::integer,
    count(*) filter (where ur.status = 'treatment_required')::integer,
    count(*) filter (where ur.status = 'treated')::integer
  from public.user_rights ur
  where ur.user_id = (select auth.uid())
$$;

-- rpc('my_review_deadline') → one row per active campaign holding the caller's pending rights, the nearest end date
-- first: campaign_id, campaign_name, end_date, pending_count. The user dashboard shows the first row's end_date; no
-- row when nothing of the caller's awaits their decision.
create function public.my_review_deadline()
returns table (
  campaign_id uuid,
  campaign_name text,
  end_date date,
  pending_count integer
)
language sql stable
set search_path = ''
as $$
  select c.id, c.name, c.end_date, count(*)::integer
    from public.user_rights ur
    join public.campaigns c on c.id = ur.campaign_id
   where ur.user_id = (select auth.uid())
     and ur.status = 'pending'
     and c.status = 'active'
   group by c.id
   order by c.end_date, c.name, c.id
$$;

revoke execute on function public.my_rights_summary() from public, anon;
revoke execute on function public.my_review_deadline() from public, anon;
grant execute on function public.my_rights_summary() to authenticated, service_role;
grant execute on function public.my_review_deadline() to authenticated, service_role;

-- ─── Decision history ────────────────────────────────────────────────────────────────────────────────────────────

-- rpc('decision_history', { p_scope?, p_before_at?, p_before_id?, p_limit? }) → decisions, newest first (decided_at,
-- then decision_id, descending).
--   p_scope: 'taken' (default: the decisions the caller took), 'received' (the decisions taken on the caller's rights,
--   theirs included) or 'all' (both).
--   Paging: pass the last row's decided_at and decision_id as p_before_at and p_before_id for the next page; p_limit
--   between 1 and 1000 (default 100).
-- Each row is the decision's own record (right_decisions keeps what was decided on, also after the right is gone),
-- with the campaign's name when the campaign still exists. Row-level security of right_decisions applies.
create function public.decision_history(
  p_scope text default 'taken',
  p_before_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 100
)
returns table (
  decision_id uuid,
  right_id uuid,
  stage public.review_stage,
  decision public.review_decision,
  from_status public.right_status,
  to_status public.right_status,
  comment text,
  decided_at timestamptz,
  decided_by uuid,
  decided_by_name text,
  decided_by_email text,
  holder_id uuid,
  holder_name text,
  holder_email text,
  application_id uuid,
  application_name text,
  role_name text,
  account_type public.account_type,
  campaign_id uuid,
  campaign_name text
)
language plpgsql stable
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  -- The page ends strictly before this (decided_at, id); the first page before every decision.
  before_at timestamptz := coalesce(p_before_at, 'infinity');
  before_id uuid := coalesce(p_before_id, '00000000-0000-0000-0000-000000000000');
begin
  perform private.require_page(p_limit);
  if p_scope is null or p_scope not in ('taken', 'received', 'all') then
    raise exception 'Historique inconnu : « % » (attendu : taken, received ou all).', coalesce(p_scope, 'vide')
      using errcode = '22023';
  end if;
  if p_before_id is not null and p_before_at is null then
    raise exception 'Le curseur de page demande la date de la dernière décision reçue.' using errcode = '22023';
  end if;

  -- Each branch reads at most one page from its index, newest first (none when the scope leaves it out: a limit
  -- rather than a false condition, which would leave a costly plan for a branch that never runs); the page is then
  -- taken from their union.
  return query
    with taken as (
      -- Named columns: the decision's IP is not the caller's to read (see the grant on right_decisions).
      select d.id, d.right_id, d.stage, d.decision, d.from_status, d.to_status, d.comment, d.decided_at, d.decided_by,
             d.decided_by_name, d.decided_by_email, d.holder_id, d.holder_name, d.holder_email, d.application_id,
             d.application_name, d.role_name, d.account_type, d.campaign_id
        from public.right_decisions d
       where d.decided_by = me
         and (d.decided_at, d.id) < (before_at, before_id)
       order by d.decided_at desc, d.id desc
       limit case when p_scope in ('taken', 'all') then p_limit else 0 end
    ),
    received as (
      -- On the caller's rights: the holder recorded at the time...
      select d.id, d.right_id, d.stage, d.decision, d.from_status, d.to_status, d.comment, d.decided_at, d.decided_by,
             d.decided_by_name, d.decided_by_email, d.holder_id, d.holder_name, d.holder_email, d.application_id,
             d.application_name, d.role_name, d.account_type, d.campaign_id
        from public.right_decisions d
       where d.holder_id = me
         and (d.decided_at, d.id) < (before_at, before_id)
       order by d.decided_at desc, d.id desc
       limit case when p_scope in ('received', 'all') then p_limit else 0 end
    ),
    received_now as (
      -- ...and on the rights the caller holds now (a profile an administrator created may since have been linked to
      -- the caller's account, while the decisions keep the provisional id).
      select d.id, d.right_id, d.stage, d.decision, d.from_status, d.to_status, d.comment, d.decided_at, d.decided_by,
             d.decided_by_name, d.decided_by_email, d.holder_id, d.holder_name, d.holder_email, d.application_id,
             d.application_name, d.role_name, d.account_type, d.campaign_id
        from public.user_rights ur
      join public.right_decisions d on d.right_id = ur.id
       where ur.user_id = me
         and (d.decided_at, d.id) < (before_at, before_id)
       order by d.decided_at desc, d.id desc
       limit case when p_scope in ('received', 'all') then p_limit else 0 end
    ),
    mine as (
      select * from taken
      union
      select * from received
      union
      select * from received_now
    )
    select d.id, d.right_id, d.stage, d.decision, d.from_status, d.to_status, d.comment, d.decided_at,
           d.decided_by, d.decided_by_name, d.decided_by_email, d.holder_id, d.holder_name, d.holder_email,
           d.application_id, d.application_name, d.role_name, d.account_type, d.campaign_id, c.name
      from mine d
      left join public.campaigns c on c.id = d.campaign_id
     order by d.decided_at desc, d.id desc
     limit p_limit;
end;
$$;

revoke execute on function public.decision_history(text, timestamptz, uuid, integer) from public, anon;
grant execute on function public.decision_history(text, timestamptz, uuid, integer) to authenticated, service_role;
