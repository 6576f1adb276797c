import { verifiedCaller } from './lib/caller'
import { publishableKeyFromEnv } from './lib/supabase-env'
import { restRpc } from './notifications/rpc'
import { passSettingsFromEnv, runNotificationPass } from './notifications/run'

/*
 * "Envoyer maintenant" (admin, rssi): POST /.netlify/functions/notifications-send with the caller's access token
 * (Authorization: Bearer …). A scheduled function cannot be called by URL in production, so this one runs the same pass
 * on demand. The database decides who may: requeue_notifications, called with the caller's own token, refuses anyone
 * but admin and rssi, and makes every unsent message due at once (the given-up ones with their tries counted afresh);
 * only then does the pass run with the service role, which never reaches the browser. Answers { requeued, sent, failed }.
 */

const ERRORS = {
  method: 'Méthode non autorisée.',
  signIn: 'Vous devez être connecté.',
  notConfigured: "L'envoi des notifications est momentanément indisponible : le serveur n'est pas configuré.",
  delivery: "L'envoi des notifications a échoué. Veuillez réessayer plus tard.",
} as const

export default async (request: Request): Promise<Response> => {
  if (request.method !== 'POST') return answer(405, { error: ERRORS.method }, { Allow: 'POST' })
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1]
  if (!token) return answer(401, { error: ERRORS.signIn })

  // Links lead to the address the app was reached at when neither APP_URL nor Netlify's URL is set (`npm run dev`).
  const settings = passSettingsFromEnv(process.env, new URL(request.url).origin)
  const publishableKey = publishableKeyFromEnv(process.env)
  if (!settings.ok || !publishableKey) {
    console.error(`notifications-send: not configured: ${settings.ok ? 'SUPABASE_PUBLISHABLE_KEY is not set' : settings.problems.join('; ')}`)
    return answer(500, { error: ERRORS.notConfigured })
  }
  const caller = await verifiedCaller(request, settings.url, publishableKey)
  if (!caller) return answer(401, { error: ERRORS.signIn })
  try {
    const { data: requeued, error } = await restRpc(settings.url, publishableKey, caller.token)<number>('requeue_notifications')
    if (error) {
      if (error.code === '42501') return answer(403, { error: error.message })
      // PostgREST's PGRST30x: the token is missing, malformed or expired.
      if (error.code?.startsWith('PGRST30')) return answer(401, { error: ERRORS.signIn })
      throw new Error(`requeue_notifications failed: ${error.message}`)
    }
    const report = await runNotificationPass(settings)
    return answer(200, { requeued, sent: report.sent, failed: report.failed })
  } catch (failure) {
    console.error(`notifications-send: ${failure instanceof Error ? failure.message : String(failure)}`)
    return answer(502, { error: ERRORS.delivery })
  }
}

function answer(status: number, body: object, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } })
}
