/**
 * What the PGlite thread and the server's thread share without a message: which job the thread runs and since when.
 * The server reads it to cut a statement past its deadline; the compare-and-swaps make the cut exact: once the server
 * has claimed the running job, the thread starts no other, so a job that had not started when the thread was ended
 * never ran and can be sent again.
 */
export class ThreadState {
  /** The running job's id: 0 none, CUT once the server has claimed the running one to end the thread. */
  private readonly running: Int32Array
  private readonly startedAt: Float64Array

  constructor(readonly buffer = new SharedArrayBuffer(16)) {
    this.running = new Int32Array(buffer, 0, 1)
    this.startedAt = new Float64Array(buffer, 8, 1)
  }

  /** Thread side: marks job `id` as running; false if the server is ending the thread (the job must not start). */
  start(id: number): boolean {
    this.startedAt[0] = Date.now()
    return Atomics.compareExchange(this.running, 0, 0, id) === 0
  }

  /** Thread side: job `id` has ended (unless the server claimed it meanwhile). */
  finish(id: number): void {
    Atomics.compareExchange(this.running, 0, id, 0)
  }

  /** Server side: when job `id` started, or null if it is not running. */
  startedAtOf(id: number): number | null {
    if (Atomics.load(this.running, 0) !== id) return null
    const at = this.startedAt[0]!
    return Atomics.load(this.running, 0) === id ? at : null
  }

  /** Server side: claims the running job `id` to end the thread; false if it has ended meanwhile. */
  claim(id: number): boolean {
    return Atomics.compareExchange(this.running, 0, id, CUT) === id
  }

  /** Server side, the thread ended: a new one starts with nothing running. */
  reset(): void {
    Atomics.store(this.running, 0, 0)
  }
}

const CUT = -1

/** A PostgreSQL statement_timeout setting in milliseconds ('3s', '5min', '250' …); undefined for none (0) or unreadable. */
export function statementTimeoutMs(setting: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*$/.exec(setting ?? '')
  if (!match) return undefined
  const unit = { us: 0.001, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms']!
  const ms = Number(match[1]) * unit
  return ms > 0 ? ms : undefined
}
