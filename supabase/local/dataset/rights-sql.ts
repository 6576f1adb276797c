import { justifications, approvalComments, refusalComments, roleNames, treatmentComments } from './catalog'
import { recentGrantDays, type Campaign } from './campaigns'
import { BUCKETS, COMPLETED_UNDECIDED_PATH, UNDECIDED_PATH } from './paths'

// The bulk of the data, generated inside Postgres from the small tables the loader put in g_people, g_apps,
// g_campaigns, g_paths, g_path_steps and g_buckets: every random choice is pg_temp.rnd(row number, salt), a hash of the
// seed, so the rows do not depend on the order Postgres evaluates them in.

export const sqlText = (values: readonly string[]) => `(array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}])`

/** One row per right, with the campaign it is in and the review path it took. */
export function rightsSql(seed: number, asOf: string, applications: number, campaigns: Campaign[]): string {
  const held = (holds: Campaign['holds']) => campaigns.find((c) => c.holds === holds)?.n ?? 'null'
  const scoped = campaigns.find((c) => c.holds === 'application')
  const accountTypeCampaign = (['standard', 'privileged', 'technical', 'shared', 'emergency', 'external'] as const)
    .map((type) => `when '${type}' then ${held(type)}`)
    .join(' ')
  return `
create temp table g_rights on commit drop as
with base as (
  select p.rights_offset + j as r, p.n as person_n, p.id as user_id, p.role as holder_role, p.manager_id,
         p.in_demo_team, (p.first_application + j) % ${applications} as app_n, j / ${applications} as slot
    from g_people p, generate_series(0, p.rights_count - 1) j
),
typed as (
  select b.*,
    case
      when b.in_demo_team then case when pg_temp.rnd(b.r, 1) < 0.85 then 'standard' else 'privileged' end
      when pg_temp.rnd(b.r, 1) < 0.70 then 'standard'
      when pg_temp.rnd(b.r, 1) < 0.80 then 'privileged'
      when pg_temp.rnd(b.r, 1) < 0.86 then 'technical'
      when pg_temp.rnd(b.r, 1) < 0.91 then 'shared'
      when pg_temp.rnd(b.r, 1) < 0.93 then 'emergency'
      else 'external'
    end::public.account_type as account_type,
    not b.in_demo_team and pg_temp.rnd(b.r, 2) < 0.02 as recent
  from base b
),
placed as (
  select t.*,
    case
      when t.recent then null
      ${scoped ? `when t.app_n = ${scoped.application_n} then ${scoped.n}` : ''}
      else case t.account_type::text ${accountTypeCampaign} end
    end as campaign_n
  from typed t
)
select
  p.r,
  md5('${seed}:right:' || p.r)::uuid as id,
  p.user_id, p.person_n, p.manager_id, p.app_n, a.id as application_id,
  ${sqlText(roleNames)}[1 + (p.person_n * 7 + p.slot + p.app_n * 3) % ${roleNames.length}]
    || case when p.slot >= ${roleNames.length} then ' ' || (p.slot / ${roleNames.length} + 1) else '' end as role_name,
  p.account_type,
  case when pg_temp.rnd(p.r, 8) < 0.4 then null
       else ${sqlText(justifications)}[1 + floor(pg_temp.rnd(p.r, 9) * ${justifications.length})::int] end as justification,
  g.granted_at,
  case
    when pg_temp.rnd(p.r, 4) < 0.12 then null
    else least('${asOf}T00:00:00Z'::timestamptz, greatest(g.granted_at, '${asOf}T00:00:00Z'::timestamptz - interval '1 day' * case
      when pg_temp.rnd(p.r, 4) < 0.72 then 90 * pg_temp.rnd(p.r, 5) ^ 2
      when pg_temp.rnd(p.r, 4) < 0.90 then 90 + 275 * pg_temp.rnd(p.r, 5)
      else 365 + 1000 * pg_temp.rnd(p.r, 5)
    end))
  end as last_used_at,
  p.campaign_n,
  c.id as campaign_id,
  case
    when c.n is null then ${UNDECIDED_PATH}
    -- Nobody reviews the head's rights, and nobody decides on a right on an application they own.
    when p.manager_id is null or p.user_id in (a.ra_id, a.bpo_metier_id, a.bpo_groupe_id) then
      case when c.status = 'active' then ${UNDECIDED_PATH} else ${COMPLETED_UNDECIDED_PATH} end
    else k.path_id
  end as path_id
from placed p
join g_apps a on a.n = p.app_n
left join g_campaigns c on c.n = p.campaign_n
left join g_buckets k
  on k.kind = case when c.status = 'active' then case when p.in_demo_team then 'team' else 'active' end else 'completed' end
 and k.holder_is_user = (p.holder_role = 'user')
 and k.bucket = floor(pg_temp.rnd(p.r, 6) * ${BUCKETS})::int
cross join lateral (
  select case
    when c.n is null then '${asOf}T00:00:00Z'::timestamptz - interval '1 day' * ${recentGrantDays} * pg_temp.rnd(p.r, 3)
    else c.start_at - interval '1 day' * (1 + 2900 * pg_temp.rnd(p.r, 3) ^ 0.8)
  end as granted_at
) g;
create index on g_rights (r);
analyze g_rights;`
}

/** One row per step of each right's path: the decisions, and the completion that sent the rest to the RA. */
export function stepsSql(asOf: string): string {
  return `
create temp table g_steps on commit drop as
select
  gr.r, s.ord, s.stage, s.decision, s.from_status, s.to_status,
  case s.stage
    when 'user' then gr.user_id
    when 'manager' then gr.manager_id
    when 'bpo_metier' then a.bpo_metier_id
    when 'bpo_groupe' then a.bpo_groupe_id
    when 'ra' then a.ra_id
  end as decided_by,
  case
    when c.status = 'active' then
      -- Until an hour before the as-of day's start, so that rounding never reaches it.
      c.start_at + ('${asOf}T00:00:00Z'::timestamptz - interval '1 hour' - c.start_at) * ((s.ord + pg_temp.rnd(gr.r * 16 + s.ord, 7)) / p.step_count)
    when p.completion_ord is null then
      c.start_at + (c.end_at - c.start_at) * ((s.ord + pg_temp.rnd(gr.r * 16 + s.ord, 7)) / p.step_count)
    when s.ord < p.completion_ord then
      c.start_at + (c.end_at - c.start_at) * ((s.ord + pg_temp.rnd(gr.r * 16 + s.ord, 7)) / p.completion_ord)
    when s.ord = p.completion_ord then c.end_at
    else c.end_at + interval '20 days'
      * ((s.ord - p.completion_ord - 1 + pg_temp.rnd(gr.r * 16 + s.ord, 7)) / (p.step_count - p.completion_ord - 1))
  end as decided_at,
  case
    when s.stage is null then null
    when s.stage = 'ra' then ${sqlText(treatmentComments)}[1 + floor(pg_temp.rnd(gr.r * 16 + s.ord, 8) * ${treatmentComments.length})::int]
    when s.decision = 'refused' then ${sqlText(refusalComments)}[1 + floor(pg_temp.rnd(gr.r * 16 + s.ord, 8) * ${refusalComments.length})::int]
    when pg_temp.rnd(gr.r * 16 + s.ord, 9) < 0.25 then ${sqlText(approvalComments)}[1 + floor(pg_temp.rnd(gr.r * 16 + s.ord, 8) * ${approvalComments.length})::int]
  end as comment
from g_rights gr
join g_paths p on p.id = gr.path_id
join g_path_steps s on s.path_id = gr.path_id
join g_campaigns c on c.n = gr.campaign_n
join g_apps a on a.n = gr.app_n;
create temp table g_last_decisions on commit drop as
-- The last decision (not the completion, which changes no validated_* column) and the time of the last step.
select distinct on (r) r, case when stage is not null then decided_at end as decided_at, decided_by, comment,
       max(decided_at) over (partition by r) as last_step_at
  from g_steps
 order by r, (stage is not null) desc, ord desc;
analyze g_steps;
analyze g_last_decisions;`
}

export function insertRightsSql(): string {
  return `
insert into public.user_rights (
  id, user_id, application_id, role_name, account_type, justification, status, granted_at, last_used_at,
  validated_at, validated_by, review_comment, campaign_id, created_at, updated_at
)
select
  gr.id, gr.user_id, gr.application_id, gr.role_name, gr.account_type, gr.justification,
  p.final_status::public.right_status, gr.granted_at, gr.last_used_at,
  d.decided_at, d.decided_by, d.comment, gr.campaign_id, gr.granted_at, coalesce(d.last_step_at, gr.granted_at)
from g_rights gr
join g_paths p on p.id = gr.path_id
left join g_last_decisions d on d.r = gr.r
order by gr.r;`
}

/** Each right's item in the campaign that holds it, as its start copied it, at the status the right ended with there. */
export function insertItemsSql(seed: number): string {
  return `
insert into public.campaign_items (
  id, campaign_id, right_id, holder_id, holder_name, holder_email, manager_id, manager_name, application_id,
  application_name, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id, role_name, account_type, granted_at, last_used_at,
  justification, status, undecided_at_closure, created_at, updated_at
)
select
  md5('${seed}:item:' || gr.r)::uuid, gr.campaign_id, gr.id, holder.id, holder.first_name || ' ' || holder.last_name,
  holder.email, manager.id, manager.first_name || ' ' || manager.last_name, a.id, a.name, a.ra_id, a.bpo_metier_id,
  a.bpo_groupe_id, a.rssi_id, gr.role_name, gr.account_type, gr.granted_at, gr.last_used_at, gr.justification,
  p.final_status::public.right_status, p.completion_ord is not null, c.start_at, coalesce(d.last_step_at, c.start_at)
from g_rights gr
join g_campaigns c on c.n = gr.campaign_n
join g_paths p on p.id = gr.path_id
join g_people holder on holder.id = gr.user_id
left join g_people manager on manager.id = gr.manager_id
join g_apps a on a.n = gr.app_n
left join g_last_decisions d on d.r = gr.r
order by gr.r;`
}

export function insertDecisionsSql(seed: number): string {
  return `
insert into public.right_decisions (
  id, right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name, account_type,
  campaign_id, item_id, stage, decision, from_status, to_status, comment, decided_by, decided_by_email, decided_by_name,
  decided_at, ip_address
)
select
  md5('${seed}:decision:' || (s.r * 16 + s.ord))::uuid, gr.id, holder.id, holder.email,
  holder.first_name || ' ' || holder.last_name, a.id, a.name, gr.role_name, gr.account_type, gr.campaign_id,
  md5('${seed}:item:' || gr.r)::uuid,
  s.stage::public.review_stage, s.decision::public.review_decision, s.from_status::public.right_status,
  s.to_status::public.right_status, s.comment, s.decided_by, decider.email,
  decider.first_name || ' ' || decider.last_name, s.decided_at,
  -- Each decider's own office address, which the decision's audit event repeats (audit-sql.ts).
  ('10.20.' || (decider.n / 250 % 250) || '.' || (decider.n % 250 + 1))::inet
from g_steps s
join g_rights gr on gr.r = s.r
join g_people holder on holder.id = gr.user_id
join g_people decider on decider.id = s.decided_by
join g_apps a on a.n = gr.app_n
where s.stage is not null
order by s.decided_at, s.r, s.ord;`
}
