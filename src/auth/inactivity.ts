/** SPEC §9: five minutes without any of these events signs the person out. */
export const INACTIVITY_TIMEOUT_MS = 5 * 60 * 1000

export const ACTIVITY_EVENTS = ['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart'] as const

interface InactivityOptions {
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
  timeoutMs?: number
  onIdle: () => void
  now?: () => number
}

/**
 * Calls `onIdle` once after `timeoutMs` without activity; returns the function that stops watching.
 * Activity only records a time stamp (mousemove fires constantly); the single timer re-arms itself for what
 * remains when it fires early.
 */
export function watchInactivity({ target, timeoutMs = INACTIVITY_TIMEOUT_MS, onIdle, now = Date.now }: InactivityOptions): () => void {
  let lastActivity = now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const markActivity = () => {
    lastActivity = now()
  }
  const check = () => {
    const idleFor = now() - lastActivity
    if (idleFor >= timeoutMs) {
      stop()
      onIdle()
    } else {
      timer = setTimeout(check, timeoutMs - idleFor)
    }
  }
  const options = { capture: true, passive: true }
  function stop() {
    clearTimeout(timer)
    for (const event of ACTIVITY_EVENTS) target.removeEventListener(event, markActivity, options)
  }
  for (const event of ACTIVITY_EVENTS) target.addEventListener(event, markActivity, options)
  timer = setTimeout(check, timeoutMs)
  return stop
}
