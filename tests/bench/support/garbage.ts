import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * A full collection of the bench process's own garbage, before a timed round. The bench is the load generator: its
 * 50 reviewers' clients, the browser driver and the app's preview server share one heap, and a major collection during
 * the round (50 ms at scale 10) stopped every reviewer's response handling at once, which the round then counted as
 * the server's time. JMH collects between iterations for the same reason.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
}
