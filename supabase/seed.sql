-- Demo data (ARCHITECTURE §7). Every demo account signs in with the password Demo1234!.
-- The history is made by the real workflow: campaigns are started and completed and decisions are taken
-- through validate_user_right as each person, so decisions and audit rows are what the product writes.
-- Each step runs at the date of its story: recertif.clock (private.clock(), 20261121000100_types_and_helpers.sql) is
-- set before it, so its audit rows, decisions and timestamps carry that date. The steps come in the order of their
-- dates, so the sealed audit trail is written in time order. Last year's review runs in October and November 2025; this
-- quarter's campaign from the first of the current month to now, never later.

-- Auth accounts, as the Supabase CLI seeds them (bcrypt passwords, empty token columns, an identity each).
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change
)
select
  '00000000-0000-0000-0000-000000000000', d.id, 'authenticated', 'authenticated', d.email,
  extensions.crypt('Demo1234!', extensions.gen_salt('bf', 10)), now(),
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('full_name', d.full_name),
  now(), now(), '', '', '', ''
from (values
  ('00000000-0000-4000-a000-000000000001'::uuid, 'user@example.com', 'Julie Martin'),
  ('00000000-0000-4000-a000-000000000002'::uuid, 'manager@example.com', 'Marc Dubois'),
  ('00000000-0000-4000-a000-000000000003'::uuid, 'bpo@example.com', 'Sophie Bernard'),
  ('00000000-0000-4000-a000-000000000004'::uuid, 'bpo.groupe@example.com', 'Laurent Petit'),
  ('00000000-0000-4000-a000-000000000005'::uuid, 'ra@example.com', 'Nadia Moreau'),
  ('00000000-0000-4000-a000-000000000006'::uuid, 'admin@example.com', 'Alain Leroy'),
  ('00000000-0000-4000-a000-000000000007'::uuid, 'rssi@example.com', 'Claire Fournier')
) as d (id, email, full_name);

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select
  u.id, u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
  'email', now(), now(), now()
from auth.users u
where u.email like '%@example.com';

-- The demo administrator's and RSSI's second factor (TOTP), with the public secrets that npm start prints and the login
-- page's demo panel shows (src/pages/login/demo-accounts.ts).
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret) values
  ('00000000-0000-4000-f000-000000000006', '00000000-0000-4000-a000-000000000006', 'Démo', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'),
  ('00000000-0000-4000-f000-000000000007', '00000000-0000-4000-a000-000000000007', 'Démo', 'totp', 'verified', now(), now(), 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BA');

-- The platform administrator sets up the directory: these first rows are audited as the system.
select set_config('recertif.clock', '2025-09-08 09:30+02', true);
insert into public.users (id, email, first_name, last_name, role, position, department, manager_id) values
  ('00000000-0000-4000-a000-000000000006', 'admin@example.com', 'Alain', 'Leroy', 'admin', 'Administrateur IAM', 'DSI', null),
  ('00000000-0000-4000-a000-000000000007', 'rssi@example.com', 'Claire', 'Fournier', 'rssi', 'RSSI', 'Sécurité', null);

-- From here on the administrator acts, so the audit trail names them.
select set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-a000-000000000006","role":"authenticated","aal":"aal2","email":"admin@example.com"}', true);
select set_config('recertif.clock', '2025-09-08 10:15+02', true);

insert into public.users (id, email, first_name, last_name, role, position, department, manager_id) values
  ('00000000-0000-4000-b000-000000000001', 'isabelle.laurent@example.com', 'Isabelle', 'Laurent', 'manager', 'Directrice financière', 'Finance', null),
  ('00000000-0000-4000-a000-000000000002', 'manager@example.com', 'Marc', 'Dubois', 'manager', 'Responsable comptabilité', 'Finance', '00000000-0000-4000-b000-000000000001'),
  ('00000000-0000-4000-a000-000000000001', 'user@example.com', 'Julie', 'Martin', 'user', 'Comptable', 'Finance', '00000000-0000-4000-a000-000000000002'),
  ('00000000-0000-4000-b000-000000000002', 'thomas.roux@example.com', 'Thomas', 'Roux', 'user', 'Contrôleur de gestion', 'Finance', '00000000-0000-4000-a000-000000000002'),
  ('00000000-0000-4000-b000-000000000003', 'emma.girard@example.com', 'Emma', 'Girard', 'user', 'Chargée de clientèle', 'Finance', '00000000-0000-4000-a000-000000000002'),
  ('00000000-0000-4000-b000-000000000004', 'lucas.bonnet@example.com', 'Lucas', 'Bonnet', 'user', 'Technicien support', 'Finance', '00000000-0000-4000-a000-000000000002'),
  ('00000000-0000-4000-b000-000000000005', 'paul.mercier@example.com', 'Paul', 'Mercier', 'user', 'Consultant (externe)', 'Finance', '00000000-0000-4000-a000-000000000002'),
  ('00000000-0000-4000-a000-000000000003', 'bpo@example.com', 'Sophie', 'Bernard', 'bpo_metier', 'Responsable processus métier', 'Opérations', null),
  ('00000000-0000-4000-a000-000000000004', 'bpo.groupe@example.com', 'Laurent', 'Petit', 'bpo_groupe', 'Responsable processus groupe', 'Groupe', null),
  ('00000000-0000-4000-a000-000000000005', 'ra@example.com', 'Nadia', 'Moreau', 'ra', 'Responsable d''applications', 'DSI', null);

select set_config('recertif.clock', '2025-09-09 14:00+02', true);
select public.create_application('SAP Finance', '00000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000003',
  'ERP comptable et financier', '00000000-0000-4000-a000-000000000004', '00000000-0000-4000-a000-000000000007');
select set_config('recertif.clock', '2025-09-09 14:06+02', true);
select public.create_application('Salesforce CRM', '00000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000003',
  'Gestion de la relation client', '00000000-0000-4000-a000-000000000004', '00000000-0000-4000-a000-000000000007');
select set_config('recertif.clock', '2025-09-09 14:11+02', true);
select public.create_application('Active Directory', '00000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000003',
  'Annuaire et comptes d''accès au SI', '00000000-0000-4000-a000-000000000004', '00000000-0000-4000-a000-000000000007');
select set_config('recertif.clock', '2025-09-09 14:17+02', true);
select public.create_application('ServiceNow', '00000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000003',
  'Gestion des demandes et incidents', '00000000-0000-4000-a000-000000000004', null);
-- No BPO Groupe: the BPO Métier's approval is final here.
select set_config('recertif.clock', '2025-09-09 14:25+02', true);
select public.create_application('GitLab', '00000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000003',
  'Forge logicielle', null, '00000000-0000-4000-a000-000000000007');

select set_config('recertif.clock', '2025-09-15 10:40+02', true);
select public.import_user_rights(jsonb_build_array(
  jsonb_build_object('email', 'user@example.com', 'application', 'SAP Finance', 'role_name', 'Comptable', 'granted_at', '2023-03-01', 'last_used_at', (now() - interval '11 days')::date::text, 'justification', 'Saisie des écritures comptables'),
  jsonb_build_object('email', 'user@example.com', 'application', 'Salesforce CRM', 'role_name', 'Lecteur', 'granted_at', '2024-01-15'),
  jsonb_build_object('email', 'user@example.com', 'application', 'Active Directory', 'role_name', 'Utilisateur VPN', 'granted_at', '2022-06-01', 'last_used_at', (now() - interval '140 days')::date::text),
  jsonb_build_object('email', 'user@example.com', 'application', 'ServiceNow', 'role_name', 'Demandeur', 'granted_at', '2024-09-01', 'last_used_at', (now() - interval '3 days')::date::text),
  jsonb_build_object('email', 'user@example.com', 'application', 'GitLab', 'role_name', 'Developer', 'account_type', 'privileged', 'granted_at', '2025-02-01', 'last_used_at', (now() - interval '22 days')::date::text),
  jsonb_build_object('email', 'thomas.roux@example.com', 'application', 'SAP Finance', 'role_name', 'Approbateur factures', 'account_type', 'privileged', 'granted_at', '2021-09-13', 'last_used_at', (now() - interval '5 days')::date::text),
  jsonb_build_object('email', 'thomas.roux@example.com', 'application', 'Salesforce CRM', 'role_name', 'Commercial', 'granted_at', '2023-04-03', 'last_used_at', (now() - interval '30 days')::date::text),
  jsonb_build_object('email', 'thomas.roux@example.com', 'application', 'Active Directory', 'role_name', 'Compte d''urgence', 'account_type', 'emergency', 'granted_at', '2024-02-20'),
  jsonb_build_object('email', 'emma.girard@example.com', 'application', 'Salesforce CRM', 'role_name', 'Manager commercial', 'granted_at', '2022-11-07', 'last_used_at', (now() - interval '1 day')::date::text),
  jsonb_build_object('email', 'emma.girard@example.com', 'application', 'ServiceNow', 'role_name', 'Agent', 'granted_at', '2023-01-10', 'last_used_at', (now() - interval '95 days')::date::text),
  jsonb_build_object('email', 'emma.girard@example.com', 'application', 'GitLab', 'role_name', 'Maintainer', 'account_type', 'privileged', 'granted_at', '2024-05-02', 'last_used_at', (now() - interval '200 days')::date::text),
  jsonb_build_object('email', 'lucas.bonnet@example.com', 'application', 'SAP Finance', 'role_name', 'Lecteur', 'granted_at', '2020-10-01'),
  jsonb_build_object('email', 'lucas.bonnet@example.com', 'application', 'Active Directory', 'role_name', 'Compte de service sauvegarde', 'account_type', 'technical', 'granted_at', '2021-03-15', 'last_used_at', (now() - interval '1 day')::date::text),
  jsonb_build_object('email', 'lucas.bonnet@example.com', 'application', 'ServiceNow', 'role_name', 'Compte générique support', 'account_type', 'shared', 'granted_at', '2022-08-22', 'last_used_at', (now() - interval '12 days')::date::text),
  jsonb_build_object('email', 'paul.mercier@example.com', 'application', 'Salesforce CRM', 'role_name', 'Consultant', 'account_type', 'external', 'granted_at', '2025-06-01', 'last_used_at', (now() - interval '120 days')::date::text),
  jsonb_build_object('email', 'manager@example.com', 'application', 'SAP Finance', 'role_name', 'Validateur', 'granted_at', '2019-05-20', 'last_used_at', (now() - interval '2 days')::date::text),
  jsonb_build_object('email', 'manager@example.com', 'application', 'Active Directory', 'role_name', 'Utilisateur VPN', 'granted_at', '2019-05-20', 'last_used_at', (now() - interval '8 days')::date::text)
));

-- Last year's campaign, carried through to completion: decisions, then what was left goes to the RA.
select set_config('recertif.clock', '2025-09-22 11:20+02', true);
insert into public.campaigns (id, name, description, start_date, end_date)
values ('00000000-0000-4000-c000-000000000001', 'Revue annuelle 2025', 'Recertification annuelle de tous les droits', '2025-10-01', '2025-11-15');
select set_config('recertif.clock', '2025-10-01 09:00+02', true);
update public.campaigns set status = 'active' where id = '00000000-0000-4000-c000-000000000001';

do $$
declare
  step record;
begin
  for step in
    select * from (values
      (1, '2025-10-02 10:14+02', 'user@example.com', 'SAP Finance', 'Comptable', 'validated_user', 'Toujours nécessaire'),
      (2, '2025-10-06 09:12+02', 'manager@example.com', 'SAP Finance', 'Comptable', 'validated_manager', null),
      (3, '2025-10-06 09:20+02', 'manager@example.com', 'SAP Finance', 'Approbateur factures', 'validated_manager', 'Délégation de signature en cours'),
      (4, '2025-10-06 09:31+02', 'manager@example.com', 'Salesforce CRM', 'Manager commercial', 'validated_manager', null),
      (5, '2025-10-07 16:45+02', 'manager@example.com', 'SAP Finance', 'Lecteur', 'refused_manager', 'Jamais utilisé'),
      (6, '2025-10-08 11:02+02', 'manager@example.com', 'GitLab', 'Maintainer', 'validated_manager', null),
      (7, '2025-10-14 14:30+02', 'bpo@example.com', 'SAP Finance', 'Comptable', 'validated_bpo_metier', null),
      (8, '2025-10-14 14:41+02', 'bpo@example.com', 'SAP Finance', 'Approbateur factures', 'validated_bpo_metier', null),
      (9, '2025-10-21 10:05+02', 'bpo@example.com', 'GitLab', 'Maintainer', 'refused_bpo_metier', 'Plus de projet actif'),
      (10, '2025-11-04 15:20+01', 'bpo.groupe@example.com', 'SAP Finance', 'Comptable', 'validated_bpo_groupe', null)
    ) as s (ord, at, actor_email, application_name, role_name, new_status, comment)
    order by ord
  loop
    perform set_config('recertif.clock', step.at, true);
    perform set_config('request.jwt.claims', json_build_object(
      'sub', (select u.id from public.users u where u.email = step.actor_email),
      'role', 'authenticated', 'aal', 'aal2', 'email', step.actor_email)::text, true);
    perform public.validate_user_right(
      (select ur.id from public.user_rights ur join public.applications a on a.id = ur.application_id
        where a.name = step.application_name and ur.role_name = step.role_name),
      step.new_status::public.right_status, step.comment);
  end loop;
end
$$;

select set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-a000-000000000006","role":"authenticated","aal":"aal2","email":"admin@example.com"}', true);
select set_config('recertif.clock', '2025-11-17 09:30+01', true);
update public.campaigns set status = 'completed' where id = '00000000-0000-4000-c000-000000000001';

-- The RA closes part of what the campaign sent them.
select set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-a000-000000000005","role":"authenticated","aal":"aal2","email":"ra@example.com"}', true);
select set_config('recertif.clock', '2025-11-24 10:10+01', true);
select public.validate_user_right(ur.id, 'treated', 'Accès supprimé dans SAP')
  from public.user_rights ur join public.applications a on a.id = ur.application_id
 where a.name = 'SAP Finance' and ur.role_name = 'Lecteur';
select set_config('recertif.clock', '2025-11-26 15:40+01', true);
select public.validate_user_right(ur.id, 'treated', 'Droit maintenu après vérification avec le manager')
  from public.user_rights ur join public.applications a on a.id = ur.application_id
 where a.name = 'Active Directory' and ur.role_name = 'Compte de service sauvegarde';

-- Two days later the RA has checked the standard accounts the campaign left undecided and keeps them, so that the next
-- review takes them; the privileged, emergency, technical, shared and external accounts it sent her, and the refused
-- GitLab Maintainer, stay in her queue: no campaign takes them back until she has treated them.
select set_config('recertif.clock', '2025-11-28 10:05+01', true);
select public.validate_user_right(ur.id, 'treated', 'Droit maintenu après vérification avec le manager')
  from (select ur.id from public.user_rights ur
         where ur.campaign_id = '00000000-0000-4000-c000-000000000001' and ur.status = 'treatment_required'
           and ur.account_type = 'standard'
         order by ur.id) ur;

-- This quarter's campaign on standard accounts, under way: prepared a few days before the first of the month, started
-- on the first at 09:00 (or now, if that is still to come today).
select set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-a000-000000000006","role":"authenticated","aal":"aal2","email":"admin@example.com"}', true);
select set_config('recertif.clock', (date_trunc('month', now()) - interval '3 days' + interval '16 hours')::text, true);
insert into public.campaigns (id, name, description, account_type, start_date, end_date)
values ('00000000-0000-4000-c000-000000000002', 'Revue T4 2026 — comptes standard', 'Revue trimestrielle des comptes standard',
        'standard', date_trunc('month', now())::date, (date_trunc('month', now()) + interval '1 month 14 days')::date);
select set_config('recertif.clock', least(now(), date_trunc('month', now()) + interval '9 hours')::text, true);
update public.campaigns set status = 'active' where id = '00000000-0000-4000-c000-000000000002';

-- Its decisions, each so many days ago at an office hour; early in a month, when that would come before the start,
-- a minute apart after the start instead; never after now. Both bounds grow with each step, so the steps stay in order.
do $$
declare
  started timestamptz := current_setting('recertif.clock')::timestamptz;
  step record;
begin
  for step in
    select * from (values
      (1, 12, '09:40', 'user@example.com', 'SAP Finance', 'Comptable', 'validated_user', null),
      (2, 12, '09:46', 'user@example.com', 'Salesforce CRM', 'Lecteur', 'refused_user', 'Je n''utilise plus cet outil'),
      (3, 8, '14:05', 'manager@example.com', 'SAP Finance', 'Comptable', 'validated_manager', null),
      (4, 8, '14:12', 'manager@example.com', 'Salesforce CRM', 'Commercial', 'validated_manager', null),
      (5, 8, '14:20', 'manager@example.com', 'Salesforce CRM', 'Manager commercial', 'validated_manager', null),
      (6, 5, '10:30', 'bpo@example.com', 'SAP Finance', 'Comptable', 'validated_bpo_metier', 'Conforme à la matrice des habilitations'),
      (7, 4, '11:15', 'bpo@example.com', 'Salesforce CRM', 'Commercial', 'validated_bpo_metier', null)
    ) as s (ord, days_ago, at, actor_email, application_name, role_name, new_status, comment)
    order by ord
  loop
    perform set_config('recertif.clock', least(now(), greatest(
      started + step.ord * interval '1 minute',
      now()::date - step.days_ago + step.at::time
    ))::text, true);
    perform set_config('request.jwt.claims', json_build_object(
      'sub', (select u.id from public.users u where u.email = step.actor_email),
      'role', 'authenticated', 'aal', 'aal2', 'email', step.actor_email)::text, true);
    perform public.validate_user_right(
      (select ur.id from public.user_rights ur join public.applications a on a.id = ur.application_id
        join public.users h on h.id = ur.user_id
        where a.name = step.application_name and ur.role_name = step.role_name),
      step.new_status::public.right_status, step.comment);
  end loop;
end
$$;

-- Next year's review of privileged accounts, still a draft, prepared three days ago (after the decisions above).
select set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-a000-000000000007","role":"authenticated","aal":"aal2","email":"rssi@example.com"}', true);
select set_config('recertif.clock', least(now(), greatest(
  current_setting('recertif.clock')::timestamptz + interval '1 minute', now()::date - 3 + time '16:00'))::text, true);
insert into public.campaigns (id, name, description, account_type, start_date, end_date)
values ('00000000-0000-4000-c000-000000000003', 'Revue des comptes à privilèges 2027', 'Comptes à privilèges et d''urgence',
        'privileged', '2027-01-11', '2027-02-12');

select set_config('recertif.clock', least(now(), current_setting('recertif.clock')::timestamptz + interval '12 minutes')::text, true);
insert into public.control_rules (name, description, global, application_id, parameters, enabled) values
  ('Inactivité de 90 jours', 'Un droit non utilisé depuis 90 jours doit être revu.', true, null, '{"inactivity_threshold": 90}', true),
  ('Inactivité SAP de 30 jours', 'Les droits SAP non utilisés depuis 30 jours sont signalés.', false,
   (select id from public.applications where name = 'SAP Finance'), '{"inactivity_threshold": 30}', true),
  ('Séparation des tâches', 'Un même utilisateur ne cumule pas saisie et approbation des factures.', true, null,
   '{"incompatible_roles": ["Comptable", "Approbateur factures"]}', false);

-- Sign-in history for the directory, recorded when those sign-ins happened.
select set_config('request.jwt.claims', '', true);
select set_config('recertif.clock', least(now(), greatest(
  current_setting('recertif.clock')::timestamptz + interval '1 minute', now() - interval '2 days'))::text, true);
update public.users set last_login = now() - interval '2 days' where email in ('manager@example.com', 'admin@example.com', 'rssi@example.com');

-- Whatever runs after the seed in this transaction is written at its own time.
select set_config('recertif.clock', '', true);
