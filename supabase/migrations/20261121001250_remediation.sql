-- Remediation an auditor can follow (ARCHITECTURE §4, « Remediation »; §5c, connectors). A right refused in a review,
-- or undecided when its campaign closed, waits in the RA's queue: « à supprimer ». The RA asks for its removal and
-- records how (a ticket's reference, or the directory connector): « suppression demandée », one right_removals row.
-- The application's next complete snapshot of rights (a CSV import of its whole list, or the connector's read) settles
-- it: gone from the snapshot, « suppression constatée » with the date and the source; still there once the
-- application's delay has passed (30 days unless set), « suppression non constatée », the RSSI's risk. Every
-- transition is a row change of right_removals, audited by the row trigger.
--
-- The connector (scripts/sync, docs/ldap-connector.md) reaches these functions with the project's secret key
-- (service_role): connector_sync imports the directory and each mapped application's snapshot in one transaction, as
-- the Recertif administrator or RSSI it names, so that the imports check and audit that person as the screens do.

-- ─── Settings per application ────────────────────────────────────────────────────────────────────────────────────

create table public.remediation_settings (
  application_id uuid primary key references public.applications (id) on delete cascade,
  -- Days after the request past which a removal still present in the application's snapshot is « non constatée ».
  removal_delay_days integer not null default 30,
  -- Set by the connector's first snapshot of the application: its removals may be asked of the connector.
  connector_managed boolean not null default false,
  updated_at timestamptz not null default private.clock(),
  constraint remediation_settings_delay_range check (removal_delay_days between 0 and 365)
);
alter table public.remediation_settings enable row level security;

create trigger remediation_settings_set_updated_at
  before update on public.remediation_settings
  for each row execute function private.set_updated_at();

create trigger remediation_settings_audit
  after insert or update or delete on public.remediation_settings
  for each row execute function private.audit_row_change();

create policy "Signed-in users read the remediation settings" on public.remediation_settings
  for select to authenticated
  using (true);

revoke all on public.remediation_settings from anon, authenticated, service_role;
grant select on public.remediation_settings to authenticated, service_role;

-- ─── Removals ────────────────────────────────────────────────────────────────────────────────────────────────────

-- Like a decision, a removal is evidence: it keeps a copy of what was removed and outlives the right.
create table public.right_removals (
  id uuid primary key default gen_random_uuid(),
  right_id uuid references public.user_rights (id) on delete set null,
  application_id uuid not null references public.applications (id) on delete cascade,
  application_name text not null,
  holder_id uuid not null,
  holder_email text not null,
  holder_name text not null,
  role_name text not null,
  -- The campaign whose review refused the right (or left it undecided at closure), and the RA's decision.
  campaign_id uuid,
  decision_id uuid references public.right_decisions (id) on delete set null,
  state text not null default 'requested',
  method text not null,
  ticket text,
  requested_at timestamptz not null default private.clock(),
  requested_by uuid references public.users (id) on update cascade on delete set null,
  requested_by_name text not null,
  due_at timestamptz not null,
  verified_at timestamptz,
  verified_source text,
  unverified_at timestamptz,
  -- What the connector did in the directory, when the method is 'connector'.
  applied_at timestamptz,
  apply_outcome text,
  apply_message text,
  updated_at timestamptz not null default private.clock(),
  constraint right_removals_state check (state in ('requested', 'verified', 'unverified')),
  constraint right_removals_method check (method in ('ticket', 'connector')),
  constraint right_removals_ticket check (
    method = 'ticket' and char_length(btrim(ticket)) between 1 and 200 or method = 'connector' and ticket is null
  ),
  constraint right_removals_verified check ((state = 'verified') = (verified_at is not null and verified_source is not null)),
  constraint right_removals_source check (verified_source in ('csv', 'connector')),
  constraint right_removals_apply_outcome check (apply_outcome in ('removed', 'already_absent', 'failed')),
  constraint right_removals_apply_message check (char_length(apply_message) <= 500)
);
alter table public.right_removals enable row level security;

-- One removal per right.
create unique index right_removals_right_id_key on public.right_removals (right_id);
create index right_removals_application_state_idx on public.right_removals (application_id, state);
create index right_removals_state_requested_idx on public.right_removals (state, requested_at);
create index right_removals_campaign_id_idx on public.right_removals (campaign_id);
create index right_removals_decision_id_idx on public.right_removals (decision_id);
create index right_removals_requested_by_idx on public.right_removals (requested_by);

create trigger right_removals_set_updated_at
  before update on public.right_removals
  for each row execute function private.set_updated_at();

create trigger right_removals_audit
  after insert or update or delete on public.right_removals
  for each row execute function private.audit_row_change();

create policy "Application owners, administrators and the RSSI read removals" on public.right_removals
  for select to authenticated
  using (
    (select private.is_admin_or_rssi())
    or application_id in (select private.my_applications())
  );

-- Written only by the functions below.
revoke all on public.right_removals from anon, authenticated, service_role;
grant select on public.right_removals to authenticated, service_role;

create function private.removal_delay_days(p_application_id uuid) returns integer
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select s.removal_delay_days from public.remediation_settings s where s.application_id = p_application_id), 30)
$$;

grant execute on function private.removal_delay_days(uuid) to authenticated, service_role;

-- rpc('request_right_removal', { p_right_id, p_method, p_ticket?, p_comment? }) → the removal: the RA treats a right
-- awaiting treatment by asking for its removal, through a ticket (its reference) or the connector (an application the
-- connector manages). The treatment is validate_user_right's, as the RA's « Marquer traité »: the same scope, four
-- eyes and decision row; the removal is written in the same transaction.
create function public.request_right_removal(
  p_right_id uuid,
  p_method text,
  p_ticket text default null,
  p_comment text default null
) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_ticket text := nullif(btrim(p_ticket), '');
  v_right public.user_rights;
  v_decision jsonb;
  v_removal public.right_removals;
begin
  if p_method is null or p_method not in ('ticket', 'connector') then
    raise exception 'Précisez comment la suppression est demandée : par un ticket ou par le connecteur.' using errcode = '22023';
  end if;
  if p_method = 'ticket' and v_ticket is null then
    raise exception 'Indiquez la référence du ticket de suppression.' using errcode = '22023';
  end if;
  if char_length(v_ticket) > 200 then
    raise exception 'La référence du ticket ne doit pas dépasser 200 caractères.' using errcode = '22001';
  end if;
  select * into v_right from public.user_rights ur where ur.id = p_right_id;
  if v_right.id is not null and not (v_right.status = any (private.statuses_awaiting_treatment())) then
    raise exception 'Ce droit n''attend pas de suppression : seul un droit refusé ou non revu à la clôture peut être supprimé.'
      using errcode = '22023';
  end if;
  if p_method = 'connector' and v_right.id is not null and not exists (
    select 1 from public.remediation_settings s where s.application_id = v_right.application_id and s.connector_managed
  ) then
    raise exception 'Cette application n''est pas gérée par le connecteur d''annuaire : indiquez la référence du ticket.'
      using errcode = '22023';
  end if;

  -- Refuses whoever may not treat this right, with the workflow's own message, before anything is written.
  v_decision := public.validate_user_right(p_right_id, 'treated', coalesce(nullif(btrim(p_comment), ''),
    case when p_method = 'ticket' then 'Suppression demandée (ticket ' || v_ticket || ')' else 'Suppression demandée au connecteur' end));

  insert into public.right_removals (
    right_id, application_id, application_name, holder_id, holder_email, holder_name, role_name, campaign_id,
    decision_id, method, ticket, requested_at, requested_by, requested_by_name, due_at
  )
  select v_right.id, a.id, a.name, h.id, h.email, h.first_name || ' ' || h.last_name, v_right.role_name,
         v_right.campaign_id, (v_decision ->> 'decision_id')::uuid, p_method,
         case when p_method = 'ticket' then v_ticket end, private.clock(), me.id, me.first_name || ' ' || me.last_name,
         private.clock() + make_interval(days => private.removal_delay_days(a.id))
    from public.applications a
    join public.users h on h.id = v_right.user_id
    join public.users me on me.id = auth.uid()
   where a.id = v_right.application_id
  returning * into v_removal;
  return to_jsonb(v_removal);
end;
$$;

revoke execute on function public.request_right_removal(uuid, text, text, text) from public, anon;
grant execute on function public.request_right_removal(uuid, text, text, text) to authenticated;

-- rpc('set_removal_delay', { p_application_id, p_days }): the days after which an application's removal still present
-- is « non constatée » (admin and rssi).
create function public.set_removal_delay(p_application_id uuid, p_days integer) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent régler le délai de suppression.');
  if p_days is null or p_days not between 0 and 365 then
    raise exception 'Le délai de constat doit être compris entre 0 et 365 jours.' using errcode = '22023';
  end if;
  if not exists (select 1 from public.applications a where a.id = p_application_id) then
    raise exception 'Application introuvable.' using errcode = 'P0001';
  end if;
  insert into public.remediation_settings (application_id, removal_delay_days)
  values (p_application_id, p_days)
  on conflict (application_id) do update set removal_delay_days = excluded.removal_delay_days;
end;
$$;

revoke execute on function public.set_removal_delay(uuid, integer) from public, anon;
grant execute on function public.set_removal_delay(uuid, integer) to authenticated;

-- ─── Complete snapshots of an application's rights ───────────────────────────────────────────────────────────────

-- rpc('import_rights_snapshot', { p_application, p_rows, p_dry_run }) → { success, dry_run, application, lines,
-- created, present, ignored, absent, verified, unverified, errors: [{ line, errors }] }: the application's whole list of
-- accounts and roles (admin and rssi), all or nothing. Rights the list names and Recertif lacks are added (pending, in
-- no campaign); rights Recertif holds and the list lacks are counted (absent), never deleted here: the reviews keep
-- them. Pending removals of the application are settled: absent from the list, constatée; still there past their due
-- date, non constatée. p_rows: [{ line, email, role_name, account_type?, disabled? }]; a line of a disabled account
-- (the connector's) whose person Recertif never knew is left out rather than refused.
create function public.import_rights_snapshot(p_application text, p_rows jsonb, p_dry_run boolean default true)
returns jsonb
language plpgsql security definer
set search_path = ''
-- An application's list of up to 200,000 rights: beyond the API's 8 s.
set statement_timeout = '2min'
as $$
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent importer les droits d''une application.');
  return private.apply_rights_snapshot(p_application, p_rows, 'csv', coalesce(p_dry_run, true), private.clock());
end;
$$;

revoke execute on function public.import_rights_snapshot(text, jsonb, boolean) from public, anon;
grant execute on function public.import_rights_snapshot(text, jsonb, boolean) to authenticated;

-- Reads a snapshot's lines into pg_temp.rights_snapshot (dropped at commit), each with its holder and what is wrong
-- with it, and returns the lines in error: [{ line, errors }].
create function private.load_rights_snapshot(p_rows jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_errors jsonb;
begin
  drop table if exists pg_temp.rights_snapshot;
  perform 'PRAGMA:TABLE: rights_snapshot (line integer, email text, role_name text, disabled boolean, '
          'account_type public.account_type, account_type_text text, user_id uuid, first_line integer, errors text[])';
  create temp table rights_snapshot on commit drop as
  with raw as (
    select
      case when jsonb_typeof(e.value -> 'line') = 'number' then (e.value ->> 'line')::integer else e.ordinality::integer + 1 end as line,
      jsonb_typeof(e.value) = 'object' as is_object,
      nullif(btrim(e.value ->> 'email'), '') as email,
      nullif(btrim(e.value ->> 'role_name'), '') as role_name,
      nullif(btrim(e.value ->> 'account_type'), '') as account_type_text,
      coalesce(e.value ->> 'disabled' = 'true', false) as disabled
    from jsonb_array_elements(p_rows) with ordinality as e (value, ordinality)
  )
  select
    raw.line, raw.email, raw.role_name, raw.disabled,
    coalesce(private.parse_account_type(raw.account_type_text), case when raw.account_type_text is null then 'standard'::public.account_type end) as account_type,
    raw.account_type_text,
    u.id as user_id,
    min(raw.line) over (partition by lower(raw.email), lower(raw.role_name)) as first_line,
    array_remove(array[
      case when not raw.is_object then 'ligne illisible' end,
      case when raw.is_object and raw.email is null then 'e-mail manquant'
           when raw.is_object and u.id is null and not raw.disabled then format('utilisateur inconnu : %s', left(raw.email, 60)) end,
      case when raw.is_object and raw.role_name is null then 'rôle manquant'
           when char_length(raw.role_name) > 200 then 'rôle trop long (200 caractères au plus)' end
    ], null) as errors
  from raw
  left join public.users u on lower(u.email) = lower(raw.email);
  analyze pg_temp.rights_snapshot;

  update pg_temp.rights_snapshot s set errors = s.errors || format('type de compte inconnu : %s', left(s.account_type_text, 60))
   where s.account_type is null;
  update pg_temp.rights_snapshot s set errors = s.errors || format('doublon de la ligne %s', s.first_line)
   where s.line <> s.first_line and s.email is not null and s.role_name is not null;

  select coalesce(jsonb_agg(jsonb_build_object('line', s.line, 'errors', to_jsonb(s.errors)) order by s.line), '[]'::jsonb)
    into v_errors
    from pg_temp.rights_snapshot s
   where cardinality(s.errors) > 0;
  return v_errors;
end;
$$;

-- Settles an application's pending removals against the snapshot loaded: absent from it, constatée; still there past
-- their due date, non constatée. On a dry run, only counts them.
create function private.settle_removals(
  p_application_id uuid, p_source text, p_dry_run boolean, p_now timestamptz, out verified bigint, out unverified bigint
)
language plpgsql
set search_path = ''
as $$
begin
  perform 'PRAGMA:TABLE: rights_snapshot (line integer, email text, role_name text, disabled boolean, '
          'account_type public.account_type, account_type_text text, user_id uuid, first_line integer, errors text[])';
  if p_dry_run then
    select count(*) into verified from public.right_removals rr
     where rr.application_id = p_application_id and rr.state in ('requested', 'unverified')
       and not exists (select 1 from pg_temp.rights_snapshot s where s.user_id = rr.holder_id and lower(s.role_name) = lower(rr.role_name));
    select count(*) into unverified from public.right_removals rr
     where rr.application_id = p_application_id and rr.state = 'requested' and rr.due_at <= p_now
       and exists (select 1 from pg_temp.rights_snapshot s where s.user_id = rr.holder_id and lower(s.role_name) = lower(rr.role_name));
    return;
  end if;
  update public.right_removals rr
     set state = 'verified', verified_at = p_now, verified_source = p_source
   where rr.application_id = p_application_id and rr.state in ('requested', 'unverified')
     and not exists (select 1 from pg_temp.rights_snapshot s where s.user_id = rr.holder_id and lower(s.role_name) = lower(rr.role_name));
  get diagnostics verified = row_count;
  update public.right_removals rr
     set state = 'unverified', unverified_at = p_now
   where rr.application_id = p_application_id and rr.state = 'requested' and rr.due_at <= p_now
     and exists (select 1 from pg_temp.rights_snapshot s where s.user_id = rr.holder_id and lower(s.role_name) = lower(rr.role_name));
  get diagnostics unverified = row_count;
end;
$$;

create function private.apply_rights_snapshot(
  p_application text,
  p_rows jsonb,
  p_source text,
  p_dry_run boolean,
  p_now timestamptz
) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_app public.applications;
  v_errors jsonb;
  v_counts record;
  v_created bigint := 0::bigint;
  v_verified bigint := 0::bigint;
  v_unverified bigint := 0::bigint;
begin
  select * into v_app from public.applications a where lower(a.name) = lower(btrim(p_application));
  if v_app.id is null then
    raise exception 'Application inconnue : %.', coalesce(p_application, '(sans nom)') using errcode = '22023';
  end if;
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'L''import attend une liste de lignes.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_rows) > 200000 then
    raise exception 'La liste contient % lignes : 200 000 au plus par application.', jsonb_array_length(p_rows) using errcode = '22023';
  end if;
  -- One snapshot of an application at a time: two would settle the same removals.
  perform pg_advisory_xact_lock(hashtext('recertif.rights_snapshot'), hashtext(v_app.id::text));
  v_errors := private.load_rights_snapshot(p_rows);
  perform 'PRAGMA:TABLE: rights_snapshot (line integer, email text, role_name text, disabled boolean, '
          'account_type public.account_type, account_type_text text, user_id uuid, first_line integer, errors text[])';

  select
    count(*) as lines,
    count(*) filter (where ur.id is null and s.user_id is not null) as to_create,
    count(*) filter (where s.user_id is null) as ignored,
    (select count(*) from public.user_rights r
      where r.application_id = v_app.id
        and not exists (select 1 from pg_temp.rights_snapshot x where x.user_id = r.user_id and lower(x.role_name) = lower(r.role_name))
    ) as absent
    into v_counts
    from pg_temp.rights_snapshot s
    left join public.user_rights ur on ur.application_id = v_app.id and ur.user_id = s.user_id and lower(ur.role_name) = lower(s.role_name);

  if jsonb_array_length(v_errors) = 0 then
    select r.verified, r.unverified into v_verified, v_unverified
      from private.settle_removals(v_app.id, p_source, p_dry_run, p_now) r;
    if not p_dry_run then
      insert into public.user_rights (user_id, application_id, role_name, account_type)
      select s.user_id, v_app.id, s.role_name, s.account_type
        from pg_temp.rights_snapshot s
       where s.line = s.first_line and s.user_id is not null
         and not exists (
           select 1 from public.user_rights ur
            where ur.application_id = v_app.id and ur.user_id = s.user_id and lower(ur.role_name) = lower(s.role_name)
         );
      get diagnostics v_created = row_count;

      if p_source = 'connector' then
        insert into public.remediation_settings (application_id, connector_managed) values (v_app.id, true)
        on conflict (application_id) do update set connector_managed = true
         where not public.remediation_settings.connector_managed;
      end if;
      perform private.write_audit('import_rights_snapshot', 'applications', v_app.id::text, jsonb_build_object(
        'source', p_source, 'lines', v_counts.lines, 'created', v_created, 'absent', v_counts.absent,
        'verified', v_verified, 'unverified', v_unverified
      ));
    else
      v_created := v_counts.to_create;
    end if;
  end if;

  drop table pg_temp.rights_snapshot;
  return jsonb_build_object(
    'success', jsonb_array_length(v_errors) = 0,
    'dry_run', p_dry_run,
    'application', v_app.name,
    'lines', v_counts.lines,
    'created', case when jsonb_array_length(v_errors) = 0 then v_created else 0 end,
    'present', v_counts.lines - v_counts.to_create - v_counts.ignored,
    'ignored', case when jsonb_array_length(v_errors) = 0 then v_counts.ignored else 0 end,
    'absent', v_counts.absent,
    'verified', v_verified,
    'unverified', v_unverified,
    'errors', v_errors
  );
end;
$$;

revoke execute on function private.apply_rights_snapshot(text, jsonb, text, boolean, timestamptz),
  private.load_rights_snapshot(jsonb), private.settle_removals(uuid, text, boolean, timestamptz) from public;
grant execute on function private.apply_rights_snapshot(text, jsonb, text, boolean, timestamptz) to authenticated, service_role;

-- ─── The connector ───────────────────────────────────────────────────────────────────────────────────────────────

-- Acts, for the rest of the transaction, as the active administrator or RSSI of this e-mail: the imports check that
-- person's role and audit them, as when they import files on screen. The secret key stands for the second factor
-- such a session needs (aal2): whoever holds it could do anything already.
create function private.act_as_connector_account(p_email text) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  v_person public.users;
begin
  select * into v_person from public.users u where lower(u.email) = lower(btrim(p_email));
  if v_person.id is null or not v_person.active or v_person.role not in ('admin', 'rssi') then
    raise exception 'Le compte du connecteur (%) doit être un administrateur ou le RSSI, actif dans Recertif.',
      coalesce(p_email, 'non renseigné') using errcode = '42501';
  end if;
  perform set_config('request.jwt.claims', jsonb_build_object(
    'sub', v_person.id, 'email', v_person.email, 'role', 'authenticated', 'aal', 'aal2', 'connector', true)::text, true);
  return v_person.id;
end;
$$;

revoke execute on function private.act_as_connector_account(text) from public;
grant execute on function private.act_as_connector_account(text) to service_role;

-- rpc('connector_sync', { p_run }) → { directory, applications: [reports] } (service_role only): one run of the
-- directory connector, all or nothing. p_run: { account: e-mail of the Recertif administrator or RSSI it acts as,
-- directory: import_directory's rows (complete), applications: [{ name, rows }] (each application's complete
-- snapshot), now?: the run's clock (defaults to the database's), dry_run?: checks and counts only }. Any refused line
-- refuses the whole run, its reports in the error's detail (JSON).
create function public.connector_sync(p_run jsonb) returns jsonb
language plpgsql security definer
set search_path = ''
-- A directory of 100,000 people and its applications' rights in one transaction: beyond the API's 8 s.
set statement_timeout = '10min'
as $$
declare
  v_now timestamptz := coalesce((p_run ->> 'now')::timestamptz, private.clock());
  v_dry_run boolean := coalesce((p_run ->> 'dry_run')::boolean, false);
  v_directory jsonb;
  v_reports jsonb := '[]'::jsonb;
  v_report jsonb;
  v_app jsonb;
begin
  if p_run is null or jsonb_typeof(p_run) <> 'object' then
    raise exception 'Le connecteur doit envoyer un objet JSON.' using errcode = '22023';
  end if;
  if jsonb_typeof(p_run -> 'applications') is distinct from 'array' then
    raise exception 'Le connecteur doit envoyer la liste des applications (éventuellement vide).' using errcode = '22023';
  end if;
  perform private.act_as_connector_account(p_run ->> 'account');

  v_directory := public.import_directory(p_run -> 'directory', true, v_dry_run);
  if not (v_directory ->> 'success')::boolean then
    raise exception 'L''annuaire lu par le connecteur est refusé : rien n''a été importé.'
      using errcode = '22023', detail = jsonb_build_object('directory', v_directory)::text;
  end if;
  for v_app in select * from jsonb_array_elements(p_run -> 'applications') loop
    v_report := private.apply_rights_snapshot(v_app ->> 'name', v_app -> 'rows', 'connector', v_dry_run, v_now);
    if not (v_report ->> 'success')::boolean then
      raise exception 'Les droits lus pour l''application « % » sont refusés : rien n''a été importé.', v_app ->> 'name'
        using errcode = '22023', detail = jsonb_build_object('application', v_report)::text;
    end if;
    v_reports := v_reports || v_report;
  end loop;
  return jsonb_build_object('directory', v_directory, 'applications', v_reports);
end;
$$;

revoke execute on function public.connector_sync(jsonb) from public, anon, authenticated;
grant execute on function public.connector_sync(jsonb) to service_role;

-- A removal the connector may carry out: asked of it, and of a right that a review of a completed campaign refused
-- (or left undecided at closure). The connector never removes anything else.
create view private.connector_removals
with (security_invoker = true)
as
select rr.id, rr.application_name, rr.holder_email, rr.role_name, rr.state, rr.apply_outcome
  from public.right_removals rr
  join public.campaigns c on c.id = rr.campaign_id and c.status in ('completed', 'archived')
 where rr.method = 'connector'
   and rr.state in ('requested', 'unverified')
   and (
     exists (
       select 1 from public.right_decisions d
        where d.right_id = rr.right_id and d.campaign_id = rr.campaign_id and d.decision = 'refused' and d.stage <> 'ra'
     )
     or exists (
       select 1 from public.campaign_items i
        where i.right_id = rr.right_id and i.campaign_id = rr.campaign_id and i.undecided_at_closure
     )
   );

revoke all on private.connector_removals from public, anon, authenticated, service_role;
grant select on private.connector_removals to service_role;

-- rpc('connector_pending_removals') → [{ id, application_name, holder_email, role_name }] (service_role only): what the
-- connector is to remove from the directory: not yet removed, or whose removal failed or is still not constatée.
create function public.connector_pending_removals()
returns table (id uuid, application_name text, holder_email text, role_name text)
language sql stable security definer
set search_path = ''
as $$
  select r.id, r.application_name, r.holder_email, r.role_name
    from private.connector_removals r
   where r.apply_outcome is distinct from 'removed' or r.state = 'unverified'
   order by r.application_name, r.holder_email, r.role_name
$$;

revoke execute on function public.connector_pending_removals() from public, anon, authenticated;
grant execute on function public.connector_pending_removals() to service_role;

-- rpc('connector_record_removals', { p_account, p_outcomes }) → the number recorded (service_role only): what the
-- connector did per removal, as the named account. p_outcomes: [{ id, outcome: removed | already_absent | failed,
-- message? }]; an id the connector was not to remove is refused, and then nothing is recorded.
create function public.connector_record_removals(p_account text, p_outcomes jsonb) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform private.act_as_connector_account(p_account);
  if p_outcomes is null or jsonb_typeof(p_outcomes) <> 'array' then
    raise exception 'Le connecteur doit envoyer la liste des suppressions effectuées.' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_outcomes) e
     where e.value ->> 'outcome' is null or e.value ->> 'outcome' not in ('removed', 'already_absent', 'failed')
        or not exists (select 1 from private.connector_removals r where r.id::text = e.value ->> 'id')
  ) then
    raise exception 'Le connecteur a rendu compte d''une suppression qui ne lui était pas demandée : rien n''est enregistré.'
      using errcode = '22023';
  end if;
  update public.right_removals rr
     set applied_at = private.clock(), apply_outcome = e.value ->> 'outcome', apply_message = left(e.value ->> 'message', 500)
    from jsonb_array_elements(p_outcomes) e
   where rr.id::text = e.value ->> 'id';
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function public.connector_record_removals(text, jsonb) from public, anon, authenticated;
grant execute on function public.connector_record_removals(text, jsonb) to service_role;
