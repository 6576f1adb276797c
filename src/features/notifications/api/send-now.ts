import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { SendNowResult } from '../model'
import { notificationKeys } from './notification-keys'

const FUNCTION_URL = '/.netlify/functions/notifications-send'
const UNREACHABLE = "Le service d'envoi n'a pas répondu. Veuillez réessayer."

/**
 * Makes every unsent message due and runs the delivery pass at once (admin and rssi: the database checks). Goes through
 * the notifications-send function with the caller's own token, never the service role.
 */
export async function sendNow(): Promise<SendNowResult> {
  const { data } = await getSupabase().auth.getSession()
  const token = data.session?.access_token
  if (!token) throw new ApiError({ message: 'Vous devez être connecté.' })
  let response: Response
  try {
    response = await fetch(FUNCTION_URL, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
  } catch {
    throw new ApiError({ message: UNREACHABLE })
  }
  const answer = (await response.json().catch(() => null)) as (SendNowResult & { error?: string }) | null
  if (!response.ok || !answer) throw new ApiError({ message: answer?.error ?? UNREACHABLE })
  return answer
}

export function useSendNow() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: sendNow, onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }) })
}
