-- The compliance page: the rates per application and the control rules' violations.

-- ─── Compliance page ─────────────────────────────────────────────────────────────────────────────────────────────

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
--     names are trimmed; non-string and blank entries are ignored); a list with fewer than two distinct names cannot
--     be evaluated and is reported in ignored_parameters. For a global rule the roles may be held on different
--     applications. Unit: people (a person holding three listed roles is one violation).
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
set plan_cache_mode = force_custom_plan
set jit = off
as $$
declare
  v_cutoff timestamptz := now() - interval '90 days';
  v_applications jsonb;
  v_total bigint;
  v_compliant bigint;
  v_validated bigint;
  v_active_rules integer := 0;
  v_rules jsonb := '[]'::jsonb;
  v_rule record;
  v_scope uuid;
  v_state text;
  v_by_parameter jsonb;
  v_ignored text[];
  v_threshold numeric;
  v_roles text[];
  v_count bigint;
begin
  perform private.require_rssi();
  perform private.require_application(p_application_id);

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
  into v_total, v_compliant, v_validated, v_applications
  from public.applications a
  left join per_application p on p.application_id = a.id
  where p_application_id is null or a.id = p_application_id;

  for v_rule in
    select r.*, a.name as application_name
      from public.control_rules r
      left join public.applications a on a.id = r.application_id
     where p_application_id is null or r.global or r.application_id = p_application_id
     order by r.name, r.id
  loop
    v_by_parameter := '{}'::jsonb;
    v_ignored := array(
      select k from jsonb_object_keys(v_rule.parameters) k
       where k not in ('inactivity_threshold', 'incompatible_roles')
       order by k
    );
    -- The rights this rule looks at: its application, or, for a global rule, the page's (null = all).
    v_scope := coalesce(v_rule.application_id, p_application_id);

    if v_rule.enabled then
      v_active_rules := v_active_rules + 1;

      if v_rule.parameters ? 'inactivity_threshold' then
        -- control_rules_inactivity_threshold guarantees a number > 0.
        v_threshold := (v_rule.parameters ->> 'inactivity_threshold')::numeric;
        select count(*) into v_count
          from public.user_rights ur
         where (v_scope is null or ur.application_id = v_scope)
           and (ur.last_used_at is null or ur.last_used_at < now() - v_threshold::float8 * interval '1 day');
        v_by_parameter := v_by_parameter || jsonb_build_object('inactivity_threshold', v_count);
      end if;

      if v_rule.parameters ? 'incompatible_roles' then
        -- The same rule as the RSSI dashboard's « Rôles incompatibles » (« RSSI dashboard: risk sets »).
        v_roles := private.rule_roles(v_rule.parameters);
        if coalesce(cardinality(v_roles), 0) >= 2 then
          select count(*) into v_count from private.role_conflict_holders(v_roles, v_scope);
          v_by_parameter := v_by_parameter || jsonb_build_object('incompatible_roles', v_count);
        else
          v_ignored := array_append(v_ignored, 'incompatible_roles');
        end if;
      end if;

      v_state := case when v_by_parameter = '{}'::jsonb then 'unsupported' else 'evaluated' end;
    else
      v_state := 'disabled';
    end if;

    v_rules := v_rules || jsonb_build_array(jsonb_build_object(
      'id', v_rule.id,
      'name', v_rule.name,
      'description', v_rule.description,
      'global', v_rule.global,
      'application_id', v_rule.application_id,
      'application_name', v_rule.application_name,
      'parameters', v_rule.parameters,
      'enabled', v_rule.enabled,
      'state', v_state,
      'violations', case when v_state = 'evaluated'
        then (select sum(value::bigint) from jsonb_each_text(v_by_parameter)) end,
      'violations_by_parameter', v_by_parameter,
      'ignored_parameters', to_jsonb(v_ignored)
    ));
  end loop;

  return jsonb_build_object(
    'as_of', now(),
    'application_id', p_application_id,
    'cards', jsonb_build_object(
      'total_rights', v_total,
      'compliant_rights', v_compliant,
      'non_compliant_rights', v_total - v_compliant,
      'compliance_rate', private.percent(v_compliant, v_total),
      'compliance_level', private.rate_level(private.percent(v_compliant, v_total)),
      'active_rules', v_active_rules,
      'validated_rights', v_validated
    ),
    'rules', v_rules,
    'applications', v_applications
  );
end;
$$;

revoke execute on function
  public.rssi_compliance(uuid)
  from public, anon;

grant execute on function
  public.rssi_compliance(uuid)
  to authenticated;
