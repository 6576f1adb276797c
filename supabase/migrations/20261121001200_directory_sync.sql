-- Directory synchronisation: the directory and the applications loaded from files, leavers deactivated (never
-- deleted), and the list of people to invite. The users' active, deactivated_at and deactivated_by columns are in
-- 20261121000200_directory.sql, with the table; the reviewers' « Refuser » recommendation for a leaver's rights is in
-- 20261121000800_reviews.sql and the RSSI's risk « Comptes expirés » in 20261121000900_reporting.sql.
--
-- Both imports are all or nothing: every line is checked first, each problem reported in French with its line number
-- (the header being line 1, as the browser counts them); if any line is wrong, nothing is written. With p_dry_run the
-- same checks and counts come back without writing anything: the preview the screen shows before applying.
--
-- They are security definer because they write columns no API role may write (active) and must see the whole
-- directory whatever the caller's policies; they check the caller's role themselves. The per-row audit triggers of
-- users and applications record one event per person or application changed; the import adds one event with its
-- counts.

-- Files larger than this are refused whole: an organisation's directory fits, and a file of 50,000 lines is a mistake
-- (another export, a concatenation) rather than a directory.
create function private.import_line_limit() returns integer
language sql immutable
set search_path = ''
as $$ select 20000 $$;

-- A role as a file names it: the code, or its French label (SPEC §1), whatever the case and accents.
create function private.parse_user_role(p_value text) returns public.user_role
language sql immutable
set search_path = ''
as $$
  select case translate(lower(btrim(p_value)), 'éèêàâ''’', 'eeeaa  ')
    when 'user' then 'user' when 'utilisateur' then 'user'
    when 'manager' then 'manager'
    when 'bpo_metier' then 'bpo_metier' when 'bpo metier' then 'bpo_metier'
    when 'bpo_groupe' then 'bpo_groupe' when 'bpo groupe' then 'bpo_groupe'
    when 'ra' then 'ra' when 'responsable d application' then 'ra'
    when 'admin' then 'admin' when 'administrateur' then 'admin'
    when 'rssi' then 'rssi'
  end::public.user_role
$$;

create function private.require_import_rows(p_rows jsonb) returns void
language plpgsql
set search_path = ''
as $$
begin
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'L''import attend une liste de lignes.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_rows) = 0 then
    raise exception 'Le fichier ne contient aucune ligne à importer.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_rows) > private.import_line_limit() then
    raise exception 'Le fichier contient % lignes : % au plus par import.',
      to_char(jsonb_array_length(p_rows), 'FM999G999G999'), to_char(private.import_line_limit(), 'FM999G999G999')
      using errcode = '22023', hint = 'Vérifiez qu''il s''agit bien de l''annuaire : un autre export ou plusieurs fichiers mis bout à bout ?';
  end if;
end;
$$;

grant execute on function private.import_line_limit(), private.parse_user_role(text), private.require_import_rows(jsonb)
  to authenticated;

-- ─── The directory ───────────────────────────────────────────────────────────────────────────────────────────────

-- rpc('import_directory', { p_rows, p_complete, p_dry_run }) → { success, dry_run, complete, lines, created, updated,
-- moved, reactivated, leaving, unchanged, errors: [{ line, errors: [...] }], invite: [e-mails], deactivated:
-- [e-mails], reactivated_emails: [e-mails] }.
--   p_rows: [{ line, email, first_name, last_name, position, department, manager_email, role }]. People are matched by
--   e-mail without case; a blank role keeps an existing person's role and makes a new one « Utilisateur »; a blank
--   manager puts the person at the top of the tree. Managers are named by e-mail, in the file (any line) or in the
--   directory; the whole tree is checked as it will be, loops included.
--   p_complete: the file is the whole directory: active people absent from it are deactivated (`leaving`).
--   invite, deactivated and reactivated_emails (empty on a dry run or a refusal): the people to invite (the screen
--   sends their invitations next, in batches), and those the function that runs the import bans and unbans through the
--   auth admin API.
-- import_directory's first step: the file's lines in pg_temp.directory_import (dropped at commit), each with the person
-- it names if they exist, a new id otherwise, and its own problems (errors). p_me: the caller, who may not change
-- their own role.
create function private.stage_directory_import(p_rows jsonb, p_me uuid) returns void
language plpgsql
set search_path = ''
as $$
begin
  drop table if exists pg_temp.directory_import;
  -- The table created below, as plpgsql_check is to read it (scripts/db-lint/plpgsql-check.ts).
  perform 'PRAGMA:TABLE: directory_import (seq bigint, line integer, is_object boolean, email text, first_name text, '
          'last_name text, position text, department text, manager_email text, role_text text, role public.user_role, '
          'first_line integer, first_seq bigint, existing_id uuid, existing_role public.user_role, '
          'existing_active boolean, new_id uuid, manager_id uuid, errors text[])';
  create temp table directory_import on commit drop as
  with raw as (
    select
      e.ordinality as seq,
      case when jsonb_typeof(e.value -> 'line') = 'number' then (e.value ->> 'line')::integer else e.ordinality::integer + 1 end as line,
      jsonb_typeof(e.value) = 'object' as is_object,
      nullif(btrim(e.value ->> 'email'), '') as email,
      nullif(btrim(e.value ->> 'first_name'), '') as first_name,
      nullif(btrim(e.value ->> 'last_name'), '') as last_name,
      nullif(btrim(e.value ->> 'position'), '') as position,
      nullif(btrim(e.value ->> 'department'), '') as department,
      nullif(btrim(e.value ->> 'manager_email'), '') as manager_email,
      nullif(btrim(e.value ->> 'role'), '') as role_text
    from jsonb_array_elements(p_rows) with ordinality as e (value, ordinality)
  )
  select
    raw.*,
    private.parse_user_role(raw.role_text) as role,
    min(raw.line) over (partition by lower(raw.email)) as first_line,
    min(raw.seq) over (partition by lower(raw.email)) as first_seq,
    u.id as existing_id,
    u.role as existing_role,
    u.active as existing_active,
    case when u.id is null then gen_random_uuid() end as new_id,
    null::uuid as manager_id,
    array[]::text[] as errors
  from raw
  left join public.users u on lower(u.email) = lower(raw.email) and raw.email is not null;

  create index on pg_temp.directory_import (seq);
  -- A temporary table has no statistics until analysed: without them the planner joins 10,000 lines by nested loops.
  analyze pg_temp.directory_import;

  -- Each line's own problems.
  update pg_temp.directory_import d set errors = array_remove(array[
    case when not d.is_object then 'ligne illisible' end,
    case when d.is_object and d.email is null then 'e-mail manquant'
         when d.email !~* '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(d.email) > 254 then format('e-mail invalide : %s', left(d.email, 60)) end,
    case when d.is_object and d.first_name is null then 'prénom manquant'
         when char_length(d.first_name) > 100 then 'prénom trop long (100 caractères au plus)' end,
    case when d.is_object and d.last_name is null then 'nom manquant'
         when char_length(d.last_name) > 100 then 'nom trop long (100 caractères au plus)' end,
    case when char_length(d.position) > 200 then 'poste trop long (200 caractères au plus)' end,
    case when char_length(d.department) > 200 then 'département trop long (200 caractères au plus)' end,
    case when d.role_text is not null and d.role is null then format(
      'rôle inconnu : %s (attendus : Utilisateur, Manager, BPO Métier, BPO Groupe, Responsable d''Application, Administrateur, RSSI)',
      left(d.role_text, 60)) end,
    case when d.email is not null and d.seq <> d.first_seq then format('doublon de la ligne %s (%s)', d.first_line, left(d.email, 60)) end,
    case when d.existing_id = p_me and d.role is not null and d.role <> d.existing_role then 'vous ne pouvez pas modifier votre propre rôle' end
  ], null);
end;
$$;

-- import_directory's second step: each line's manager (manager_id), and the problems of the tree the file makes: an
-- unknown, deactivated or (p_complete) departing manager, a loop.
create function private.check_directory_managers(p_complete boolean) returns void
language plpgsql
set search_path = ''
as $$
begin
  perform 'PRAGMA:TABLE: directory_import (seq bigint, line integer, is_object boolean, email text, first_name text, '
          'last_name text, position text, department text, manager_email text, role_text text, role public.user_role, '
          'first_line integer, first_seq bigint, existing_id uuid, existing_role public.user_role, '
          'existing_active boolean, new_id uuid, manager_id uuid, errors text[])';
  -- Managers: someone of the file (whatever the line), else an active person of the directory who stays.
  update pg_temp.directory_import d set
    manager_id = coalesce(r.file_id, case when not p_complete and r.active then r.directory_id end),
    errors = d.errors || array_remove(array[
      case
        when lower(d.manager_email) = lower(d.email) then 'une personne ne peut pas être son propre manager'
        when r.file_id is not null then null
        when r.directory_id is null then format('manager inconnu : %s (ni dans le fichier ni dans l''annuaire)', left(d.manager_email, 60))
        when not r.active then format('manager désactivé : %s', left(d.manager_email, 60))
        when p_complete then format('manager absent du fichier : %s (un import complet le désactiverait)', left(d.manager_email, 60))
      end
    ], null)
  from (
    select x.seq, coalesce(f.existing_id, f.new_id) as file_id, u.id as directory_id, u.active
      from pg_temp.directory_import x
      left join pg_temp.directory_import f on lower(f.email) = lower(x.manager_email) and f.seq = f.first_seq
      left join public.users u on lower(u.email) = lower(x.manager_email)
     where x.manager_email is not null
  ) r
  where d.seq = r.seq;

  -- Loops in the tree as it will be: the file's lines, and the people of the directory the file does not name.
  with recursive edges as (
    select coalesce(d.existing_id, d.new_id) as id, d.manager_id, true as in_file
      from pg_temp.directory_import d
     where d.seq = d.first_seq and d.manager_id is not null and d.email is not null
       and d.manager_id <> coalesce(d.existing_id, d.new_id)
    union all
    select u.id, u.manager_id, false
      from public.users u
     where u.manager_id is not null
       and not exists (select 1 from pg_temp.directory_import d where d.existing_id = u.id)
  ),
  -- A loop the file makes goes through one of its lines (the directory as it stands has none): walks start there.
  walk (start, node, path) as (
    select e.id, e.manager_id, array[e.id] from edges e where e.in_file
    union all
    select w.start, e.manager_id, w.path || e.id
      from walk w
      join edges e on e.id = w.node
     where w.node <> w.start and not (w.node = any (w.path))
  ),
  loops as (
    select w.start, w.path || w.start as path from walk w where w.node = w.start
  ),
  named as (
    select l.start, string_agg(coalesce(f.email, u.email), ' → ' order by p.ordinality) as chain
      from loops l
      cross join lateral unnest(l.path) with ordinality as p (id, ordinality)
      left join pg_temp.directory_import f on coalesce(f.existing_id, f.new_id) = p.id and f.seq = f.first_seq
      left join public.users u on u.id = p.id
     group by l.start
  )
  update pg_temp.directory_import d
     set errors = d.errors || format('la chaîne des managers forme une boucle : %s', left(n.chain, 300))
    from named n
   where coalesce(d.existing_id, d.new_id) = n.start and d.seq = d.first_seq;
end;
$$;

-- import_directory's writes, once the file has no problem: the people created, updated, reactivated and (p_complete)
-- deactivated, and one audit event for each, by p_me. Returns the e-mails to invite, reactivated and deactivated.
create function private.write_directory_import(
  p_complete boolean,
  p_me uuid,
  out invite jsonb,
  out reactivated jsonb,
  out deactivated jsonb
)
language plpgsql
set search_path = ''
as $$
declare
  v_suppressed text;
  v_actor_email text;
  v_actor_name text;
begin
  deactivated := '[]'::jsonb;
  perform 'PRAGMA:TABLE: directory_import (seq bigint, line integer, is_object boolean, email text, first_name text, '
          'last_name text, position text, department text, manager_email text, role_text text, role public.user_role, '
          'first_line integer, first_seq bigint, existing_id uuid, existing_role public.user_role, '
          'existing_active boolean, new_id uuid, manager_id uuid, errors text[])';
  select coalesce(jsonb_agg(d.email order by d.line), '[]'::jsonb) into invite
    from pg_temp.directory_import d where d.existing_id is null;
  select coalesce(jsonb_agg(u.email order by u.email), '[]'::jsonb) into reactivated
    from pg_temp.directory_import d join public.users u on u.id = d.existing_id where not u.active;

  -- The people about to change, as they are, for their audit events below. Those events are written in one
  -- statement rather than by the row trigger: row by row, each its own insert into the sealed trail, they took 15 of
  -- the 17 seconds of an import of 10,000 people.
  drop table if exists pg_temp.directory_before;
  perform 'PRAGMA:TABLE: directory_before (id uuid, old_row jsonb)';
  create temp table directory_before on commit drop as
    select u.id, to_jsonb(u) - 'search_text' as old_row
      from public.users u
     where exists (select 1 from pg_temp.directory_import d where d.existing_id = u.id)
        or (p_complete and u.active);
  v_suppressed := coalesce(current_setting('recertif.audit_suppressed', true), 'off');
  perform set_config('recertif.audit_suppressed', 'on', true);

  -- A new person's manager may be another new person: the foreign key is checked at the end of the statement.
  insert into public.users (id, email, first_name, last_name, role, position, department, manager_id)
  select d.new_id, d.email, d.first_name, d.last_name, coalesce(d.role, 'user'), d.position, d.department, d.manager_id
    from pg_temp.directory_import d
   where d.existing_id is null;

  update public.users u set
    first_name = d.first_name,
    last_name = d.last_name,
    position = d.position,
    department = d.department,
    role = coalesce(d.role, u.role),
    manager_id = d.manager_id,
    active = true,
    deactivated_at = null,
    deactivated_by = null
    from pg_temp.directory_import d
   where u.id = d.existing_id
     and (u.first_name, u.last_name, u.position, u.department, u.role, u.manager_id, u.active)
         is distinct from (d.first_name, d.last_name, d.position, d.department, coalesce(d.role, u.role), d.manager_id, true);

  if p_complete then
    with gone as (
      -- The people the file names, those just created included, stay.
      update public.users u set active = false, deactivated_at = private.clock(), deactivated_by = p_me
       where u.active and not exists (select 1 from pg_temp.directory_import d where coalesce(d.existing_id, d.new_id) = u.id)
      returning u.email
    )
    select coalesce(jsonb_agg(gone.email order by gone.email), '[]'::jsonb) into deactivated from gone;
  end if;
  perform set_config('recertif.audit_suppressed', v_suppressed, true);

  -- One event per person created or changed, as private.audit_row_change writes them (the new row; the changed
  -- fields before and after; search_text left out), by the caller, as private.write_audit names them.
  select u.email, u.first_name || ' ' || u.last_name into v_actor_email, v_actor_name from public.users u where u.id = p_me;
  insert into public.audit_logs (user_id, user_email, user_name, action, resource_type, resource_id, details, ip_address)
  select p_me, coalesce(v_actor_email, auth.email()), v_actor_name, e.action, 'users', e.id::text, e.details, private.request_ip()
    from (
      select 1 as step, 'create' as action, u.id, jsonb_build_object('new', to_jsonb(u) - 'search_text') as details
        from pg_temp.directory_import d
        join public.users u on u.id = d.new_id
       where d.existing_id is null
      union all
      select 2, 'update', u.id, jsonb_build_object('changes', changed.fields)
        from pg_temp.directory_before b
        join public.users u on u.id = b.id
        cross join lateral (
          select jsonb_object_agg(k.key, jsonb_build_object('old', b.old_row -> k.key, 'new', k.value)) as fields
            from jsonb_each(to_jsonb(u) - 'search_text') k
           where k.key <> 'updated_at' and k.value is distinct from b.old_row -> k.key
        ) changed
       where changed.fields is not null
    ) e
   order by e.step, e.id;
  drop table pg_temp.directory_before;
end;
$$;

revoke execute on function
  private.stage_directory_import(jsonb, uuid),
  private.check_directory_managers(boolean),
  private.write_directory_import(boolean, uuid)
  from public;

create function public.import_directory(p_rows jsonb, p_complete boolean default false, p_dry_run boolean default true)
returns jsonb
language plpgsql security definer
set search_path = ''
set statement_timeout = '2min'
-- The planner guesses millions of rows for the tree walk (a recursive query, private.check_directory_managers) and so compiled the checks to
-- machine code: about 0.7 s of JIT per call of 10,000 lines, preview and apply alike, for checks that take 0.5 s.
set jit = off
as $$
declare
  v_complete boolean := coalesce(p_complete, false);
  v_dry_run boolean := coalesce(p_dry_run, true);
  v_me uuid := auth.uid();
  v_counts record;
  v_errors jsonb;
  v_leaving bigint := 0::bigint;
  v_invite jsonb := '[]'::jsonb;
  v_deactivated jsonb := '[]'::jsonb;
  v_reactivated jsonb := '[]'::jsonb;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent importer l''annuaire.');
  perform private.require_import_rows(p_rows);
  -- One import at a time: two concurrent files would each check a tree the other is changing.
  perform pg_advisory_xact_lock(hashtext('recertif.import_directory'));

  -- The table private.stage_directory_import creates, as plpgsql_check is to read it.
  perform 'PRAGMA:TABLE: directory_import (seq bigint, line integer, is_object boolean, email text, first_name text, '
          'last_name text, position text, department text, manager_email text, role_text text, role public.user_role, '
          'first_line integer, first_seq bigint, existing_id uuid, existing_role public.user_role, '
          'existing_active boolean, new_id uuid, manager_id uuid, errors text[])';
  perform private.stage_directory_import(p_rows, v_me);
  perform private.check_directory_managers(v_complete);
  if v_complete and not exists (select 1 from pg_temp.directory_import d where d.existing_id = v_me) then
    raise exception 'Votre propre compte est absent du fichier : un import complet vous désactiverait.'
      using errcode = '22023', hint = 'Ajoutez votre ligne au fichier, ou importez sans « Import complet ».';
  end if;

  select coalesce(jsonb_agg(jsonb_build_object('line', d.line, 'errors', to_jsonb(d.errors)) order by d.line), '[]'::jsonb)
    into v_errors
    from pg_temp.directory_import d
   where cardinality(d.errors) > 0;

  select
    count(*) as lines,
    count(*) filter (where d.existing_id is null) as created,
    count(*) filter (where d.existing_id is not null and (
      u.first_name, u.last_name, u.position, u.department, u.role, u.manager_id, u.active
    ) is distinct from (
      d.first_name, d.last_name, d.position, d.department, coalesce(d.role, u.role), d.manager_id, true
    )) as updated,
    count(*) filter (where d.existing_id is not null and u.manager_id is distinct from d.manager_id) as moved,
    count(*) filter (where d.existing_id is not null and not u.active) as reactivated
    into v_counts
    from pg_temp.directory_import d
    left join public.users u on u.id = d.existing_id;

  if v_complete then
    select count(*) into v_leaving
      from public.users u
     where u.active and not exists (select 1 from pg_temp.directory_import d where d.existing_id = u.id);
  end if;

  if not v_dry_run and jsonb_array_length(v_errors) = 0 then
    select w.invite, w.reactivated, w.deactivated into v_invite, v_reactivated, v_deactivated
      from private.write_directory_import(v_complete, v_me) w;

    perform private.write_audit('import_directory', 'users', null, jsonb_build_object(
      'lines', v_counts.lines, 'created', v_counts.created, 'updated', v_counts.updated, 'moved', v_counts.moved,
      'reactivated', v_counts.reactivated, 'leaving', v_leaving, 'complete', v_complete
    ));
  end if;

  drop table pg_temp.directory_import;
  return jsonb_build_object(
    'success', jsonb_array_length(v_errors) = 0,
    'dry_run', v_dry_run,
    'complete', v_complete,
    'lines', v_counts.lines,
    'created', v_counts.created,
    'updated', v_counts.updated,
    'moved', v_counts.moved,
    'reactivated', v_counts.reactivated,
    'leaving', v_leaving,
    'unchanged', v_counts.lines - v_counts.created - v_counts.updated,
    'errors', v_errors,
    'invite', v_invite,
    'deactivated', v_deactivated,
    'reactivated_emails', v_reactivated
  );
end;
$$;

revoke execute on function public.import_directory(jsonb, boolean, boolean) from public, anon;
grant execute on function public.import_directory(jsonb, boolean, boolean) to authenticated;

-- rpc('set_user_active', { p_user_id, p_active }) → { id, email, active }: deactivates a leaver or reactivates them
-- (admin and rssi). Nobody deactivates themselves: the last administrator would lock everyone out.
create function public.set_user_active(p_user_id uuid, p_active boolean) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_user public.users;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent désactiver ou réactiver un compte.');
  if p_active is null then
    raise exception 'Précisez s''il faut activer ou désactiver le compte.' using errcode = '22023';
  end if;
  if p_user_id = auth.uid() and not p_active then
    raise exception 'Vous ne pouvez pas désactiver votre propre compte.' using errcode = '42501';
  end if;
  update public.users u set
    active = p_active,
    deactivated_at = case when p_active then null else private.clock() end,
    deactivated_by = case when p_active then null else auth.uid() end
   where u.id = p_user_id and u.active is distinct from p_active
  returning * into v_user;
  if v_user.id is null then
    select * into v_user from public.users u where u.id = p_user_id;
    if v_user.id is null then
      raise exception 'Utilisateur introuvable.' using errcode = 'P0001';
    end if;
  end if;
  return jsonb_build_object('id', v_user.id, 'email', v_user.email, 'active', v_user.active);
end;
$$;

revoke execute on function public.set_user_active(uuid, boolean) from public, anon;
grant execute on function public.set_user_active(uuid, boolean) to authenticated;

-- rpc('invitation_emails', { p_emails }) → (email, already) for those of these e-mails that are active people of the
-- directory: each one without a password yet gets an 'invitation' message in the outbox (20261121001100), written in
-- this same transaction, and the whole request is audited as one event; already is true for someone whose account is
-- already confirmed (they signed in, or came through Google), who needs no invitation. The mail itself, with its link
-- to /mot-de-passe, is made by the notification pass (the auth admin API's generateLink, with the service role). One
-- invitation waits per person: asking again while it waits adds nothing; once it was sent (or given up) it is queued
-- again, for a link that has expired. The screen sends a first import's invitations a hundred at a time.
create function public.invitation_emails(p_emails text[]) returns table (email text, already boolean)
language plpgsql security definer
set search_path = ''
as $$
declare
  v_inviter text;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent inviter des utilisateurs.');
  if cardinality(p_emails) > private.import_line_limit() then
    raise exception 'Au plus % invitations à la fois.', private.import_line_limit() using errcode = '22023';
  end if;
  select u.first_name || ' ' || u.last_name into v_inviter from public.users u where u.id = auth.uid();
  -- The same table for plpgsql_check (scripts/db-lint/plpgsql-check.ts), which does not run what it checks.
  perform 'PRAGMA:TABLE: invitation_request (id uuid, email text, name text, already boolean)';
  create temp table if not exists invitation_request (id uuid, email text, name text, already boolean) on commit drop;
  truncate pg_temp.invitation_request;
  insert into pg_temp.invitation_request
  select u.id, u.email, u.first_name || ' ' || u.last_name,
         exists (select 1 from auth.users a where lower(a.email) = lower(u.email) and a.email_confirmed_at is not null)
    from public.users u
   where lower(u.email) in (select lower(e) from unnest(p_emails) e) and u.active;

  insert into public.notifications (recipient_id, recipient_email, kind, payload, dedupe_key)
  select r.id, r.email, 'invitation', jsonb_build_object('recipient_name', r.name, 'inviter_name', v_inviter),
         'invitation:' || r.id
    from pg_temp.invitation_request r
   where not r.already
  on conflict (dedupe_key) do update
     set status = 'queued', attempts = 0, next_attempt_at = private.clock(), last_error = null, sent_at = null,
         recipient_email = excluded.recipient_email, payload = excluded.payload
   where public.notifications.status in ('sent', 'failed');

  if exists (select 1 from pg_temp.invitation_request r where not r.already) then
    perform private.write_audit('invite_users', 'users', null,
      jsonb_build_object('invited', (select count(*) from pg_temp.invitation_request r where not r.already)));
  end if;
  return query select r.email, r.already from pg_temp.invitation_request r order by r.email;
end;
$$;

revoke execute on function public.invitation_emails(text[]) from public, anon;
grant execute on function public.invitation_emails(text[]) to authenticated;

-- ─── The applications ────────────────────────────────────────────────────────────────────────────────────────────

-- The problem with one owner of an application line, or null: missing when required, unknown, without the role the
-- form asks for, or deactivated.
create function private.owner_problem(
  p_label text, p_role_label text, p_is_object boolean, p_required boolean,
  p_email text, p_user_id uuid, p_has_role boolean, p_active boolean
) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when p_email is null then case when p_is_object and p_required then format('%s manquant', p_label) end
    when p_user_id is null then format('%s inconnu : %s', p_label, left(p_email, 60))
    when not p_has_role then format('%s : %s n''a pas le rôle %s', p_label, left(p_email, 60), p_role_label)
    when not p_active then format('%s : %s est désactivé', p_label, left(p_email, 60))
  end
$$;

grant execute on function private.owner_problem(text, text, boolean, boolean, text, uuid, boolean, boolean) to authenticated;

-- import_applications' first step: the file's lines in pg_temp.applications_import (dropped at commit), each with the
-- application it names if it exists and the people its owners' e-mails name, with their role and whether active.
create function private.stage_applications_import(p_rows jsonb) returns void
language plpgsql
set search_path = ''
as $$
begin
  drop table if exists pg_temp.applications_import;
  -- The table created below, as plpgsql_check is to read it (scripts/db-lint/plpgsql-check.ts).
  perform 'PRAGMA:TABLE: applications_import (line integer, is_object boolean, name text, description text, '
          'ra_email text, bpo_metier_email text, bpo_groupe_email text, rssi_email text, first_line integer, '
          'existing_id uuid, ra_id uuid, ra_role public.user_role, ra_active boolean, bpo_metier_id uuid, '
          'bpo_metier_role public.user_role, bpo_metier_active boolean, bpo_groupe_id uuid, '
          'bpo_groupe_role public.user_role, bpo_groupe_active boolean, rssi_id uuid, rssi_role public.user_role, '
          'rssi_active boolean)';
  create temp table applications_import on commit drop as
  with raw as (
    select
      case when jsonb_typeof(e.value -> 'line') = 'number' then (e.value ->> 'line')::integer else e.ordinality::integer + 1 end as line,
      jsonb_typeof(e.value) = 'object' as is_object,
      nullif(btrim(e.value ->> 'name'), '') as name,
      coalesce(btrim(e.value ->> 'description'), '') as description,
      nullif(btrim(e.value ->> 'ra_email'), '') as ra_email,
      nullif(btrim(e.value ->> 'bpo_metier_email'), '') as bpo_metier_email,
      nullif(btrim(e.value ->> 'bpo_groupe_email'), '') as bpo_groupe_email,
      nullif(btrim(e.value ->> 'rssi_email'), '') as rssi_email
    from jsonb_array_elements(p_rows) with ordinality as e (value, ordinality)
  )
  select
    raw.*,
    min(raw.line) over (partition by lower(raw.name)) as first_line,
    a.id as existing_id,
    ra.id as ra_id, ra.role as ra_role, ra.active as ra_active,
    bm.id as bpo_metier_id, bm.role as bpo_metier_role, bm.active as bpo_metier_active,
    bg.id as bpo_groupe_id, bg.role as bpo_groupe_role, bg.active as bpo_groupe_active,
    rs.id as rssi_id, rs.role as rssi_role, rs.active as rssi_active
  from raw
  left join public.applications a on lower(a.name) = lower(raw.name)
  left join public.users ra on lower(ra.email) = lower(raw.ra_email)
  left join public.users bm on lower(bm.email) = lower(raw.bpo_metier_email)
  left join public.users bg on lower(bg.email) = lower(raw.bpo_groupe_email)
  left join public.users rs on lower(rs.email) = lower(raw.rssi_email);
end;
$$;

-- import_applications' writes, once the file has no problem: the applications created, and those updated where a
-- field changed.
create function private.write_applications_import() returns void
language plpgsql
set search_path = ''
as $$
begin
  perform 'PRAGMA:TABLE: applications_import (line integer, is_object boolean, name text, description text, '
          'ra_email text, bpo_metier_email text, bpo_groupe_email text, rssi_email text, first_line integer, '
          'existing_id uuid, ra_id uuid, ra_role public.user_role, ra_active boolean, bpo_metier_id uuid, '
          'bpo_metier_role public.user_role, bpo_metier_active boolean, bpo_groupe_id uuid, '
          'bpo_groupe_role public.user_role, bpo_groupe_active boolean, rssi_id uuid, rssi_role public.user_role, '
          'rssi_active boolean)';
  insert into public.applications (name, description, ra_id, bpo_metier_id, bpo_groupe_id, rssi_id)
  select i.name, i.description, i.ra_id, i.bpo_metier_id, i.bpo_groupe_id, i.rssi_id
    from pg_temp.applications_import i
   where i.existing_id is null;

  update public.applications a set
    name = i.name, description = i.description, ra_id = i.ra_id, bpo_metier_id = i.bpo_metier_id,
    bpo_groupe_id = i.bpo_groupe_id, rssi_id = i.rssi_id
    from pg_temp.applications_import i
   where a.id = i.existing_id
     and (a.name, a.description, a.ra_id, a.bpo_metier_id, a.bpo_groupe_id, a.rssi_id)
         is distinct from (i.name, i.description, i.ra_id, i.bpo_metier_id, i.bpo_groupe_id, i.rssi_id);
end;
$$;

revoke execute on function
  private.stage_applications_import(jsonb),
  private.write_applications_import()
  from public;

-- rpc('import_applications', { p_rows, p_dry_run }) → { success, dry_run, lines, created, updated, unchanged, errors }.
--   p_rows: [{ line, name, description, ra_email, bpo_metier_email, bpo_groupe_email, rssi_email }]. Applications are
--   matched by name without case. The RA and the BPO Métier are required; each owner must be an active person holding
--   that role, as the form requires (private.check_application_owners).
create function public.import_applications(p_rows jsonb, p_dry_run boolean default true) returns jsonb
language plpgsql security definer
set search_path = ''
set statement_timeout = '2min'
as $$
declare
  v_dry_run boolean := coalesce(p_dry_run, true);
  v_errors jsonb;
  v_counts record;
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent importer des applications.');
  perform private.require_import_rows(p_rows);
  perform pg_advisory_xact_lock(hashtext('recertif.import_applications'));

  -- The table private.stage_applications_import creates, as plpgsql_check is to read it.
  perform 'PRAGMA:TABLE: applications_import (line integer, is_object boolean, name text, description text, '
          'ra_email text, bpo_metier_email text, bpo_groupe_email text, rssi_email text, first_line integer, '
          'existing_id uuid, ra_id uuid, ra_role public.user_role, ra_active boolean, bpo_metier_id uuid, '
          'bpo_metier_role public.user_role, bpo_metier_active boolean, bpo_groupe_id uuid, '
          'bpo_groupe_role public.user_role, bpo_groupe_active boolean, rssi_id uuid, rssi_role public.user_role, '
          'rssi_active boolean)';
  perform private.stage_applications_import(p_rows);

  select coalesce(jsonb_agg(jsonb_build_object('line', r.line, 'errors', to_jsonb(r.errors)) order by r.line), '[]'::jsonb)
    into v_errors
    from (
      select i.line, array_remove(array[
        case when not i.is_object then 'ligne illisible' end,
        case when i.is_object and i.name is null then 'nom manquant'
             when char_length(i.name) > 200 then 'nom trop long (200 caractères au plus)' end,
        case when char_length(i.description) > 2000 then 'description trop longue (2000 caractères au plus)' end,
        case when i.name is not null and i.line <> i.first_line then format('doublon de la ligne %s (%s)', i.first_line, left(i.name, 60)) end,
        private.owner_problem('RA', 'Responsable d''Application', i.is_object, true, i.ra_email, i.ra_id, i.ra_role = 'ra', i.ra_active),
        private.owner_problem('BPO Métier', 'BPO Métier', i.is_object, true, i.bpo_metier_email, i.bpo_metier_id, i.bpo_metier_role = 'bpo_metier', i.bpo_metier_active),
        private.owner_problem('BPO Groupe', 'BPO Groupe', i.is_object, false, i.bpo_groupe_email, i.bpo_groupe_id, i.bpo_groupe_role = 'bpo_groupe', i.bpo_groupe_active),
        private.owner_problem('RSSI', 'RSSI', i.is_object, false, i.rssi_email, i.rssi_id, i.rssi_role = 'rssi', i.rssi_active)
      ], null) as errors
      from pg_temp.applications_import i
    ) r
   where cardinality(r.errors) > 0;

  select
    count(*) as lines,
    count(*) filter (where i.existing_id is null) as created,
    count(*) filter (where i.existing_id is not null and (a.name, a.description, a.ra_id, a.bpo_metier_id, a.bpo_groupe_id, a.rssi_id)
      is distinct from (i.name, i.description, i.ra_id, i.bpo_metier_id, i.bpo_groupe_id, i.rssi_id)) as updated
    into v_counts
    from pg_temp.applications_import i
    left join public.applications a on a.id = i.existing_id;

  if not v_dry_run and jsonb_array_length(v_errors) = 0 then
    perform private.write_applications_import();
    perform private.write_audit('import_applications', 'applications', null, jsonb_build_object(
      'lines', v_counts.lines, 'created', v_counts.created, 'updated', v_counts.updated
    ));
  end if;

  drop table pg_temp.applications_import;
  return jsonb_build_object(
    'success', jsonb_array_length(v_errors) = 0,
    'dry_run', v_dry_run,
    'lines', v_counts.lines,
    'created', v_counts.created,
    'updated', v_counts.updated,
    'unchanged', v_counts.lines - v_counts.created - v_counts.updated,
    'errors', v_errors
  );
end;
$$;

revoke execute on function public.import_applications(jsonb, boolean) from public, anon;
grant execute on function public.import_applications(jsonb, boolean) to authenticated;

-- ─── Auth accounts, for the function that runs imports ───────────────────────────────────────────────────────────

-- rpc('auth_account_ids', { p_emails }) → (email, id) of the auth accounts with these e-mails, service role only. A
-- profile keeps a provisional id until its owner's first sign-in (update_user_id), so the function that bans a leaver
-- through the auth admin API (which takes an account id) finds the account by e-mail here: the admin API's list cannot
-- be filtered by e-mail.
create function public.auth_account_ids(p_emails text[]) returns table (email text, id uuid)
language sql stable security definer
set search_path = ''
as $$
  select a.email::text, a.id
    from auth.users a
   where lower(a.email) in (select lower(e) from unnest(p_emails) e)
$$;

revoke execute on function public.auth_account_ids(text[]) from public, anon, authenticated;
grant execute on function public.auth_account_ids(text[]) to service_role;

-- rpc('reset_second_factor', { p_user_id }): an administrator resets another person's second factor (a lost phone).
-- Their TOTP factors are deleted and their sessions ended, so that their next sign-in enrols a new factor; audited.
-- Nobody resets their own this way: a person changes their own factor only from a session that passed it (the auth
-- API's unenrol needs aal2).
create function public.reset_second_factor(p_user_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_email text;
  v_factors integer;
begin
  if private.current_role() is distinct from 'admin'::public.user_role then
    raise exception 'Seul un administrateur peut réinitialiser le second facteur d''une personne.' using errcode = '42501';
  end if;
  if p_user_id = auth.uid() then
    raise exception 'Vous ne pouvez pas réinitialiser votre propre second facteur : un autre administrateur doit le faire.' using errcode = '42501';
  end if;
  select u.email into v_email from public.users u where u.id = p_user_id;
  if v_email is null then
    raise exception 'Personne introuvable.' using errcode = '22023';
  end if;
  with removed as (
    delete from auth.mfa_factors f using auth.users a
     where f.user_id = a.id and lower(a.email) = lower(v_email)
    returning f.id
  )
  select count(*)::integer into v_factors from removed;
  delete from auth.sessions s using auth.users a where s.user_id = a.id and lower(a.email) = lower(v_email);
  perform private.write_audit('reset_second_factor', 'users', p_user_id::text, jsonb_build_object('email', v_email, 'factors', v_factors));
end;
$$;

revoke execute on function public.reset_second_factor(uuid) from public, anon;
grant execute on function public.reset_second_factor(uuid) to authenticated;
