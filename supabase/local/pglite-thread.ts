import { Worker } from 'node:worker_threads'
import type { Database, Sql } from './database'
import type { DatasetReport } from './dataset/load'
import type { DatasetOptions } from './dataset/options'

/** Which in-memory or on-disk PGlite the thread opens: the seeded demo, a data directory, or the large organisation. */
export type PgliteOpening =
  | { kind: 'seeded' }
  | { kind: 'dir'; dataDir: string }
  | { kind: 'large'; options: DatasetOptions }

/** What the thread says of the large organisation it opened (see openLargeDatasetPglite). */
export interface OpenedLarge {
  report: DatasetReport | null
  file: string
  seconds: number
}

/**
 * A request to the thread; `tx` names an open transaction, whose statements run inside it. `urgent` requests (the
 * background work of separate()) go before the waiting others.
 */
export type ThreadRequest =
  | { id: number; op: 'query'; text: string; params?: unknown[]; tx?: number; urgent?: boolean }
  | { id: number; op: 'exec'; text: string; tx?: number; urgent?: boolean }
  | { id: number; op: 'script'; text: string; urgent?: boolean }
  | { id: number; op: 'begin'; urgent?: boolean }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'close' }

export type ThreadMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Record<string, unknown> }
  | { notify: number; payload: string }
  | { log: string }
  | { opened: OpenedLarge | null }
  | { failed: Record<string, unknown> }

/** An error's message and its own fields (a database error's code, detail, hint…), which postMessage would drop. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) }
  const fields: Record<string, unknown> = { name: error.name, message: error.message }
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value
  }
  return fields
}

function errorFrom(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields)
}

/**
 * Starts the worker's TypeScript entry under tsx's loader, which a worker does not inherit from the process that
 * runs `tsx`.
 */
function startWorker(): Worker {
  const loader = import.meta.resolve('tsx/esm/api')
  const entry = new URL('./pglite-thread-worker.ts', import.meta.url).href
  const source = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(source, { eval: true })
}

/**
 * PGlite on a thread of its own. In the server's thread, a statement's work in the database kept HTTP parsing, token
 * checks, JSON and the realtime delivery of every other request waiting, and the other way round: apart, the two
 * run on two cores at once. The database is the same PGlite with one connection, which runs one statement or
 * transaction at a time; the background work of separate() (the realtime server's) goes before the API's waiting
 * requests, as it has connections of its own on PostgreSQL.
 * `log` receives the opening's progress (the large organisation's generation); `lost` is told if the thread fails or
 * stops other than by close(), after which every call fails.
 */
export async function openPgliteThread(
  opening: PgliteOpening,
  { log = () => undefined, lost = () => undefined }: { log?: (message: string) => void; lost?: (error: Error) => void } = {},
): Promise<{ db: Database; opened: OpenedLarge | null }> {
  const worker = startWorker()
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  const listeners = new Map<number, (payload: string) => void>()
  let nextId = 1
  let gone: Error | null = null
  let closing = false

  let settleOpening: { resolve: (opened: OpenedLarge | null) => void; reject: (error: Error) => void } | null = null
  const opening$ = new Promise<OpenedLarge | null>((resolve, reject) => (settleOpening = { resolve, reject }))

  worker.on('message', (message: ThreadMessage) => {
    if ('notify' in message) listeners.get(message.notify)?.(message.payload)
    else if ('log' in message) log(message.log)
    else if ('opened' in message) settleOpening?.resolve(message.opened)
    else if ('failed' in message) settleOpening?.reject(errorFrom(message.failed))
    else {
      const call = pending.get(message.id)
      pending.delete(message.id)
      if (message.ok) call?.resolve(message.value)
      else call?.reject(errorFrom(message.error))
    }
  })
  const fail = (error: Error) => {
    if (gone) return
    gone = error
    settleOpening?.reject(error)
    for (const call of pending.values()) call.reject(error)
    pending.clear()
    if (!closing) lost(error)
  }
  worker.on('error', (error: Error) => fail(new Error(`The database thread failed: ${error.message}`, { cause: error })))
  worker.on('exit', (code) => fail(new Error(`The database thread stopped (exit code ${code})`)))

  // Requests are matched to answers by id; Omit does not distribute over the union, hence the cast.
  const call = <T>(request: Record<string, unknown> & { op: ThreadRequest['op'] }): Promise<T> => {
    if (gone) return Promise.reject(gone)
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      worker.postMessage({ ...request, id })
    })
  }
  const sql = (tx: number | undefined, urgent: boolean): Sql => ({
    query: async <T>(text: string, params?: unknown[]) => ({ rows: await call<T[]>({ op: 'query', text, params, tx, urgent }) }),
    exec: async (text: string) => {
      await call({ op: 'exec', text, tx, urgent })
    },
  })

  worker.postMessage(opening)
  const opened = await opening$
  /** The database as seen by the API (urgent false) or by background work that must not wait behind it. */
  const database = (urgent: boolean): Database => ({
    kind: 'pglite',
    ...sql(undefined, urgent),
    transaction: async (fn) => {
      const tx = await call<number>({ op: 'begin', urgent })
      let result
      try {
        result = await fn(sql(tx, urgent))
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined)
        throw error
      }
      await call({ op: 'end', tx, commit: true })
      return result
    },
    script: async <T>(text: string) => ({ rows: await call<T[]>({ op: 'script', text, urgent }) }),
    listen: async (channel, onPayload) => {
      const listener = await call<number>({ op: 'listen', channel })
      listeners.set(listener, onPayload)
      return async () => {
        listeners.delete(listener)
        await call({ op: 'unlisten', listener }).catch(() => undefined)
      }
    },
    separate: () => ({ ...database(true), close: async () => undefined }),
    close: async () => {
      if (gone) return
      closing = true
      await call({ op: 'close' }).catch(() => undefined)
      await worker.terminate()
    },
  })
  return { db: database(false), opened }
}
