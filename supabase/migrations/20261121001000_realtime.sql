-- The live refresh of SPEC §7: changes on these tables reach subscribers allowed to read the row.
alter publication supabase_realtime add table
  public.users,
  public.applications,
  public.campaigns,
  public.user_rights,
  public.control_rules,
  public.audit_logs;
