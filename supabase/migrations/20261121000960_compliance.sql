-- The compliance page: the rates per application and the control rules' violations.

-- ─── A rule's violations ─────────────────────────────────────────────────────────────────────────────────────────

-- What a rule's parameters find today among the rights of p_scope (an application, or every one when null), by key:
-- inactivity_threshold the rights never used or not used within that many days, incompatible_roles the people holding
-- two or more of the names. Only the keys it can evaluate (a threshold within bounds, two names); {} when none. The one
-- predicate behind Conformité's violations and the control rules page's « Concerne aujourd'hui ».
create function private.rule_violations(p_parameters jsonb, p_scope uuid) returns jsonb
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v_found jsonb := '{}'::jsonb;
  v_threshold numeric;
  v_roles text[];
  v_count bigint;
begin
  if jsonb_typeof(p_parameters -> 'inactivity_threshold') = 'number' then
    v_threshold := (p_parameters ->> 'inactivity_threshold')::numeric;
  end if;
  -- The bounds the table keeps (private.control_rule_parameters_problem): a draft may be outside them.
  if v_threshold between 0.001 and 36500 then
    select count(*) into v_count
      from public.user_rights ur
     where (p_scope is null or ur.application_id = p_scope)
       and (ur.last_used_at is null or ur.last_used_at < now() - v_threshold::float8 * interval '1 day');
    v_found := v_found || jsonb_build_object('inactivity_threshold', v_count);
  end if;

  -- The same rule as the RSSI dashboard's « Rôles incompatibles » (« RSSI dashboard: risk sets »).
  v_roles := private.rule_roles(p_parameters);
  if coalesce(cardinality(v_roles), 0) >= 2 then
    select count(*) into v_count from private.role_conflict_holders(v_roles, p_scope);
    v_found := v_found || jsonb_build_object('incompatible_roles', v_count);
  end if;
  return v_found;
end;
$$;

revoke execute on function private.rule_violations(jsonb, uuid) from public, anon, authenticated, service_role;
-- rssi_compliance and the control rules page's reads call it as the caller.
grant execute on function private.rule_violations(jsonb, uuid) to authenticated;

-- rpc('control_rule_reach', { p_parameters, p_application_id }) → what a rule being written would find today, as
-- private.rule_violations gives it: { inactivity_threshold?: rights, incompatible_roles?: people }. For admin and rssi.
create function public.control_rule_reach(p_parameters jsonb, p_application_id uuid default null) returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent évaluer une règle de contrôle.');
  perform private.require_application(p_application_id);
  return private.rule_violations(p_parameters, p_application_id);
end;
$$;

-- rpc('control_rules_reach', { p_rule_ids }) → for each of these rules (a page of the list), enabled or not, what it
-- finds today over its own scope, as private.rule_violations gives it. For admin and rssi.
create function public.control_rules_reach(p_rule_ids uuid[])
returns table (rule_id uuid, violations jsonb)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_admin_or_rssi('Seuls les administrateurs et le RSSI peuvent évaluer une règle de contrôle.');
  if cardinality(p_rule_ids) > 100 then
    raise exception 'Au plus 100 règles à la fois.' using errcode = '22023';
  end if;
  return query
    select r.id, private.rule_violations(r.parameters, r.application_id)
      from public.control_rules r
     where r.id = any (p_rule_ids)
     order by r.id;
end;
$$;

revoke execute on function
  public.control_rule_reach(jsonb, uuid),
  public.control_rules_reach(uuid[])
  from public, anon;

grant execute on function
  public.control_rule_reach(jsonb, uuid),
  public.control_rules_reach(uuid[])
  to authenticated;

-- ─── Compliance page ─────────────────────────────────────────────────────────────────────────────────────────────

-- The page's rights per application (p_application_id: that one only, null = all): compliant = not refused and used
-- within 90 days, validated = in a validated state; each application's line, those without rights included, and the
-- totals over them. Run as the caller, planned for the application asked for.
create function private.compliance_by_application(
  p_application_id uuid,
  out total_rights bigint,
  out compliant_rights bigint,
  out validated_rights bigint,
  out application_lines jsonb
)
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_cutoff timestamptz := now() - interval '90 days';
begin
  with per_application as (
    select
      ur.application_id,
      count(*) as total,
      count(*) filter (
        where not (ur.status = any (private.refused_statuses()))
          and ur.last_used_at >= v_cutoff
      ) as compliant,
      count(*) filter (where ur.status = any (private.validated_statuses())) as validated
    from public.user_rights ur
    where p_application_id is null or ur.application_id = p_application_id
    group by ur.application_id
  )
  select
    coalesce(sum(p.total), 0)::bigint, coalesce(sum(p.compliant), 0)::bigint, coalesce(sum(p.validated), 0)::bigint,
    coalesce(jsonb_agg(jsonb_build_object(
      'application_id', a.id,
      'application_name', a.name,
      'total_rights', coalesce(p.total, 0),
      'compliant_rights', coalesce(p.compliant, 0),
      'non_compliant_rights', coalesce(p.total - p.compliant, 0),
      'rate', private.percent(p.compliant, p.total),
      'level', private.rate_level(private.percent(p.compliant, p.total))
    ) order by a.name, a.id), '[]'::jsonb)
  into total_rights, compliant_rights, validated_rights, application_lines
  from public.applications a
  left join per_application p on p.application_id = a.id
  where p_application_id is null or a.id = p_application_id;
end;
$$;

-- One rule's line of the page (rssi_compliance's rules, see there): a disabled rule is listed, not evaluated; an
-- enabled one is evaluated by private.rule_violations over its application, or, global, over the page's
-- (p_page_application, null = all). Keys it cannot evaluate are listed as ignored.
create function private.compliance_rule_entry(
  p_rule public.control_rules,
  p_application_name text,
  p_page_application uuid
) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  v_state text := 'disabled';
  v_by_parameter jsonb := '{}'::jsonb;
  v_ignored text[] := array(
    select k from jsonb_object_keys(p_rule.parameters) k
     where k not in ('inactivity_threshold', 'incompatible_roles')
     order by k
  );
begin
  if p_rule.enabled then
    v_by_parameter := private.rule_violations(p_rule.parameters, coalesce(p_rule.application_id, p_page_application));
    if p_rule.parameters ? 'incompatible_roles' and not v_by_parameter ? 'incompatible_roles' then
      v_ignored := array_append(v_ignored, 'incompatible_roles');
    end if;
    v_state := case when v_by_parameter = '{}'::jsonb then 'unsupported' else 'evaluated' end;
  end if;

  return jsonb_build_object(
    'id', p_rule.id,
    'name', p_rule.name,
    'description', p_rule.description,
    'global', p_rule.global,
    'application_id', p_rule.application_id,
    'application_name', p_application_name,
    'parameters', p_rule.parameters,
    'enabled', p_rule.enabled,
    'state', v_state,
    'violations', case when v_state = 'evaluated'
      then (select sum(value::bigint) from jsonb_each_text(v_by_parameter)) end,
    'violations_by_parameter', v_by_parameter,
    'ignored_parameters', to_jsonb(v_ignored)
  );
end;
$$;

revoke execute on function
  private.compliance_by_application(uuid),
  private.compliance_rule_entry(public.control_rules, text, uuid)
  from public, anon, authenticated, service_role;
-- rssi_compliance calls them as the caller.
grant execute on function
  private.compliance_by_application(uuid),
  private.compliance_rule_entry(public.control_rules, text, uuid)
  to authenticated;

-- rpc('rssi_compliance', { p_application_id }) → one JSON object. p_application_id null = all applications; set, it
-- narrows every figure of the page to that application's rights, and the rules to those that apply to it (the
-- global ones and its own).
--
-- Control rules (control_rules.parameters), supported keys; unknown keys are ignored and listed:
--   * inactivity_threshold: number of days > 0 (SPEC §9). A violation is a right in the rule's scope never used or not
--     used within that many days (last_used_at is null or last_used_at < now − threshold days). Unit: rights.
--   * incompatible_roles: array of at least two role names (separation of duties), e.g.
--     {"incompatible_roles": ["Comptable", "Approbateur factures"]}. A violation is a person who holds, within the
--     rule's scope, rights under two or more of the listed names. Names compare exactly as imported (the rule's own
--     names are trimmed); the table refuses a list of fewer than two distinct names (control_rules.sql), which would be
--     reported in ignored_parameters. For a global rule the roles may be held on different applications. Unit: people
--     (a person holding three listed roles is one violation).
--   A rule's scope is every application when it is global, else its application (and, under the page filter, only
--   that application's rights). A rule carrying both keys counts both; violations is their sum and
--   violations_by_parameter gives each.
--   A disabled rule is listed, not evaluated: state 'disabled', violations null (a control that is switched off finds
--   nothing — it is not reported as finding 0). An enabled rule with no usable parameter: state 'unsupported',
--   violations null. Otherwise state 'evaluated'.
--
-- Result:
--   as_of, application_id
--   cards        { total_rights, compliant_rights, non_compliant_rights, compliance_rate, compliance_level,
--                  active_rules (enabled rules that apply), validated_rights }
--   rules        [{ id, name, description, global, application_id, application_name, parameters, enabled, state,
--                  violations, violations_by_parameter { inactivity_threshold?, incompatible_roles? },
--                  ignored_parameters [keys not evaluated] }] by name
--   applications [{ application_id, application_name, total_rights, compliant_rights, non_compliant_rights, rate,
--                  level }] every application (or the filtered one), including those without rights (rate null),
--                  by name
create function public.rssi_compliance(p_application_id uuid default null) returns jsonb
language plpgsql stable
set search_path = ''
set statement_timeout = '1min'
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_rights record;
  v_active_rules integer;
  v_rules jsonb;
begin
  perform private.require_rssi();
  perform private.require_application(p_application_id);

  select f.total_rights, f.compliant_rights, f.validated_rights, f.application_lines into v_rights
    from private.compliance_by_application(p_application_id) f;

  select count(*) filter (where r.enabled)::integer,
         coalesce(jsonb_agg(private.compliance_rule_entry(r, a.name, p_application_id) order by r.name, r.id), '[]'::jsonb)
    into v_active_rules, v_rules
    from public.control_rules r
    left join public.applications a on a.id = r.application_id
   where p_application_id is null or r.global or r.application_id = p_application_id;

  return jsonb_build_object(
    'as_of', now(),
    'application_id', p_application_id,
    'cards', jsonb_build_object(
      'total_rights', v_rights.total_rights,
      'compliant_rights', v_rights.compliant_rights,
      'non_compliant_rights', v_rights.total_rights - v_rights.compliant_rights,
      'compliance_rate', private.percent(v_rights.compliant_rights, v_rights.total_rights),
      'compliance_level', private.rate_level(private.percent(v_rights.compliant_rights, v_rights.total_rights)),
      'active_rules', v_active_rules,
      'validated_rights', v_rights.validated_rights
    ),
    'rules', v_rules,
    'applications', v_rights.application_lines
  );
end;
$$;

revoke execute on function
  public.rssi_compliance(uuid)
  from public, anon;

grant execute on function
  public.rssi_compliance(uuid)
  to authenticated;
