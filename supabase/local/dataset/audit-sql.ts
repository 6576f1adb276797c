import { asOfSql } from './directory-sql'

// The audit trail of the last year, written directly (the row triggers are off during the load): exactly `target`
// events in the shape the triggers and validate_user_right write them — the campaigns' lifecycle, then a share of the
// year's review decisions (one event per decision picked, at its time), then sign-ins, imports, usage updates and
// administration, by the people who would have done them.

export function auditSql(asOf: string, target: number): string {
  const now = asOfSql(asOf)
  const yearAgo = `(${now} - interval '365 days')`
  return `
create temp table g_audit (
  ts timestamptz, user_id uuid, user_email text, user_name text, action text, resource_type text, resource_id text,
  details jsonb, ip_address inet
) on commit drop;

-- The campaigns' creation, start and completion, as the triggers record them.
insert into g_audit
select e.ts, a.id, a.email, a.first_name || ' ' || a.last_name, e.action, 'campaigns', c.id::text, e.details, '10.0.0.10'::inet
from g_campaigns c
join g_people a on a.email = 'admin@example.com'
cross join lateral (
  values
    ('create', least(c.start_at, ${now}) - interval '14 days',
     jsonb_build_object('new', jsonb_build_object('id', c.id, 'name', c.name, 'status', 'draft', 'start_date', c.start_date, 'end_date', c.end_date))),
    ('start_campaign', case when c.status <> 'draft' then c.start_at + interval '8 hours' end,
     jsonb_build_object('rights_attached', (select count(*) from g_rights r where r.campaign_n = c.n))),
    ('complete_campaign', case when c.status in ('completed', 'archived') then c.end_at + interval '18 hours' end,
     jsonb_build_object('rights_sent_to_ra', (select count(*) from g_steps s join g_rights r on r.r = s.r
                                                where r.campaign_n = c.n and s.stage is null)))
) as e (action, ts, details)
where e.ts >= ${yearAgo} and e.ts < ${now};

-- 45 % of the rest: decisions of the year, evenly picked among them in time order.
insert into g_audit
with wanted as (select greatest(0, ${target} - (select count(*) from g_audit)) * 45 / 100 as n),
year as (
  select d.*, row_number() over (order by d.decided_at, d.id) - 1 as k, count(*) over () as total
    from public.right_decisions d
   where d.decided_at >= ${yearAgo} and d.decided_at < ${now}
)
select d.decided_at, d.decided_by, d.decided_by_email, d.decided_by_name, 'decide', 'user_rights', d.right_id::text,
  jsonb_build_object('stage', d.stage, 'decision', d.decision, 'from_status', d.from_status, 'to_status', d.to_status,
    'comment', d.comment, 'holder_id', d.holder_id, 'application_id', d.application_id, 'campaign_id', d.campaign_id,
    'decision_id', d.id),
  d.ip_address
from year d, wanted w
where (d.k * least(w.n, d.total)) / d.total <> ((d.k + 1) * least(w.n, d.total)) / d.total;

-- The rest: sign-ins (a person's last_login moving), imports of rights, usage updates, directory and application edits.
insert into g_audit
with params as (
  select (select array_agg(n order by n) from g_people where role = 'admin') as admins,
         (select count(*) from g_people) as people, (select count(*) from g_rights) as rights
),
events as (
  select i, pg_temp.rnd(i, 40) as kind, ${now} - interval '1 day' * 365 * pg_temp.rnd(i, 43) as ts,
    floor(pg_temp.rnd(i, 41) * p.people)::int as person_n,
    floor(pg_temp.rnd(i, 42) * p.rights)::bigint as right_r,
    p.admins[1 + floor(pg_temp.rnd(i, 44) * cardinality(p.admins))::int] as admin_n
  from params p, generate_series(1, greatest(0, ${target} - (select count(*) from g_audit))) i
)
select e.ts,
  actor.id, actor.email, actor.first_name || ' ' || actor.last_name,
  case when e.kind < 0.80 and e.kind >= 0.55 then 'create' else 'update' end,
  case when e.kind < 0.55 or (e.kind >= 0.92 and e.kind < 0.97) then 'users' when e.kind < 0.92 then 'user_rights' else 'applications' end,
  case when e.kind < 0.55 then actor.id::text
       when e.kind < 0.92 then r.id::text
       when e.kind < 0.97 then subject.id::text
       else app.id::text end,
  case
    when e.kind < 0.55 then jsonb_build_object('changes', jsonb_build_object('last_login', jsonb_build_object(
      'old', e.ts - interval '1 day' * (1 + 20 * pg_temp.rnd(e.i, 45)), 'new', e.ts)))
    when e.kind < 0.80 then jsonb_build_object('new', jsonb_build_object('id', r.id, 'user_id', r.user_id,
      'application_id', r.application_id, 'role_name', r.role_name, 'account_type', r.account_type, 'status', 'pending',
      'granted_at', r.granted_at, 'last_used_at', r.last_used_at, 'campaign_id', null))
    when e.kind < 0.92 then jsonb_build_object('changes', jsonb_build_object('last_used_at', jsonb_build_object(
      'old', e.ts - interval '1 day' * (30 + 60 * pg_temp.rnd(e.i, 45)), 'new', e.ts - interval '1 day' * 3 * pg_temp.rnd(e.i, 46))))
    when e.kind < 0.97 then jsonb_build_object('changes', jsonb_build_object('position', jsonb_build_object(
      'old', 'Assistant·e', 'new', subject.position)))
    else jsonb_build_object('changes', jsonb_build_object('description', jsonb_build_object(
      'old', '', 'new', app.description)))
  end,
  case when e.kind < 0.55 then ('10.20.' || (actor.n / 250 % 250) || '.' || (actor.n % 250 + 1))::inet else '10.0.0.10'::inet end
from events e
join g_people actor on actor.n = case when e.kind < 0.55 then e.person_n else e.admin_n end
join g_people subject on subject.n = e.person_n
join g_rights r on r.r = e.right_r
join g_apps app on app.n = e.person_n % (select count(*) from g_apps);`
}

/** Writes the planned events into audit_logs in time order, sealed as the trigger would have sealed them. */
export function sealedAuditSql(): string {
  return `
-- The chain, in the order of the events: the triggers are off, so the ids and hashes the sealing trigger would give
-- are computed here with its own functions (20261121000300_audit.sql), each hash from the one before, hence a
-- recursive walk (a window cannot feed one row's result to the next).
create temp table g_sealed on commit drop as
select row_number() over (order by ts, action, resource_id, user_id, details::text) as id, g.*
  from g_audit g;
alter table g_sealed add primary key (id);

insert into public.audit_logs (id, user_id, user_email, user_name, action, resource_type, resource_id, details, "timestamp",
  ip_address, prev_hash, hash, search_id)
with recursive chain (id, prev_hash, hash) as (
  select s.id, null::bytea, private.audit_chain_hash(s.id, s.ts, s.user_id, s.user_email, s.user_name, s.action,
           s.resource_type, s.resource_id, s.details, s.ip_address, null)
    from g_sealed s
   where s.id = 1
  union all
  select s.id, c.hash, private.audit_chain_hash(s.id, s.ts, s.user_id, s.user_email, s.user_name, s.action,
           s.resource_type, s.resource_id, s.details, s.ip_address, c.hash)
    from chain c
    join g_sealed s on s.id = c.id + 1
)
select s.id, s.user_id, s.user_email, s.user_name, s.action, s.resource_type, s.resource_id, s.details, s.ts, s.ip_address,
  c.prev_hash, c.hash, s.id
  from g_sealed s
  join chain c on c.id = s.id
 order by s.id;

-- Each event's search text, as private.index_audit_search writes it (the names it shows included), under the event's
-- own id; the later events' texts take ids after these.
insert into private.audit_search (id, body)
select s.id, coalesce(s.user_email, '') || chr(10) || coalesce(s.user_name, '') || chr(10) || s.action || chr(10)
       || s.resource_type || chr(10) || coalesce(s.resource_id, '') || chr(10) || s.details::text || chr(10)
       || private.audit_search_names(s.action, s.resource_type, s.resource_id, s.details)
  from g_sealed s;
select setval(pg_get_serial_sequence('private.audit_search', 'id'), greatest((select max(id) from private.audit_search), 1));`
}
