-- Control rules checked by the compliance views. Only admin and rssi read or change them.

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
  constraint control_rules_parameters_object check (jsonb_typeof(parameters) = 'object'),
  -- case, not and/or: Postgres does not promise to short-circuit, and the cast must never see a non-number.
  constraint control_rules_inactivity_threshold check (
    case
      when not parameters ? 'inactivity_threshold' then true
      when jsonb_typeof(parameters -> 'inactivity_threshold') = 'number' then (parameters ->> 'inactivity_threshold')::numeric > 0
      else false
    end
  )
);
alter table public.control_rules enable row level security;

create index control_rules_application_id_idx on public.control_rules (application_id);
create index control_rules_created_at_idx on public.control_rules (created_at desc);
-- The control rules page's search: each word in the name or the description.
select private.create_trigram_index('control_rules_name_trgm_idx', 'public.control_rules', 'name');
select private.create_trigram_index('control_rules_description_trgm_idx', 'public.control_rules', 'description');

create trigger control_rules_set_updated_at
  before update on public.control_rules
  for each row execute function private.set_updated_at();

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
