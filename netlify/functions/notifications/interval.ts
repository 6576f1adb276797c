import type { DispatchReport } from './dispatch'
import { runNotificationPass, type PassSettings } from './run'

export interface NotificationInterval {
  /** Stops the timer and waits for a pass under way, so that nothing is left half recorded. */
  stop(): Promise<void>
}

/**
 * What Netlify's schedule does in production, for `npm start`: the same pass every `intervalMs`, one at a time (a pass
 * still running when the next is due is not doubled). A failed pass is reported and the next one tries again.
 */
export function startNotificationInterval(
  settings: Extract<PassSettings, { ok: true }>,
  intervalMs: number,
  report: (outcome: { report: DispatchReport } | { error: unknown }) => void,
): NotificationInterval {
  let running: Promise<void> | undefined
  const tick = () => {
    if (running) return
    running = runNotificationPass(settings)
      .then(
        (outcome) => report({ report: outcome }),
        (error: unknown) => report({ error }),
      )
      .finally(() => (running = undefined))
  }
  const timer = setInterval(tick, intervalMs)
  tick()
  return {
    stop: async () => {
      clearInterval(timer)
      await running
    },
  }
}
