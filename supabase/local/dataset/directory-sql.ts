import { DEMO_TOTP_SECRETS } from '../../../src/pages/login/demo-accounts'
import { DATASET_PASSWORD_HASH } from './options'
import { demoAccounts } from './people'

// The small tables (people, applications, campaigns, review paths) arrive as JSON and are copied into the real ones.

export const asOfSql = (asOf: string) => `'${asOf}T00:00:00Z'::timestamptz`

export interface Statement {
  text: string
  params?: unknown[]
}

/** The loader's working tables, each filled from one JSON parameter (a statement with parameters must be alone). */
export function stagingSql(json: { people: unknown[]; applications: unknown[]; campaigns: unknown[]; paths: unknown[]; steps: unknown[]; buckets: unknown[] }): Statement[] {
  const param = (rows: unknown[]) => [JSON.stringify(rows)]
  return [
    {
      text: `create temp table g_people on commit drop as
        with x as (
          select * from jsonb_to_recordset($1::jsonb) as x (
            n int, id uuid, email text, first_name text, last_name text, role text, position text, department text,
            manager_n int, level int, in_demo_team boolean, rights_count int, rights_offset int, first_application int)
        )
        select x.*, m.id as manager_id from x left join x m on m.n = x.manager_n`,
      params: param(json.people),
    },
    { text: `create unique index on g_people (n); create unique index on g_people (id); analyze g_people` },
    {
      text: `create temp table g_apps on commit drop as
        select x.n, x.id, x.name, x.description, ra.id as ra_id, bm.id as bpo_metier_id, bg.id as bpo_groupe_id, rs.id as rssi_id
          from jsonb_to_recordset($1::jsonb) as x (n int, id uuid, name text, description text, ra_n int, bpo_metier_n int, bpo_groupe_n int, rssi_n int)
          join g_people ra on ra.n = x.ra_n
          join g_people bm on bm.n = x.bpo_metier_n
          join g_people bg on bg.n = x.bpo_groupe_n
          left join g_people rs on rs.n = x.rssi_n`,
      params: param(json.applications),
    },
    {
      text: `create temp table g_campaigns on commit drop as
        select x.n, x.id, x.name, x.description, x.status, x.account_type, a.id as application_id, x.start_date, x.end_date,
               (x.start_date || 'T00:00:00Z')::timestamptz as start_at, (x.end_date || 'T00:00:00Z')::timestamptz as end_at
          from jsonb_to_recordset($1::jsonb) as x (n int, id uuid, name text, description text, status text, account_type text,
               application_n int, start_date text, end_date text)
          left join g_apps a on a.n = x.application_n`,
      params: param(json.campaigns),
    },
    {
      text: `create temp table g_paths on commit drop as
        select * from jsonb_to_recordset($1::jsonb) as x (id int, final_status text, step_count int, completion_ord int)`,
      params: param(json.paths),
    },
    {
      text: `create temp table g_path_steps on commit drop as
        select * from jsonb_to_recordset($1::jsonb) as x (path_id int, ord int, stage text, decision text, from_status text, to_status text)`,
      params: param(json.steps),
    },
    {
      text: `create temp table g_buckets on commit drop as
        select * from jsonb_to_recordset($1::jsonb) as x (kind text, holder_is_user boolean, bucket int, path_id int)`,
      params: param(json.buckets),
    },
    { text: `create unique index on g_apps (n); analyze g_apps; analyze g_campaigns; analyze g_buckets; analyze g_paths; analyze g_path_steps` },
  ]
}

export function directorySql(seed: number, asOf: string): string {
  const now = asOfSql(asOf)
  const admin = demoAccounts.admin.id
  return `
insert into public.users (id, email, first_name, last_name, role, position, department, manager_id, last_login, created_at, updated_at)
select id, email, first_name, last_name, role::public.user_role, position, department, manager_id,
  case
    when pg_temp.rnd(n, 30) < 0.6 then ${now} - interval '1 day' * 30 * pg_temp.rnd(n, 31)
    when pg_temp.rnd(n, 30) < 0.85 then ${now} - interval '1 day' * (30 + 300 * pg_temp.rnd(n, 31))
  end,
  ${now} - interval '1 day' * (400 + 2000 * pg_temp.rnd(n, 32)),
  ${now} - interval '1 day' * (30 + 300 * pg_temp.rnd(n, 33))
from g_people
order by n;

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change
)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email, '${DATASET_PASSWORD_HASH}',
  u.created_at, u.last_login, '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('full_name', u.first_name || ' ' || u.last_name), u.created_at, u.created_at, '', '', '', ''
from public.users u
order by u.email;

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id, u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
  'email', u.last_sign_in_at, u.created_at, u.created_at
from auth.users u
order by u.email;

-- The demo administrator's and RSSI's second factor, with the demo seed's secrets: they sign in as in the demo.
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
select gen_random_uuid(), u.id, 'Démo', 'totp', 'verified', u.created_at, u.created_at, f.secret
from (values ${demoFactorValues()}) f (email, secret)
join auth.users u on u.email = f.email;

insert into public.applications (id, name, description, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id, created_at, updated_at)
select id, name, description, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id,
  ${now} - interval '1 day' * (1500 - n), ${now} - interval '1 day' * (400 - n % 300)
from g_apps
order by n;

insert into public.campaigns (id, name, description, application_id, account_type, start_date, end_date, status, created_by, created_at, updated_at)
select id, name, description, application_id, account_type::public.account_type, start_date::date, end_date::date,
  status::public.campaign_status, '${admin}', least(start_at, ${now}) - interval '14 days',
  case status when 'draft' then least(start_at, ${now}) - interval '14 days' when 'active' then start_at else end_at end
from g_campaigns
order by n;

insert into public.control_rules (id, name, description, global, application_id, parameters, enabled, created_at, updated_at)
select md5('${seed}:rule:' || r.name)::uuid, r.name, r.description, r.application_id is null, r.application_id, r.parameters::jsonb, r.enabled,
  ${now} - interval '1 day' * r.age, ${now} - interval '1 day' * r.age
from (
  values
    ('Inactivité de 90 jours', 'Un droit non utilisé depuis 90 jours doit être revu.', null::uuid, '{"inactivity_threshold": 90}', true, 700),
    ('Séparation des tâches', 'Un même utilisateur ne cumule pas saisie et approbation.', null, '{"incompatible_roles": ["Saisie", "Approbateur"]}', true, 650),
    ('Comptes d''urgence inutilisés', 'Un compte d''urgence non utilisé depuis 30 jours est signalé.', null, '{"inactivity_threshold": 30}', false, 600)
  union all
  select format('Inactivité %s de 30 jours', a.name), format('Les droits %s non utilisés depuis 30 jours sont signalés.', a.name),
    a.id, '{"inactivity_threshold": 30}', a.n % 3 <> 2, 500 - a.n
  from g_apps a
  where a.n < 7
) as r (name, description, application_id, parameters, enabled, age)
order by r.age desc;`
}

/** The demo accounts' TOTP secrets as SQL rows (e-mail, secret): fixed public demo values, never a person's. */
function demoFactorValues(): string {
  return Object.entries(DEMO_TOTP_SECRETS)
    .map(([email, secret]) => `('${email}', '${secret}')`)
    .join(', ')
}
