-- The scheduled notification pass may outlast the service role's statement timeout (8 s, as on hosted Supabase):
-- PostgREST reads a called function's `statement_timeout` and applies it to the call instead of the role's. The other
-- long calls set theirs in their own definitions.
alter function public.run_notification_schedule set statement_timeout = '2min';
