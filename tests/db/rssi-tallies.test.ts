// The RSSI dashboard reads, without a search, what the database tallies as the rights and decisions change
// (20261121000920_rssi_tallies.sql). After every step of a random workload (decisions along
// the whole workflow, imports, relabelling, last uses, deletions, campaign starts and completions, leavers, deleted
// profiles, decisions moved in time, second rights and accounts, separation-of-duties rights and rules) the tallies and
// the risk sets (« RSSI dashboard: risk sets ») equal a full count of the rows, and the dashboard's figures, under
// filters and windows in several time zones, equal the same figures counted straight from the rows, and so do the
// trends' charts (rssi_trends: each campaign's items, the decisions per day there, the running items per stage). On
// PostgreSQL, reviewers deciding at once on several connections, while rights are imported, leave the tallies exact
// and every decision taken, and writers of one person's rights at once leave the risk sets exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite, prepareDatabase, type Database } from '../../supabase/local/database'
import { loadLargeDataset } from '../../supabase/local/dataset'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo } from './support/actors'
import { allStatuses, bringTo, count, createApplication, createDraftCampaign, createRight, createUser, decide, ids, one } from './support/fixtures'
import { generator } from './support/random'

const onPostgres = Boolean(process.env.DATABASE_URL)
const accountTypes = ['standard', 'privileged', 'technical', 'shared', 'emergency', 'external'] as const

/** The rows where a tally and the full count of what it tallies disagree (none when the tallies are exact). */
async function tallyMismatches(db: Database): Promise<Record<string, number>> {
  const differ = (tallied: string, counted: string) =>
    count(db, `select count(*) from ((${tallied} except all ${counted}) union all (${counted} except all ${tallied})) x`)
  return {
    rights: await differ(
      `select application_id, account_type, campaign_id, status, sum(rights)::bigint
         from (select * from private.rights_tally union all select * from private.rights_tally_delta) t
        group by 1, 2, 3, 4 having sum(rights) <> 0`,
      `select application_id, account_type, campaign_id, status, count(*) from public.user_rights group by 1, 2, 3, 4`,
    ),
    usage: await differ(
      `select account_type, used_day, sum(rights)::bigint
         from (select * from private.usage_tally union all select * from private.usage_tally_delta) t
        group by 1, 2 having sum(rights) <> 0`,
      `select account_type, (last_used_at at time zone 'UTC')::date, count(*) from public.user_rights group by 1, 2`,
    ),
    decisions: await differ(
      `select decided_hour, decision, account_type, right_known, sum(decisions)::bigint
         from (select * from private.decisions_tally union all select * from private.decisions_tally_delta) t
        group by 1, 2, 3, 4 having sum(decisions) <> 0`,
      `select date_trunc('hour', decided_at, 'UTC'), decision, account_type, right_id is not null, count(*)
         from public.right_decisions group by 1, 2, 3, 4`,
    ),
    // These two may hold more than is true, never less.
    scopesMissing: await count(
      db,
      `select count(*) from public.right_decisions d join public.user_rights r on r.id = d.right_id
        where d.campaign_id is not null
          and not exists (select 1 from private.decided_scopes s
                           where s.campaign_id = d.campaign_id and s.application_id = r.application_id and s.account_type = r.account_type)`,
    ),
    relabelledMissing: await count(
      db,
      `select count(*) from public.right_decisions d join public.user_rights r on r.id = d.right_id
        where r.account_type <> d.account_type and not exists (select 1 from private.relabelled_rights x where x.right_id = r.id)`,
    ),
    // The risk sets the database keeps, against their definitions evaluated over every right and rule.
    roleConflicts: await differ(
      `select rule_id, user_id from private.role_conflicts`,
      `select rule_id, user_id from private.role_conflicts_of(null, null, null)`,
    ),
    duplicates: await differ(
      `select right_id, user_id, application_id, account_type from private.duplicate_rights`,
      `select right_id, user_id, application_id, account_type from private.duplicate_rights_of(null)`,
    ),
  }
}

const exact = { rights: 0, usage: 0, decisions: 0, scopesMissing: 0, relabelledMissing: 0, roleConflicts: 0, duplicates: 0 }

interface View {
  filters: [string | null, string | null, string | null, string | null, string]
}

/**
 * A running campaign's right or item whose review reached an outcome (« revu »): refused at some stage, treated by the
 * RA since, or approved at the last stage, BPO Groupe, or BPO Métier where the application has no BPO Groupe.
 */
const reviewed = (row: string) =>
  `(${row}.status::text like 'refused%' or ${row}.status in ('validated_bpo_groupe', 'treatment_required', 'treated')
    or (${row}.status = 'validated_bpo_metier'
        and not exists (select 1 from public.applications a where a.id = ${row}.application_id and a.bpo_groupe_id is not null)))`

/** The dashboard's figures counted straight from the rows, as the database owner, in the shape of figures() below. */
async function counted(db: Database, [application, type, from, to, zone]: View['filters']) {
  const { rows } = await db.query<{ v: unknown }>(
    `with s as (
       select ur.* from public.user_rights ur
        where ($1::uuid is null or ur.application_id = $1) and ($2::public.account_type is null or ur.account_type = $2)
     ),
     f as (select ($1::uuid is not null or $2::text is not null) as filtered,
                  $3::date::timestamp at time zone $5 as from_ts, ($4::date + 1)::timestamp at time zone $5 as to_ts),
     camps as (
       select c.* from public.campaigns c, f
        where (c.status = 'active'
               or c.status in ('completed', 'archived') and ($4::date is null or c.start_date <= $4) and ($3::date is null or c.end_date >= $3))
          and (not f.filtered
               or exists (select 1 from s where s.campaign_id = c.id)
               or exists (select 1 from public.right_decisions d join s on s.id = d.right_id where d.campaign_id = c.id))
     )
     select jsonb_build_object(
       'total', (select count(*) from s),
       'validated', (select count(*) from s where s.status::text like 'validated%'),
       'atRisk', (select count(*) from s where s.last_used_at is null or s.last_used_at < now() - interval '90 days'),
       'inProgress', (select count(*) from camps where status = 'active'),
       'completed', (select count(*) from camps where status <> 'active'),
       'byApplication', (select coalesce(jsonb_agg(jsonb_build_array(x.application_id, x.n, x.v)), '[]')
                           from (select application_id, count(*) as n, count(*) filter (where status::text like 'validated%') as v
                                   from s group by 1) x),
       'risks', jsonb_build_array(
         -- Comptes expirés, Comptes inactifs
         (select count(*) from s join public.users u on u.id = s.user_id where not u.active and s.status <> 'treated'),
         (select count(*) from s where s.last_used_at is null or s.last_used_at < now() - interval '90 days'),
         -- Rôles incompatibles: per enabled rule, the people holding two of its names in its scope (its application,
         -- or the filtered one for a global rule); the account type does not apply
         (select count(*)
            from public.control_rules r
            cross join lateral (
              select ur.user_id from public.user_rights ur
               where jsonb_typeof(r.parameters -> 'incompatible_roles') = 'array'
                 and ur.role_name in (select btrim(e #>> '{}') from jsonb_array_elements(r.parameters -> 'incompatible_roles') e
                                       where jsonb_typeof(e) = 'string')
                 and ur.application_id = coalesce(r.application_id, $1::uuid, ur.application_id)
               group by ur.user_id having count(distinct ur.role_name) >= 2
            ) h
           where r.enabled and ($1::uuid is null or r.application_id is null or r.application_id = $1)),
         -- Doublons: another right of the holder on the application, of the same role or another account type
         (select count(*) from s
           where exists (select 1 from public.user_rights o
                          where o.user_id = s.user_id and o.application_id = s.application_id and o.id <> s.id
                            and (o.account_type <> s.account_type or lower(btrim(o.role_name)) = lower(btrim(s.role_name)))))),
       'active', (select coalesce(jsonb_agg(jsonb_build_array(c.id,
                    (select count(*) from public.campaign_items i where i.campaign_id = c.id),
                    (select count(*) from public.campaign_items i where i.campaign_id = c.id and ${reviewed('i')}),
                    (select count(*) from s where s.campaign_id = c.id),
                    (select count(*) from s where s.campaign_id = c.id and ${reviewed('s')}))), '[]')
                    from camps c where c.status = 'active'),
       'activity', (select jsonb_build_array(count(*), count(*) filter (where d.decision = 'approved'),
                                             count(*) filter (where d.decision = 'refused'))
                      from public.right_decisions d, f
                     where (f.from_ts is null or d.decided_at >= f.from_ts) and (f.to_ts is null or d.decided_at < f.to_ts)
                       and (not f.filtered or exists (select 1 from s where s.id = d.right_id)))
     ) as v`,
    [application, type, from, to, zone],
  )
  return sorted(rows[0]!.v as Figures)
}

interface Figures {
  total: number
  validated: number
  atRisk: number
  inProgress: number
  completed: number
  byApplication: [string, number, number][]
  risks: number[]
  active: [string, number, number, number, number][]
  activity: number[]
}

function sorted(f: Figures): Figures {
  const byId = (a: [string, ...unknown[]], b: [string, ...unknown[]]) => a[0].localeCompare(b[0])
  return { ...f, byApplication: [...f.byApplication].sort(byId), active: [...f.active].sort(byId) }
}

interface Dashboard {
  counters: { total_rights: number; validated_rights: number; at_risk_rights: number; reviews_in_progress: number; reviews_completed: number }
  compliance_by_application: { application_id: string; total_rights: number; validated_rights: number }[]
  risks: { count: number }[]
  active_campaigns: { id: string; total_rights: number; reviewed_rights: number; scope_rights: number; scope_reviewed_rights: number }[]
  activity: { decisions: number; approved: number; refused: number }
}

/** What the RSSI is shown, in the shape of counted(). */
async function figures(db: Database, filters: View['filters']): Promise<Figures> {
  const d = (
    await actAs(db, 'rssi', (tx) =>
      one<{ d: Dashboard }>(
        tx,
        `select public.rssi_dashboard(null, $1::uuid, $2::public.account_type, $3::date, $4::date, $5) as d`,
        filters,
      ),
    )
  ).d
  return sorted({
    total: d.counters.total_rights,
    validated: d.counters.validated_rights,
    atRisk: d.counters.at_risk_rights,
    inProgress: d.counters.reviews_in_progress,
    completed: d.counters.reviews_completed,
    byApplication: d.compliance_by_application.map((a) => [a.application_id, a.total_rights, a.validated_rights]),
    risks: d.risks.map((r) => r.count),
    active: d.active_campaigns.map((c) => [c.id, c.total_rights, c.reviewed_rights, c.scope_rights, c.scope_reviewed_rights]),
    activity: [d.activity.decisions, d.activity.approved, d.activity.refused],
  })
}

interface Trends {
  campaigns: { id: string; point_date: string; total_items: number; validated_items: number; at_risk_items: number }[]
  days: { day: string; approved: number; refused: number }[]
  stages: { stage: string; decided: number; waiting: number }[]
}

/** What the trends' charts draw under the same filters (rssi_trends), in the shape of countedTrends(). */
async function trends(db: Database, filters: View['filters']) {
  const t = (
    await actAs(db, 'rssi', (tx) =>
      one<{ t: Trends }>(
        tx,
        `select public.rssi_trends(null, $1::uuid, $2::public.account_type, $3::date, $4::date, $5) as t`,
        filters,
      ),
    )
  ).t
  return {
    points: t.campaigns.map((c) => [c.id, c.point_date, c.total_items, c.validated_items, c.at_risk_items]),
    // The chart's empty days are the days the count below does not list.
    days: t.days.filter((d) => d.approved + d.refused > 0).map((d) => [d.day, d.approved, d.refused]),
    stages: t.stages.map((s) => [s.stage, s.decided, s.waiting]),
  }
}

/** The same, counted straight from the rows as the database owner, for the campaigns the trends drew. */
async function countedTrends(db: Database, [application, type, from, to, zone]: View['filters'], points: unknown[][]) {
  const { rows } = await db.query<{ v: { points: unknown[][]; days: unknown[][]; stages: unknown[][] } }>(
    `with s as (
       select ur.id from public.user_rights ur
        where ($1::uuid is null or ur.application_id = $1) and ($2::public.account_type is null or ur.account_type = $2)
     ),
     f as (select ($1::uuid is not null or $2::text is not null) as filtered,
                  $3::date::timestamp at time zone $5 as from_ts, ($4::date + 1)::timestamp at time zone $5 as to_ts),
     items as (
       select i.* from public.campaign_items i
        where ($1::uuid is null or i.application_id = $1) and ($2::public.account_type is null or i.account_type = $2)
     ),
     running as (select i.* from items i join public.campaigns c on c.id = i.campaign_id where c.status = 'active'),
     drawn as (select (p.value ->> 0)::uuid as id, (p.value ->> 1)::date as point_date, p.n
                 from jsonb_array_elements($6::jsonb) with ordinality p(value, n))
     select jsonb_build_object(
       'points', (select coalesce(jsonb_agg(jsonb_build_array(d.id, d.point_date,
                    (select count(*) from items i where i.campaign_id = d.id),
                    (select count(*) from items i where i.campaign_id = d.id and i.status::text like 'validated%'),
                    (select count(*) from items i where i.campaign_id = d.id
                       and (i.last_used_at is null or i.last_used_at < d.point_date::timestamptz - interval '90 days')))
                    order by d.n), '[]') from drawn d),
       'days', (select coalesce(jsonb_agg(jsonb_build_array(x.day, x.approved, x.refused) order by x.day), '[]')
                  from (select (d.decided_at at time zone $5)::date::text as day,
                               count(*) filter (where d.decision = 'approved') as approved,
                               count(*) filter (where d.decision = 'refused') as refused
                          from public.right_decisions d, f
                         where (f.from_ts is null or d.decided_at >= f.from_ts) and (f.to_ts is null or d.decided_at < f.to_ts)
                           and (not f.filtered or exists (select 1 from s where s.id = d.right_id))
                         group by 1) x),
       'stages', (select jsonb_agg(jsonb_build_array(g.stage,
                    (select count(distinct d.item_id) from public.right_decisions d join running i on i.id = d.item_id
                      where d.stage = g.stage),
                    (select count(*) from running i where i.status = any (private.waiting_states(g.stage))))
                    order by g.n)
                    from unnest(array['manager', 'bpo_metier', 'bpo_groupe', 'ra']::public.review_stage[]) with ordinality g(stage, n))
     ) as v`,
    [application, type, from, to, zone, JSON.stringify(points)],
  )
  return rows[0]!.v
}

describe('the RSSI dashboard tallies under a random workload', () => {
  let db: Database
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(() => db.close())

  it('equal a full count after every step, and so do the figures shown', async () => {
    const random = generator(19)
    const today = (await one<{ d: string }>(db, `select current_date::text as d`)).d
    const shift = (days: number) => {
      const d = new Date(`${today}T00:00:00Z`)
      d.setUTCDate(d.getUTCDate() + days)
      return d.toISOString().slice(0, 10)
    }
    const applications = [await createApplication(db), await createApplication(db), await createApplication(db)]
    const allApplications = await ids(db, `select id from public.applications`)
    const people: string[] = [demo.user.id]
    const sodRoles = ['Saisie', 'Approbation', 'Contrôle']
    const steps: Record<string, () => Promise<unknown>> = {
      // A right added to the running campaign, or to the inventory only.
      import: async () =>
        createRight(db, {
          applicationId: random.pick(applications),
          campaignId: random.next() < 0.6 ? campaignIds.active : null,
          accountType: random.pick(accountTypes),
          holder: random.pick(people),
        }),
      // A pending right of a running campaign decided by the manager, or a new one carried through the workflow.
      decide: async () => {
        const pending = await ids(
          db,
          `select r.id from public.user_rights r join public.campaigns c on c.id = r.campaign_id
            where c.status = 'active' and r.status = 'pending' and r.user_id = $1`,
          [demo.user.id],
        )
        if (pending.length > 0 && random.next() < 0.5) {
          return decide(db, 'manager', random.pick(pending), random.next() < 0.5 ? 'validated_manager' : 'refused_manager')
        }
        const right = await createRight(db, { applicationId: random.pick(applications), accountType: random.pick(accountTypes) })
        await bringTo(db, right, random.pick(allStatuses))
      },
      relabel: async () => {
        // Rather one decided on in an earlier campaign: its decisions then keep the account type it no longer has.
        const right = (
          await one<{ id: string }>(
            db,
            `select r.id from public.user_rights r where r.status = 'pending'
              order by exists (select 1 from public.right_decisions d where d.right_id = r.id) desc, random() limit 1`,
          )
        ).id
        return attempt(db, 'admin', (tx) =>
          tx.query(`update public.user_rights set account_type = $2::public.account_type where id = $1`, [right, random.pick(accountTypes)]),
        )
      },
      move: async () => {
        const right = random.pick(await ids(db, `select id from public.user_rights where status = 'pending'`))
        return attempt(db, 'admin', (tx) => tx.query(`update public.user_rights set application_id = $2 where id = $1`, [right, random.pick(allApplications)]))
      },
      lastUse: async () => {
        const rights = await ids(db, `select id from public.user_rights order by random() limit 5`)
        return attempt(db, 'admin', (tx) =>
          tx.query(
            `update public.user_rights set last_used_at = case when random() < 0.2 then null else now() - random() * interval '200 days' end
              where id = any($1::uuid[])`,
            [rights],
          ),
        )
      },
      // Rather rights decided on (their decisions stay, without right), outside the closed campaigns, which refuse it.
      delete: async () => {
        const rights = await ids(
          db,
          `select r.id from public.user_rights r left join public.campaigns c on c.id = r.campaign_id
            where c.status is distinct from 'completed' and c.status is distinct from 'archived'
            order by exists (select 1 from public.right_decisions d where d.right_id = r.id) desc, random() limit 2`,
        )
        return attempt(db, 'admin', (tx) => tx.query(`delete from public.user_rights where id = any($1::uuid[])`, [rights]))
      },
      // A decision of the running campaign moved in time (as the owner: no role may), for the windows' edges.
      backdate: async () =>
        db.query(
          `update public.right_decisions d set decided_at = now() - random() * interval '40 days'
             from public.campaigns c
            where c.id = d.campaign_id and c.status = 'active'
              and d.id = (select x.id from public.right_decisions x join public.campaigns y on y.id = x.campaign_id
                           where y.status = 'active' order by random() limit 1)`,
        ),
      // A campaign over one application, started on its inventory then, some steps later, completed.
      start: async () => {
        const application = random.pick(applications)
        for (let i = 0; i < 3; i++) await createRight(db, { applicationId: application, campaignId: null, accountType: random.pick(accountTypes) })
        const campaign = await createDraftCampaign(db, { applicationId: application })
        return attempt(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
      },
      complete: async () => {
        const running = await ids(db, `select id from public.campaigns where status = 'active' and id <> $1`, [campaignIds.active])
        if (running.length === 0) return
        return attempt(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [random.pick(running)]))
      },
      // A right decided in a campaign that is then completed, and taken into the next one: pending again, so that it may
      // be relabelled while its decisions keep the account type it had.
      retake: async () => {
        const application = random.pick(applications)
        const right = await createRight(db, { applicationId: application, campaignId: null, accountType: random.pick(accountTypes) })
        const campaigns = [await createDraftCampaign(db, { applicationId: application }), await createDraftCampaign(db, { applicationId: application })]
        const admin = (text: string, campaign: string) => attempt(db, 'admin', (tx) => tx.query(text, [campaign]))
        if (!(await admin(`update public.campaigns set status = 'active' where id = $1`, campaigns[0]!)).ok) return
        await decide(db, 'manager', right, random.next() < 0.5 ? 'validated_manager' : 'refused_manager')
        await admin(`update public.campaigns set status = 'completed' where id = $1`, campaigns[0]!)
        await admin(`update public.campaigns set status = 'active' where id = $1`, campaigns[1]!)
      },
      hire: async () => people.push((await createUser(db, { managerId: demo.manager.id })).id),
      // A leaver: someone with rights whose profile is deactivated (the demo user stays: the decisions are on theirs).
      leave: async () => {
        const leaver = (await createUser(db, { managerId: demo.manager.id })).id
        await createRight(db, { applicationId: random.pick(applications), holder: leaver, campaignId: random.next() < 0.5 ? campaignIds.active : null })
        await db.query(`update public.users set active = false where id = $1`, [leaver])
      },
      // A profile deleted: its rights go with it, their decisions stay without right.
      remove: async () => {
        if (people.length < 2) return
        const [gone] = people.splice(1 + Math.floor(random.next() * (people.length - 1)), 1)
        await db.query(`delete from public.users where id = $1`, [gone])
      },
      // A second right of a held role (another case, a trailing space) or a second account (another account type).
      twin: async () => {
        const held = await one<{ user_id: string; application_id: string; role_name: string }>(
          db,
          `select user_id, application_id, role_name from public.user_rights order by random() limit 1`,
        )
        const sameRole = random.next() < 0.5
        const role = held.role_name === held.role_name.toUpperCase() ? held.role_name.toLowerCase() : held.role_name.toUpperCase()
        return attempt(db, 'admin', (tx) =>
          tx.query(
            `insert into public.user_rights (user_id, application_id, role_name, account_type, campaign_id)
             values ($1, $2, $3, $4::public.account_type, null)`,
            [held.user_id, held.application_id, sameRole ? `${role} ` : `Autre ${held.role_name}`, random.pick(accountTypes)],
          ),
        )
      },
      // A right under a role that separation-of-duties rules name.
      conflict: async () =>
        attempt(db, 'admin', (tx) =>
          tx.query(
            `insert into public.user_rights (user_id, application_id, role_name, campaign_id) values ($1, $2, $3, null)
             on conflict do nothing`,
            [random.pick(people), random.pick(applications), random.pick(sodRoles)],
          ),
        ),
      // A separation-of-duties rule added, switched on or off, given other names, moved to one application, or removed.
      rule: async () => {
        const existing = await ids(db, `select id from public.control_rules where name like 'Tally SoD %'`)
        const names = () => JSON.stringify({ incompatible_roles: sodRoles.filter(() => random.next() < 0.6) })
        const choice = random.next()
        if (existing.length === 0 || choice < 0.3) {
          const application = random.next() < 0.5 ? random.pick(applications) : null
          return attempt(db, 'admin', (tx) =>
            tx.query(`insert into public.control_rules (name, global, application_id, parameters, enabled) values ($1, $2, $3, $4::jsonb, $5)`, [
              `Tally SoD ${existing.length}-${Math.floor(random.next() * 1e6)}`,
              application === null,
              application,
              names(),
              random.next() < 0.7,
            ]),
          )
        }
        const rule = random.pick(existing)
        const change =
          choice < 0.55
            ? `update public.control_rules set enabled = not enabled where id = $1`
            : choice < 0.8
              ? `update public.control_rules set parameters = '${names()}'::jsonb where id = $1`
              : choice < 0.9
                ? `update public.control_rules set global = false, application_id = '${random.pick(applications)}' where id = $1`
                : `delete from public.control_rules where id = $1`
        return attempt(db, 'admin', (tx) => tx.query(change, [rule]))
      },
    }
    const reached: Record<string, boolean> = {}
    const kinds = Object.keys(steps)
    const zones = ['Europe/Paris', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns']
    for (let step = 0; step < 120; step++) {
      const kind = random.pick(kinds)
      await steps[kind]!()
      expect(await tallyMismatches(db), `after step ${step} (${kind})`).toEqual(exact)
      const now = await one<Record<string, boolean>>(
        db,
        `select exists (select 1 from public.right_decisions where right_id is null) as orphaned,
                exists (select 1 from public.right_decisions d join public.user_rights r on r.id = d.right_id
                         where r.account_type <> d.account_type) as relabelled,
                exists (select 1 from public.users where not active) as leavers,
                exists (select 1 from public.campaigns where status = 'completed') as completed,
                exists (select 1 from private.decisions_tally) as folded,
                exists (select 1 from private.role_conflicts) as conflicts,
                exists (select 1 from private.duplicate_rights) as duplicates`,
      )
      for (const [what, yes] of Object.entries(now)) reached[what] = Boolean(reached[what]) || yes
      const from = random.next() < 0.2 ? null : shift(-Math.floor(random.next() * 45))
      const to = random.next() < 0.3 ? null : shift(-Math.floor(random.next() * 10))
      const window = from !== null && to !== null && from > to ? [to, from] : [from, to]
      const views: View['filters'][] = [
        [null, null, shift(-30), today, 'Europe/Paris'],
        [null, random.pick(accountTypes), window[0]!, window[1]!, random.pick(zones)],
        [random.pick(allApplications), random.next() < 0.5 ? null : random.pick(accountTypes), window[0]!, window[1]!, random.pick(zones)],
      ]
      for (const view of views) {
        expect(await figures(db, view), `after step ${step} (${kind}), ${JSON.stringify(view)}`).toEqual(await counted(db, view))
        const drawn = await trends(db, view)
        expect(drawn, `trends after step ${step} (${kind}), ${JSON.stringify(view)}`).toEqual(await countedTrends(db, view, drawn.points))
      }
    }
    // The workload reached, at some step, the cases the tallies treat apart: decisions whose right is gone, decisions
    // whose right was relabelled since, leavers, closed campaigns; and deltas were folded into the totals; and the risk
    // sets held separation-of-duties violations and duplicates.
    expect(reached).toEqual({ orphaned: true, relabelled: true, leavers: true, completed: true, folded: true, conflicts: true, duplicates: true })
  }, 300_000)

  it("count a decision near an hour's edge in exactly the windows that hold it", async () => {
    // An hour of 2020 that no other decision shares: the tally holds the whole hour, the window's parts are counted.
    const decision = await one<{ id: string }>(
      db,
      `select d.id from public.right_decisions d join public.campaigns c on c.id = d.campaign_id
        where c.status = 'active' order by d.id limit 1`,
    )
    await db.query(`update public.right_decisions set decided_at = '2020-01-01T10:20:00Z' where id = $1`, [decision.id])
    const activity = (from: string, to: string) =>
      actAs(db, 'rssi', async (tx) => {
        const { rows } = await tx.query<{ decisions: string }>(`select decisions from private.tallied_activity(null, $1, $2)`, [from, to])
        return Number(rows[0]!.decisions)
      })
    const days = (from: string, to: string, zone: string) =>
      actAs(db, 'rssi', async (tx) => {
        const { rows } = await tx.query<{ day: string; approved: string; refused: string }>(
          `select day::text, approved, refused from private.tallied_days(null, $1, $2, $3)`,
          [from, to, zone],
        )
        return rows.map((row) => [row.day, Number(row.approved) + Number(row.refused)])
      })
    const windows: Array<[from: string, to: string, counted: number]> = [
      ['2020-01-01T09:00:00Z', '2020-01-01T12:00:00Z', 1], // whole hours
      ['2020-01-01T10:10:00Z', '2020-01-01T12:00:00Z', 1], // starts within the decision's hour, before it
      ['2020-01-01T10:40:00Z', '2020-01-01T12:00:00Z', 0], // starts within that hour, after it
      ['2020-01-01T10:10:00Z', '2020-01-01T10:50:00Z', 1], // within one hour
      ['2020-01-01T10:25:00Z', '2020-01-01T10:50:00Z', 0],
      ['2020-01-01T09:00:00Z', '2020-01-01T10:20:00Z', 0], // the end is not in the window
      ['2020-01-01T09:00:00Z', '2020-01-01T10:21:00Z', 1],
    ]
    for (const [from, to, counted] of windows) {
      expect(await activity(from, to), `${from} – ${to}`).toBe(counted)
      // 10:20 UTC is 15:50 in Kolkata and 00:05 the next day in Chatham (+13:45).
      expect(await days(from, to, 'Asia/Kolkata'), `${from} – ${to}, Kolkata`).toEqual(counted ? [['2020-01-01', 1]] : [])
      expect(await days(from, to, 'Pacific/Chatham'), `${from} – ${to}, Chatham`).toEqual(counted ? [['2020-01-02', 1]] : [])
    }
  })

  it('are read by no API role, only through the functions that check the RSSI role', async () => {
    for (const table of [
      'rights_tally',
      'rights_tally_delta',
      'usage_tally',
      'decisions_tally',
      'decided_scopes',
      'relabelled_rights',
      'role_conflicts',
      'duplicate_rights',
    ]) {
      for (const actor of ['rssi', 'admin', 'anon', 'service_role'] as const) {
        const outcome = await attempt(db, actor, (tx) => tx.query(`select count(*) from private.${table}`))
        expect(outcome, `${actor} reading ${table}`).toMatchObject({ ok: false, code: '42501' })
      }
    }
    // And the owner's helpers of the dashboard and the trends answer only the RSSI.
    for (const sql of [
      `select * from private.tallied_rights(null, null)`,
      `select * from private.tallied_days(null, null, null, 'Europe/Paris')`,
      `select * from private.running_stage_decisions(null, null, null)`,
      `select * from private.search_terms('%a%')`,
      `select private.role_conflict_count(null)`,
      `select private.duplicate_count(null, null)`,
      `select * from private.role_conflict_page(null, 0, 10)`,
      `select * from private.duplicated_right_ids()`,
    ]) {
      expect(await attempt(db, 'admin', (tx) => tx.query(sql)), sql).toMatchObject({ ok: false, code: '42501', message: 'Réservé au RSSI.' })
      expect((await attempt(db, 'rssi', (tx) => tx.query(sql))).ok, sql).toBe(true)
    }
    // Nobody recomputes the risk sets but their triggers.
    for (const sql of [`select private.refresh_holder_risks(array[gen_random_uuid()])`, `select private.lock_risk_sets(null)`]) {
      expect(await attempt(db, 'rssi', (tx) => tx.query(sql)), sql).toMatchObject({ ok: false, code: '42501' })
    }
  })
})

describe('the generated dataset', () => {
  it('is tallied as it loads, its row triggers off', async () => {
    const db = await openPglite()
    try {
      await prepareDatabase(db, { seed: false })
      await loadLargeDataset(db, { scale: 0.01, asOf: '2026-11-20', seed: 7 })
      expect(await count(db, `select count(*) from public.right_decisions`)).toBeGreaterThan(0)
      expect(await tallyMismatches(db)).toEqual(exact)
    } finally {
      await db.close()
    }
  }, 120_000)
})

describe.runIf(onPostgres)('reviewers deciding at once', () => {
  let db: Database
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(() => db.close())

  it('leave the tallies exact, with rights imported meanwhile', async () => {
    const applications = [await createApplication(db), await createApplication(db)]
    const random = generator(7)
    const rights: string[] = []
    // The same two applications and account types for everyone: the same tally rows.
    for (let i = 0; i < 60; i++) rights.push(await createRight(db, { applicationId: applications[i % 2]!, accountType: i % 3 ? 'standard' : 'privileged' }))
    // One decision per transaction, as each call of the API is; and imports in between.
    const outcomes = await Promise.all([
      ...rights.map((right) => decide(db, 'manager', right, random.next() < 0.5 ? 'validated_manager' : 'refused_manager')),
      ...applications.map((application) =>
        attempt(db, 'admin', (tx) =>
          tx.query(
            `insert into public.user_rights (user_id, application_id, role_name, account_type, campaign_id)
             select $1, $2, 'Import ' || g, 'privileged', $3 from generate_series(1, 100) g`,
            [demo.user.id, application, campaignIds.active],
          ),
        ),
      ),
    ])
    expect(outcomes.filter((o) => !o.ok)).toEqual([])
    expect(await count(db, `select count(*) from public.user_rights where id = any($1::uuid[]) and status <> 'pending'`, [rights])).toBe(rights.length)
    expect(await tallyMismatches(db)).toEqual(exact)
    const view: View['filters'] = [null, 'privileged', null, null, 'Europe/Paris']
    expect(await figures(db, view)).toEqual(await counted(db, view))
  })
  it('leave the risk sets exact when two writers add one person’s rights at once, or a rule changes meanwhile', async () => {
    const application = await createApplication(db)
    const rule = await one<{ id: string }>(
      db,
      `insert into public.control_rules (name, global, parameters, enabled) values ('Concurrence', true, '{"incompatible_roles": ["Émettre", "Payer"]}', false) returning id`,
    )
    const holders = await Promise.all(Array.from({ length: 6 }, () => createUser(db)))
    // Each transaction writes, then waits before it commits, so that the other's trigger runs while this one is open.
    // As the owner and without audit entries, as bulk writers do: the audit trail's lock would otherwise order them.
    const quietly = (text: string, params: unknown[]) =>
      db.transaction(async (tx) => {
        await tx.query(`select set_config('recertif.audit_suppressed', 'on', true)`)
        await tx.query(text, params)
        await tx.query(`select pg_sleep(0.2)`)
      })
    const write = (holder: string, role: string, accountType: string) =>
      quietly(`insert into public.user_rights (user_id, application_id, role_name, account_type, campaign_id) values ($1, $2, $3, $4::public.account_type, null)`, [
        holder,
        application,
        role,
        accountType,
      ])
    await Promise.all([
      ...holders.flatMap(({ id }) => [write(id, 'Émettre', 'standard'), write(id, 'Payer', 'privileged')]),
      quietly(`update public.control_rules set enabled = true where id = $1`, [rule.id]),
    ])
    expect(await tallyMismatches(db)).toEqual(exact)
    // Every holder has two accounts there, and breaks the rule.
    const people = holders.map((h) => h.id)
    expect(await count(db, `select count(*) from private.duplicate_rights where user_id = any($1::uuid[])`, [people])).toBe(12)
    expect(await count(db, `select count(*) from private.role_conflicts where rule_id = $1 and user_id = any($2::uuid[])`, [rule.id, people])).toBe(6)
  })
})
