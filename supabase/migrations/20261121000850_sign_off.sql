-- Sign-off and who reviews what (ARCHITECTURE §4). A reviewer who has no item of a campaign stage left open certifies
-- it; the certificate keeps the time and the caller's IP and is audited. campaign_signoffs_for_evidence lists, for the
-- campaign page and the evidence pack, every reviewer of every stage with their items, what is left and their
-- signature. The counts are the review queue's own (20261121000800_reviews.sql), hence this file after it.
--
-- campaign_signoffs is written only through the security-definer functions of this file: no API role holds a write
-- grant on it.

-- A reviewer's certificate that they reviewed all their items of a campaign stage. The name and e-mail are copies, so
-- that the evidence still says who signed once the profile is gone.
create table public.campaign_signoffs (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  stage public.review_stage not null,
  reviewer_id uuid references public.users (id) on update cascade on delete set null,
  reviewer_email text not null,
  reviewer_name text not null,
  items_count integer not null,
  signed_at timestamptz not null default private.clock(),
  ip_address inet,
  constraint campaign_signoffs_once unique (campaign_id, stage, reviewer_id)
);
alter table public.campaign_signoffs enable row level security;

create index campaign_signoffs_reviewer_idx on public.campaign_signoffs (reviewer_id);

create policy "Reviewers may read their sign-offs; admins and the RSSI all" on public.campaign_signoffs
  for select to authenticated
  using (reviewer_id = (select auth.uid()) or (select private.is_admin_or_rssi()));

revoke all on public.campaign_signoffs from anon, authenticated, service_role;
grant select on public.campaign_signoffs to authenticated, service_role;

-- Who holds each waiting right of the given campaigns in their own queue: for each right whose latest campaign is one of
-- them and which awaits a decision (private.awaited_stage), the stage and the person private.review_verdicts would let
-- decide it by their own role, or a null reviewer when nobody may (the stage has no reviewer, the reviewer holds the
-- right, left, no longer has the stage's role, or answered another stage of it: four eyes), which is what the
-- campaign's fallback reviewers are for; a pending right held by a person of role user is also in their own queue, at
-- the user stage. The same rule as review_verdicts, stated for everybody at once rather than for the caller, so that
-- the Relecteurs dialog, the sign-off figures and the reminders count what each person's queue holds
-- (tests/db/review-counts.test.ts compares them, person by person, with review_queue). Read as the owner by the
-- functions that use it, which check who asks.
create function private.stage_deciders(p_campaign_ids uuid[])
returns table (campaign_id uuid, right_id uuid, holder_id uuid, stage public.review_stage, reviewer_id uuid)
language sql stable
set search_path = ''
as $$
  -- One pass over the items: the stage each status awaits is private.awaited_stage's, computed once per status
  -- (materialized, so that the call is not repeated per item) and hash-joined; the stage's reviewer and role
  -- (private.stage_reviewer, private.review_stage_for) are written out as expressions; four eyes reads the campaigns'
  -- decisions once, by campaign, right and person, hashed, rather than probing them per right: half the time of a call
  -- and a probe per right on the large dataset's 205,000-item campaign, for the same rows.
  with stage_awaited as materialized (
    select st.status, private.awaited_stage(st.status) as stage
      from unnest(enum_range(null::public.right_status)) st (status)
  ),
  answered as (
    select d.campaign_id, d.right_id, p.person, array_agg(distinct d.stage) as stages
      from public.right_decisions d
      cross join lateral unnest(array[d.decided_by, d.on_behalf_of]) p (person)
     where d.campaign_id = any (p_campaign_ids) and p.person is not null
     group by d.campaign_id, d.right_id, p.person
  ),
  waiting as (
    select i.campaign_id, ur.id as right_id, ur.user_id as holder_id, s.stage,
           case s.stage
             when 'manager' then h.manager_id
             when 'bpo_metier' then a.bpo_metier_id
             when 'bpo_groupe' then a.bpo_groupe_id
             when 'ra' then a.ra_id
           end as reviewer
      from public.campaign_items i
      join public.campaigns c on c.id = i.campaign_id
      join public.user_rights ur on ur.id = i.right_id and ur.campaign_id = i.campaign_id
      join public.users h on h.id = ur.user_id
      join public.applications a on a.id = ur.application_id
      join stage_awaited s on s.status = ur.status
     where i.campaign_id = any (p_campaign_ids)
       and s.stage is not null
       -- The RA treats refusals after the close too; every other stage decides only while the campaign runs.
       and (s.stage = 'ra' or c.status = 'active')
  )
  select w.campaign_id, w.right_id, w.holder_id, w.stage,
         case
           -- A role's name is its stage's (manager, bpo_metier, bpo_groupe, ra).
           when r.active and r.role::text = w.stage::text and r.id <> w.holder_id
                and (x.stages is null or x.stages <@ array[w.stage])
             then r.id
         end
    from waiting w
    left join public.users r on r.id = w.reviewer
    left join answered x on x.campaign_id = w.campaign_id and x.right_id = w.right_id and x.person = w.reviewer
  union all
  -- A pending right of a holder of role user is in their own queue too, at the user stage.
  select i.campaign_id, ur.id, ur.user_id, 'user', ur.user_id
    from public.campaign_items i
    join public.campaigns c on c.id = i.campaign_id and c.status = 'active'
    join public.user_rights ur on ur.id = i.right_id and ur.campaign_id = i.campaign_id and ur.status = 'pending'
    join public.users h on h.id = ur.user_id and h.active and h.role = 'user'
   where i.campaign_id = any (p_campaign_ids) and i.status = 'pending'
$$;

revoke execute on function private.stage_deciders(uuid[]) from public;


-- Every reviewer of every review stage of a campaign (user stage aside: holders attest their own rights) with their
-- items, how many are still open at that stage and their signature. The reviewer is the one the item recorded when the
-- campaign started; items without one (private.reviews_at), or whose reviewer has since been deactivated, are counted
-- under a null reviewer: those of the fallback reviewers (private.stage_without_reviewer). Read as the owner by the
-- functions below, which check who asks.
create function private.campaign_reviewers(p_campaign_id uuid)
returns table (
  stage public.review_stage,
  reviewer_id uuid,
  items_count integer,
  open_count integer
)
language sql stable
set search_path = ''
as $$
  -- The items are first counted by what the two tests depend on: the stage, its reviewer (the stage's own column),
  -- whether the holder is that reviewer, and the status. The tests then run once per group rather than four times
  -- per item (200,000 items: 2.4 s → 0.4 s), given the reviewer for the stage's column and, for the holder, the
  -- reviewer when they hold the right and null when someone else does, which reviews_at tells apart alike.
  -- Four eyes (private.answered_other_stage): a stage's reviewer who answered for another stage of the item is not its
  -- reviewer there, and the item goes to the fallback reviewers. Only a decision taken for someone else or as a
  -- fallback reviewer puts a person on a second stage (by their own role a person has one), so only those are read:
  -- once, into the (item, person, stage) triples they bar, which each item's stages are looked up in (a hashed
  -- subplan) rather than probing the item's decisions once per item and stage (200,000 items: 820,000 probes, 3.0 s
  -- → 0.5 s, the same rows).
  with barred as (
    select distinct d.item_id, p.person, s.stage
      from public.right_decisions d
      cross join lateral unnest(array[d.decided_by, d.on_behalf_of]) p (person)
      cross join (values ('manager'::public.review_stage), ('bpo_metier'), ('bpo_groupe'), ('ra')) s (stage)
     where d.campaign_id = p_campaign_id and d.acting_as is not null and d.item_id is not null
       and p.person is not null and d.stage <> s.stage
  ),
  grouped as (
    select s.stage, s.reviewer, s.reviewer is not distinct from i.holder_id as held, i.status,
           coalesce((i.id, s.reviewer, s.stage) in (select b.item_id, b.person, b.stage from barred b), false) as answered,
           count(*) as n
      from public.campaign_items i
      cross join lateral (
        values ('manager'::public.review_stage, i.manager_id), ('bpo_metier', i.bpo_metier_id),
               ('bpo_groupe', i.bpo_groupe_id), ('ra', i.ra_id)
      ) s (stage, reviewer)
     where i.campaign_id = p_campaign_id
     group by 1, 2, 3, 4, 5
  )
  select g.stage,
         case when private.reviews_at(g.stage, g.reviewer, case when g.held then g.reviewer end,
                                      g.reviewer, g.reviewer, g.reviewer, g.reviewer)
                   and r.active and not g.answered
           then g.reviewer end as reviewer_id,
         sum(g.n)::integer,
         coalesce(sum(g.n) filter (where private.open_at_stage(g.stage, g.status)), 0)::integer
    from grouped g
    left join public.users r on r.id = g.reviewer
   group by 1, 2
$$;

revoke execute on function private.campaign_reviewers(uuid) from public;

-- One reviewer's items of a campaign at a stage, as private.campaign_reviewers counts them, without counting everyone
-- else's: how many, how many are still open, and of those how many have not reached the stage (upcoming: still
-- reviewed at an earlier stage, or for the RA not refused). All null when the reviewer has none there.
create function private.reviewer_items(p_campaign_id uuid, p_reviewer uuid, p_stage public.review_stage)
returns table (items_count integer, open_count integer, upcoming_count integer)
language sql stable
set search_path = ''
as $$
  select count(*)::integer, (count(*) filter (where private.open_at_stage(p_stage, i.status)))::integer,
         (count(*) filter (where private.open_at_stage(p_stage, i.status)
                             and not i.status = any (private.waiting_states(p_stage))))::integer
    from public.campaign_items i
   where i.campaign_id = p_campaign_id
     -- private.reviews_at, written out so that a campaign of 200,000 items makes no function call per item.
     and i.holder_id <> p_reviewer
     and p_reviewer = case p_stage
       when 'manager' then i.manager_id
       when 'bpo_metier' then i.bpo_metier_id
       when 'bpo_groupe' then i.bpo_groupe_id
       when 'ra' then i.ra_id
     end
     -- An item the reviewer answered for at another stage went to the fallback reviewers (four eyes).
     and private.answered_other_stage(i.right_id, i.campaign_id, array[p_reviewer], p_stage) is null
  having count(*) > 0
$$;

revoke execute on function private.reviewer_items(uuid, uuid, public.review_stage) from public;

-- rpc('my_signoffs') → for each active campaign (and, for the RA, each completed one whose end date is less than 90
-- days ago: the RA treats refusals after the close) where the caller reviews items at their stage: how many, how many
-- are still open (the signature waits for none), of which waiting_count are in the caller's queue now and
-- upcoming_count have not reached their stage yet, and when the caller signed (null: not yet). waiting_count is the
-- queue's own count (private.review_queue_rows over the campaign's candidates, as review_queue and the bell read it),
-- so that the card never says more is left to decide than Mes revues shows. PL/pgSQL, so that it may name the queue's
-- functions of a later migration (20261121000800_reviews.sql).
create function public.my_signoffs()
returns table (
  campaign_id uuid,
  campaign_name text,
  stage public.review_stage,
  items_count integer,
  open_count integer,
  waiting_count integer,
  upcoming_count integer,
  signed_at timestamptz
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select c.id, c.name, me.stage, r.items_count, r.open_count,
           (select count(*)::integer
              from private.review_queue_rows(array(select private.review_queue_candidates(c.id, null, null)))),
           r.upcoming_count, s.signed_at
      from (select (select auth.uid()) as id, private.my_review_stage() as stage) me
      join public.campaigns c
        on c.status = 'active' or (me.stage = 'ra' and c.status = 'completed' and c.end_date > current_date - 90)
     cross join lateral private.reviewer_items(c.id, me.id, me.stage) r
      left join public.campaign_signoffs s on s.campaign_id = c.id and s.stage = me.stage and s.reviewer_id = me.id
     where me.stage is not null and me.stage <> 'user'
     order by c.end_date, c.name, c.id;
end;
$$;

-- rpc('sign_off_campaign_stage', { p_campaign_id, p_stage }) → the signature's time. The caller certifies that they
-- reviewed every item of theirs at their stage; refused while one is still open, twice, or at another stage.
create function public.sign_off_campaign_stage(p_campaign_id uuid, p_stage public.review_stage) returns timestamptz
language plpgsql security definer
set search_path = ''
as $$
declare
  caller public.users;
  target public.campaigns;
  mine record;
  signed timestamptz;
begin
  select * into caller from public.users u where u.id = auth.uid();
  if caller.id is null then
    raise exception 'Vous devez être connecté.' using errcode = '42501';
  end if;
  if not caller.active then
    raise exception 'Votre compte est désactivé : vous ne pouvez plus signer de revue.' using errcode = '42501';
  end if;
  if p_stage is null or p_stage = 'user' or p_stage is distinct from private.review_stage_for(caller.role) then
    raise exception 'Vous ne revoyez pas les droits à cette étape.' using errcode = '42501';
  end if;
  -- Shared with Terminer, which locks the campaign: no sign-off is recorded on a state the completion has changed.
  select * into target from public.campaigns c where c.id = p_campaign_id for share;
  if target.id is null then
    raise exception 'Campagne introuvable.' using errcode = 'P0001';
  end if;
  if not (target.status = 'active' or (target.status = 'completed' and p_stage = 'ra')) then
    raise exception 'La campagne « % » n''est pas en cours : elle ne peut pas être signée.', target.name using errcode = 'P0001';
  end if;
  select r.items_count, r.open_count into mine from private.reviewer_items(target.id, caller.id, p_stage) r;
  if mine.items_count is null then
    raise exception 'Vous n''avez aucun droit à revoir dans la campagne « % ».', target.name using errcode = 'P0001';
  end if;
  if mine.open_count > 0 then
    raise exception 'Il vous reste % à décider dans la campagne « % » : signez quand tout est revu.',
      case when mine.open_count = 1 then '1 droit' else mine.open_count || ' droits' end, target.name
      using errcode = 'P0001';
  end if;
  insert into public.campaign_signoffs (campaign_id, stage, reviewer_id, reviewer_email, reviewer_name, items_count, ip_address)
  values (target.id, p_stage, caller.id, caller.email, caller.first_name || ' ' || caller.last_name, mine.items_count,
          private.request_ip())
  on conflict (campaign_id, stage, reviewer_id) do nothing
  returning signed_at into signed;
  if signed is null then
    raise exception 'Vous avez déjà signé cette étape de la campagne « % ».', target.name using errcode = 'P0001';
  end if;
  perform private.write_audit(
    'sign_off', 'campaigns', target.id::text,
    jsonb_build_object('stage', p_stage, 'items', mine.items_count,
                       'statement', 'Je certifie avoir revu l''ensemble des droits qui m''étaient confiés')
  );
  return signed;
end;
$$;

-- rpc('campaign_signoffs_for_evidence', { p_campaign_id }) → admin and rssi: each reviewer of each stage (manager,
-- bpo_metier, bpo_groupe, ra), who signed and who has not: reviewer_id, reviewer_name, reviewer_email (null reviewer:
-- the items with no reviewer, decided by the fallback reviewers), items_count, open_count, waiting_count (the rights
-- in that reviewer's queue for this campaign now, as private.stage_deciders finds them: for the null reviewer, those
-- nobody's own queue holds), signed_at, ip_address. A person whose queue holds rights of the campaign without being
-- the reviewer its items recorded at the start (their team or application changed since) has a row of their own with
-- no items. By stage in workflow order, then name.
create function public.campaign_signoffs_for_evidence(p_campaign_id uuid)
returns table (
  stage public.review_stage,
  reviewer_id uuid,
  reviewer_name text,
  reviewer_email text,
  items_count integer,
  open_count integer,
  waiting_count integer,
  signed_at timestamptz,
  ip_address text
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI voient les signatures d''une campagne.');
  return query
    with waiting as (
      select d.stage, d.reviewer_id, count(*)::integer as n
        from private.stage_deciders(array[p_campaign_id]) d
       where d.stage <> 'user'
       group by d.stage, d.reviewer_id
    ),
    reviewers as (
      select coalesce(r.stage, w.stage) as stage, coalesce(r.reviewer_id, w.reviewer_id) as reviewer_id,
             coalesce(r.items_count, 0) as items_count, coalesce(r.open_count, 0) as open_count,
             coalesce(w.n, 0) as waiting_count
        from private.campaign_reviewers(p_campaign_id) r
        -- The nil uuid stands for the null reviewer: a full join needs an equality.
        full join waiting w
          on w.stage = r.stage
         and coalesce(w.reviewer_id, '00000000-0000-0000-0000-000000000000') = coalesce(r.reviewer_id, '00000000-0000-0000-0000-000000000000')
    )
    select r.stage, r.reviewer_id,
           coalesce(s.reviewer_name, u.first_name || ' ' || u.last_name),
           coalesce(s.reviewer_email, u.email),
           r.items_count, r.open_count, r.waiting_count, s.signed_at, host(s.ip_address)
      from reviewers r
      left join public.users u on u.id = r.reviewer_id
      left join public.campaign_signoffs s
        on s.campaign_id = p_campaign_id and s.stage = r.stage and s.reviewer_id = r.reviewer_id
     order by r.stage, r.reviewer_id is null, u.last_name, u.first_name, r.reviewer_id;
end;
$$;

-- rpc('campaign_reviewer_gaps', { p_campaign_ids }) → admin and rssi: for each running campaign of the list and each
-- review stage, how many rights wait there that nobody may decide: no own reviewer may (private.stage_deciders) and no
-- fallback reviewer of the campaign may either (none, deactivated, holder of the right, or having answered another
-- stage of it). A delegation cannot help there: a delegate decides only what the delegator could. Only stages with
-- such rights have a row; the Campagnes list and the Relecteurs dialog say each in words.
create function public.campaign_reviewer_gaps(p_campaign_ids uuid[])
returns table (campaign_id uuid, stage public.review_stage, items_count integer)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI voient les étapes sans relecteur.');
  if coalesce(cardinality(p_campaign_ids), 0) > 1000 then
    raise exception 'Au plus 1000 campagnes par demande.' using errcode = '22023';
  end if;
  return query
    select d.campaign_id, d.stage, count(*)::integer
      from private.stage_deciders(array(
             select c.id from public.campaigns c where c.id = any (p_campaign_ids) and c.status = 'active'
           )) d
      join public.user_rights ur on ur.id = d.right_id
      join public.users h on h.id = ur.user_id
      join public.applications a on a.id = ur.application_id
     where d.reviewer_id is null
       and d.stage <> 'user'
       and not exists (
         select 1
           from public.campaign_fallback_reviewers f
           join public.users fu on fu.id = f.user_id and fu.active
          where f.campaign_id = d.campaign_id
            and f.user_id <> d.holder_id
            -- The fallback reviewers' own rule (private.acting_verdicts): the stage is one without a reviewer.
            and private.stage_without_reviewer(ur.status, ur.user_id, h.manager_id, a.bpo_metier_id, a.bpo_groupe_id,
                                               a.ra_id, ur.id, d.campaign_id) = d.stage
            and private.answered_other_stage(ur.id, d.campaign_id, array[f.user_id], d.stage) is null
       )
     group by d.campaign_id, d.stage
     order by d.campaign_id, d.stage;
end;
$$;

revoke execute on function
  public.my_signoffs(),
  public.sign_off_campaign_stage(uuid, public.review_stage),
  public.campaign_signoffs_for_evidence(uuid),
  public.campaign_reviewer_gaps(uuid[])
  from public, anon;
grant execute on function
  public.my_signoffs(),
  public.sign_off_campaign_stage(uuid, public.review_stage),
  public.campaign_signoffs_for_evidence(uuid),
  public.campaign_reviewer_gaps(uuid[])
  to authenticated;
