-- Control rules checked by the compliance views. Only admin and rssi read or change them.

-- What is wrong with a rule's parameters, in French, or null when the compliance page can evaluate them:
-- inactivity_threshold a number of days > 0 up to a century (a date then), incompatible_roles a list of at least two distinct role names (trimmed,
-- as they are compared). Other keys are kept and ignored. One definition for the check constraint and for the trigger
-- that turns its refusal into this sentence. case, not and/or: Postgres does not promise to short-circuit.
create function private.control_rule_parameters_problem(p_parameters jsonb) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_parameters) is distinct from 'object' then
      'Les paramètres de la règle doivent être un objet JSON.'
    when p_parameters ? 'inactivity_threshold' and case
        when jsonb_typeof(p_parameters -> 'inactivity_threshold') = 'number'
        then (p_parameters ->> 'inactivity_threshold')::numeric not between 0.001 and 36500
        else true
      end then
      'Le seuil d''inactivité doit être un nombre de jours supérieur à zéro, cent ans (36 500 jours) au plus.'
    when not p_parameters ? 'incompatible_roles' then null
    when jsonb_typeof(p_parameters -> 'incompatible_roles') <> 'array' then
      'Les rôles incompatibles doivent être une liste de noms de rôles.'
    when exists (
      select 1 from jsonb_array_elements(p_parameters -> 'incompatible_roles') e
       where jsonb_typeof(e.value) <> 'string' or btrim(e.value #>> '{}') = ''
    ) then
      'Chaque rôle incompatible doit être un nom de rôle non vide.'
    when (select count(*) from jsonb_array_elements(p_parameters -> 'incompatible_roles')) < 2 then
      'Une règle de rôles incompatibles doit citer au moins deux rôles.'
    when (select count(distinct btrim(e.value #>> '{}')) from jsonb_array_elements(p_parameters -> 'incompatible_roles') e)
       < jsonb_array_length(p_parameters -> 'incompatible_roles') then
      'Un même rôle ne peut figurer qu''une fois parmi les rôles incompatibles.'
  end
$$;

create table public.control_rules (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  description text not null default '',
  global boolean not null default true,
  application_id uuid references public.applications (id) on delete cascade,
  parameters jsonb not null default '{}'::jsonb,
  enabled boolean not null default true,
  created_at timestamptz not null default private.clock(),
  updated_at timestamptz not null default private.clock(),
  constraint control_rules_name_present check (char_length(btrim(name)) between 1 and 200),
  constraint control_rules_description_length check (char_length(description) <= 2000),
  constraint control_rules_scope check (global = (application_id is null)),
  constraint control_rules_parameters_valid check (private.control_rule_parameters_problem(parameters) is null)
);
alter table public.control_rules enable row level security;

-- The check constraint runs it as the writer.
grant execute on function private.control_rule_parameters_problem(jsonb) to authenticated, service_role;

create index control_rules_application_id_idx on public.control_rules (application_id);
create index control_rules_created_at_idx on public.control_rules (created_at desc);
-- The control rules page's search: each word in the name or the description.
select private.create_trigram_index('control_rules_name_trgm_idx', 'public.control_rules', 'name');
select private.create_trigram_index('control_rules_description_trgm_idx', 'public.control_rules', 'description');

create trigger control_rules_set_updated_at
  before update on public.control_rules
  for each row execute function private.set_updated_at();

-- The refusals a person can meet through the form, in French, before the constraints above answer in English.
create function private.check_control_rule() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_problem text := private.control_rule_parameters_problem(new.parameters);
begin
  if char_length(btrim(new.name)) not between 1 and 200 then
    raise exception 'Le nom de la règle est obligatoire (200 caractères au plus).'
      using errcode = '23514', constraint = 'control_rules_name_present';
  end if;
  if new.global <> (new.application_id is null) then
    raise exception 'Une règle globale ne vise aucune application ; une règle d''application en vise une.'
      using errcode = '23514', constraint = 'control_rules_scope';
  end if;
  if v_problem is not null then
    raise exception '%', v_problem using errcode = '23514', constraint = 'control_rules_parameters_valid';
  end if;
  return new;
end;
$$;

create trigger control_rules_check
  before insert or update on public.control_rules
  for each row execute function private.check_control_rule();

create trigger control_rules_audit
  after insert or update or delete on public.control_rules
  for each row execute function private.audit_row_change();

create policy "Admins and the RSSI may read control rules" on public.control_rules
  for select to authenticated
  using ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may add control rules" on public.control_rules
  for insert to authenticated
  with check ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may update control rules" on public.control_rules
  for update to authenticated
  using ((select private.is_admin_or_rssi()))
  with check ((select private.is_admin_or_rssi()));

create policy "Admins and the RSSI may delete control rules" on public.control_rules
  for delete to authenticated
  using ((select private.is_admin_or_rssi()));

revoke all on public.control_rules from anon, authenticated, service_role;
grant select, insert, update, delete on public.control_rules to authenticated, service_role;

-- rpc('control_rule_roles', { p_application_id }) → the role names a rule may cite: those the rights of that
-- application bear today, or of every application when null (found by stepping from one distinct name to the next on
-- user_rights_role_name_idx, a few dozen lookups at millions of rights). As the caller: admin and rssi read every right.
create function public.control_rule_roles(p_application_id uuid default null)
returns table (role_name text)
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
#variable_conflict use_column
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent consulter les rôles des règles de contrôle.');
  if p_application_id is not null then
    return query
      select distinct ur.role_name from public.user_rights ur where ur.application_id = p_application_id order by 1;
    return;
  end if;
  return query
    with recursive names (name) as (
      select min(ur.role_name) from public.user_rights ur
      union all
      select (select min(ur.role_name) from public.user_rights ur where ur.role_name > n.name)
        from names n
       where n.name is not null
    )
    select n.name from names n where n.name is not null order by 1;
end;
$$;

revoke execute on function public.control_rule_roles(uuid) from public, anon;
grant execute on function public.control_rule_roles(uuid) to authenticated;
