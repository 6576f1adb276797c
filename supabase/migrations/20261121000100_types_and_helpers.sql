-- Types shared by every area, and the private schema that holds helpers the API must not expose.

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

create function private.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- The caller's IP as the API passed it in the request headers (first hop of X-Forwarded-For).
create function private.request_ip() returns inet
language plpgsql stable
set search_path = ''
as $$
declare
  headers jsonb;
  candidate text;
begin
  headers := nullif(current_setting('request.headers', true), '')::jsonb;
  candidate := coalesce(
    nullif(trim(split_part(headers ->> 'x-forwarded-for', ',', 1)), ''),
    nullif(trim(headers ->> 'x-real-ip'), '')
  );
  if candidate is null then
    return null;
  end if;
  return candidate::inet;
exception when others then
  -- A forged or malformed header must not make the caller's write fail; the audit row keeps no IP.
  return null;
end;
$$;
