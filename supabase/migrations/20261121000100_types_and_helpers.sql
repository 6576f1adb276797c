-- Types shared by every area, the private schema that holds helpers the API must not expose, and the helpers every
-- area uses: the audit writer its row triggers call, the status predicates, the page-size check, trigram indexes.

-- Functions created from here on are not executable by everyone: each one is granted explicitly. The
-- built-in EXECUTE for PUBLIC can only be taken back globally (per-schema defaults only add to it), and
-- Supabase's own defaults grant anon and authenticated in public, so both are revoked.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;

create type public.user_role as enum ('user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi');

create type public.right_status as enum (
  'pending',
  'validated_user', 'refused_user',
  'validated_manager', 'refused_manager',
  'validated_bpo_metier', 'refused_bpo_metier',
  'validated_bpo_groupe', 'refused_bpo_groupe',
  'treatment_required', 'treated'
);

create type public.campaign_status as enum ('draft', 'active', 'completed', 'archived');

create type public.account_type as enum ('standard', 'privileged', 'technical', 'shared', 'emergency', 'external');

-- The stage at which a decision is taken, and its outcome (ARCHITECTURE §4).
create type public.review_stage as enum ('user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra');
create type public.review_decision as enum ('approved', 'refused');

-- PostgREST serves only public, so nothing in private is reachable over /rest/v1. Policies run with the
-- caller's privileges, so the API roles may use the schema and execute the predicates granted below.
create schema private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- ─── Status sets ─────────────────────────────────────────────────────────────────────────────────────────────────
-- Definitions (SPEC §2, §4, §9), used by every figure that counts rights by outcome:
--   * validated right = validated_user, validated_manager, validated_bpo_metier or validated_bpo_groupe (the statuses
--                       containing 'validated'; treated is not one of them);
--   * refused right   = refused_user, refused_manager, refused_bpo_metier or refused_bpo_groupe (the statuses
--                       containing 'refused'; treatment_required is not one of them).
-- Callers test "status = any (private.validated_statuses())". Immutable and without arguments, each call is replaced by
-- its value when the query is planned, SET clause and all: the plan reads "status = any ('{…}')", as for the literal
-- list, and the planner folds it into its scans and aggregates.
create function private.validated_statuses() returns public.right_status[]
language sql immutable
set search_path = ''
as $$
  select array['validated_user', 'validated_manager', 'validated_bpo_metier',
               'validated_bpo_groupe']::public.right_status[]
$$;

create function private.refused_statuses() returns public.right_status[]
language sql immutable
set search_path = ''
as $$
  select array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe']::public.right_status[]
$$;

-- A right that awaits the RA's treatment: refused at some stage, or left undecided when its campaign closed. It stays
-- with the RA until treated: no new campaign takes it back for review (ARCHITECTURE §4).
create function private.statuses_awaiting_treatment() returns public.right_status[]
language sql immutable
set search_path = ''
as $$
  select array['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe',
               'treatment_required']::public.right_status[]
$$;

-- A closed campaign: completed or archived. Its items, rights and decisions are frozen (20261121000500_campaigns.sql)
-- and its figures final.
create function private.closed_campaign_statuses() returns public.campaign_status[]
language sql immutable
set search_path = ''
as $$
  select array['completed', 'archived']::public.campaign_status[]
$$;

-- Planning a query that calls them checks EXECUTE as the caller, as a call would.
grant execute on function
  private.validated_statuses(), private.refused_statuses(), private.statuses_awaiting_treatment(),
  private.closed_campaign_statuses()
  to authenticated, service_role;

-- ─── The write-path clock ────────────────────────────────────────────────────────────────────────────────────────
-- When something happened, as the rows that record it say: audit_logs."timestamp", right_decisions.decided_at,
-- user_rights.validated_at and every created_at / updated_at. It is now(), except for the database owner acting
-- directly, who may set recertif.clock for a transaction: the demo seed (supabase/seed.sql) runs the real workflow
-- step by step at the dates of its story (last year's review in October 2025, and so on), so that history lists,
-- periods and trends have something to show, and the sealed audit trail hashes those dates as it would any other.
-- Nothing is rewritten afterwards: each row is written once, by the workflow, at the clock's time, and the seed moves
-- the clock forward only, so the trail's order and its times agree.
-- "No SET ROLE in effect" (the role setting reads 'none') is what tells the owner's own session apart: every API
-- request runs under SET ROLE anon, authenticated or service_role (PostgREST on hosted Supabase, and the local server,
-- supabase/local/rest/session.ts), and a security-definer function changes the current user, not that setting. Those
-- roles cannot log in, so a session without SET ROLE that writes these tables is the owner's or a superuser's (a
-- migration, the seed).
-- So a caller of the API who manages to set recertif.clock still gets now() (tests/db/seed-history.test.ts).
-- Read paths (inactivity, "as of", windows) keep now(): they are about the present, not about when a row was written.
-- It is evaluated wherever it is written, once per row in a column default: the statements that write many rows at
-- once (a campaign's start and completion) read it once into a variable and write that.
create function private.clock() returns timestamptz
language plpgsql stable
set search_path = ''
as $$
begin
  return case
    when pg_catalog.current_setting('role') = 'none' and pg_catalog.current_setting('recertif.clock', true) <> ''
      then pg_catalog.current_setting('recertif.clock', true)::timestamptz
    else pg_catalog.now()
  end;
end;
$$;

grant execute on function private.clock() to authenticated, service_role;

-- ─── Helpers ─────────────────────────────────────────────────────────────────────────────────────────────────────

create function private.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := private.clock();
  return new;
end;
$$;

-- Every list of the API is paged, at most 1000 rows a call (the API's own cap, so no page is ever cut).
create function private.require_page(p_limit integer, p_offset integer default 0) returns void
language plpgsql immutable
set search_path = ''
as $$
begin
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'La taille de page doit être comprise entre 1 et 1000.' using errcode = '22023';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception 'Le décalage de page doit être positif ou nul.' using errcode = '22023';
  end if;
end;
$$;

grant execute on function private.require_page(integer, integer) to authenticated, service_role;

-- Contains-searches (ILIKE '%…%') cannot use a b-tree. Where pg_trgm is available (hosted Supabase, PostgreSQL with
-- its contrib modules) trigram indexes serve them; where it is not (PGlite, the local test engine) the searches give
-- the same answers by scanning. Each area creates its own trigram indexes through private.create_trigram_index.
do $$
begin
  if exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_trgm') then
    create extension if not exists pg_trgm with schema extensions;
  else
    raise notice 'pg_trgm indisponible : recherches sans index trigramme.';
  end if;
end;
$$;

-- Creates a GIN trigram index on p_expression, or nothing where pg_trgm is not installed. Migrations only (the owner).
create function private.create_trigram_index(p_index text, p_table regclass, p_expression text) returns void
language plpgsql
set search_path = ''
as $$
declare
  trgm_schema text;
begin
  select n.nspname::text into trgm_schema
    from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
   where e.extname = 'pg_trgm';
  if trgm_schema is not null then
    -- p_expression is SQL by design (an indexed expression), from the migrations, which alone may call this.
    perform 'PRAGMA:DISABLE:SECURITY_WARNINGS';
    execute format('create index %I on %s using gin ((%s) %I.gin_trgm_ops)', p_index, p_table, p_expression, trgm_schema);
  end if;
end;
$$;

-- ─── The audit writer ────────────────────────────────────────────────────────────────────────────────────────────
-- The trail itself (public.audit_logs, 20261121000300_audit.sql) is written only through these two functions, which
-- every area's row triggers call.

-- The caller's IP, for the audit trail, from the request headers the API passes to Postgres. Only headers the
-- platform writes itself are trusted, never one the client can set:
--   1. CF-Connecting-IP: hosted Supabase's API sits behind Cloudflare, which sets it to the address of the TCP peer it
--      saw and overwrites any value a client sends (supabase discussion #34647, "Is x-forwarded-for safe?");
--   2. otherwise the LAST entry of X-Forwarded-For: each proxy appends the address it received the request from, so
--      the right-most entry is the one our own platform's nearest proxy wrote, while every entry before it may be
--      whatever the client sent (the first one, the "client IP" of the convention, is the easiest to forge). The local
--      server keeps to the same contract: it appends the socket's address and drops any CF-Connecting-IP or X-Real-IP
--      a client sends;
--   3. otherwise none. X-Real-IP is not read: a client can send it, and no proxy of ours sets it.
-- A malformed value never makes the caller's write fail: the audit row then keeps no IP.
create function private.request_ip() returns inet
language plpgsql stable
set search_path = ''
as $$
declare
  headers jsonb;
  hops text[];
  candidate text;
begin
  headers := nullif(current_setting('request.headers', true), '')::jsonb;
  candidate := nullif(btrim(headers ->> 'cf-connecting-ip'), '');
  if candidate is not null then
    -- Entered only when the header is there, so that the usual request pays for no extra subtransaction.
    begin
      return candidate::inet;
    exception when others then
      -- Not an address: the forwarded chain is tried instead.
      null;
    end;
  end if;
  hops := pg_catalog.string_to_array(headers ->> 'x-forwarded-for', ',');
  candidate := nullif(btrim(hops[pg_catalog.cardinality(hops)]), '');
  if candidate is null then
    return null;
  end if;
  return candidate::inet;
exception when others then
  return null;
end;
$$;
-- Appends one audit row for the current caller. The actor's e-mail and name are copied so that the row
-- still says who acted after that person's profile is gone.
create function private.write_audit(
  p_action text,
  p_resource_type text,
  p_resource_id text,
  p_details jsonb
) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  actor_id uuid := auth.uid();
  actor_email text := auth.email();
  actor_name text;
begin
  if actor_id is not null then
    select u.email, u.first_name || ' ' || u.last_name
      into actor_email, actor_name
      from public.users u
     where u.id = actor_id;
    actor_email := coalesce(actor_email, auth.email());
  end if;

  insert into public.audit_logs (user_id, user_email, user_name, action, resource_type, resource_id, details, ip_address)
  values (
    actor_id,
    actor_email,
    coalesce(actor_name, case when actor_id is null then 'Système' end),
    p_action,
    p_resource_type,
    p_resource_id,
    coalesce(p_details, '{}'::jsonb),
    private.request_ip()
  );
end;
$$;

-- Only the owner's triggers and functions append to the trail: no API role may call this to forge an entry,
-- whatever the default privileges in force when the migration runs.
revoke execute on function private.write_audit(text, text, text, jsonb) from public;

-- Row trigger for every audited table: inserts keep the new row, deletes the old one, updates only the
-- fields that changed (before and after). A function that writes a richer entry of its own (a review
-- decision) sets recertif.audit_suppressed for its transaction so the same change is not logged twice.
create function private.audit_row_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  old_row jsonb;
  new_row jsonb;
  changes jsonb := '{}'::jsonb;
  field text;
  details jsonb;
begin
  if current_setting('recertif.audit_suppressed', true) = 'on' then
    return null;
  end if;

  -- A person's search_text (public.users) is derived from the fields logged beside it: logged too, it would double
  -- the row the sealed chain keeps and hashes, and repeat every change of a name or a department.
  if tg_op <> 'INSERT' then
    old_row := to_jsonb(old) - 'search_text';
  end if;
  if tg_op <> 'DELETE' then
    new_row := to_jsonb(new) - 'search_text';
  end if;

  if tg_op = 'UPDATE' then
    for field in select jsonb_object_keys(new_row) loop
      if field <> 'updated_at' and (new_row -> field) is distinct from (old_row -> field) then
        changes := changes || jsonb_build_object(field, jsonb_build_object('old', old_row -> field, 'new', new_row -> field));
      end if;
    end loop;
    if changes = '{}'::jsonb then
      return null;
    end if;
    details := jsonb_build_object('changes', changes);
  elsif tg_op = 'INSERT' then
    details := jsonb_build_object('new', new_row);
  else
    details := jsonb_build_object('old', old_row);
  end if;

  perform private.write_audit(
    case tg_op when 'INSERT' then 'create' when 'UPDATE' then 'update' else 'delete' end,
    tg_table_name,
    coalesce(new_row, old_row) ->> 'id',
    details
  );
  return null;
end;
$$;

