import { rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads'
import { makeScratchDataDir, type Database, type Sql, type StatementOptions } from './database'
import type { DatasetReport } from './dataset/load'
import type { DatasetOptions } from './dataset/options'
import { ThreadState, statementTimeoutMs } from './pglite-thread-state'

/**
 * Which PGlite the thread opens: the seeded demo or the large organisation, into an empty `dataDir`, or the database
 * a data directory already holds.
 */
export type PgliteOpening =
  | { kind: 'seeded'; dataDir?: string }
  | { kind: 'dir'; dataDir: string }
  | { kind: 'large'; options: DatasetOptions; dataDir?: string }

/** What the thread says of the large organisation it opened (see openLargeDatasetPglite). */
export interface OpenedLarge {
  report: DatasetReport | null
  file: string
  seconds: number
}

/** What the thread receives when it starts: the channel of its requests and the state it shares (ThreadState). */
export interface ThreadData {
  port: MessagePort
  state: SharedArrayBuffer
}

/**
 * A request to the thread; `tx` names a transaction (the server's number for it), whose statements run inside it.
 * `urgent` requests (the background work of separate()) go before the waiting others.
 */
export type ThreadRequest =
  | { id: number; op: 'query'; text: string; params?: unknown[]; tx?: number; urgent?: boolean }
  | { id: number; op: 'exec'; text: string; tx?: number; urgent?: boolean }
  | { id: number; op: 'script'; text: string; urgent?: boolean }
  | { id: number; op: 'begin'; tx: number; urgent?: boolean }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string; listener: number }
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

/** PostgreSQL's errors for a statement cut by its timeout, and for what its transaction sends after. */
const statementTimeout = () => errorFrom({ code: '57014', severity: 'ERROR', message: 'canceling statement due to statement timeout' })
const transactionAborted = () =>
  errorFrom({ code: '25P02', severity: 'ERROR', message: 'current transaction is aborted, commands ignored until end of transaction block' })

/**
 * Starts the worker's TypeScript entry under tsx's loader, which a worker does not inherit from the process that
 * runs `tsx`.
 */
function startWorker(data: ThreadData): Worker {
  const loader = import.meta.resolve('tsx/esm/api')
  const entry = new URL('./pglite-thread-worker.ts', import.meta.url).href
  const source = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(source, { eval: true, workerData: data, transferList: [data.port] })
}

/** The scratch data directories of open threads, removed at exit if their close did not come (process.exit). */
const scratchDirs = new Set<string>()
process.on('exit', () => scratchDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

async function removeScratch(dir: string | null): Promise<void> {
  if (!dir) return
  scratchDirs.delete(dir)
  await rm(dir, { recursive: true, force: true })
}

interface Call {
  request: ThreadRequest
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  /** The statement's timeout in ms, if it has one; the watchdog's timer meanwhile. */
  timeout?: number
  timer?: NodeJS.Timeout
}

interface Thread {
  worker: Worker
  port: MessagePort
}

/**
 * PGlite on a thread of its own. In the server's thread, a statement's work in the database kept HTTP parsing, token
 * checks, JSON and the realtime delivery of every other request waiting, and the other way round: apart, the two
 * run on two cores at once. The database is the same PGlite with one connection, which runs one statement or
 * transaction at a time; the background work of separate() (the realtime server's) goes before the API's waiting
 * requests, as it has connections of its own on PostgreSQL.
 *
 * PGlite cannot interrupt a statement (its statement_timeout never fires), so a statement given a timeout
 * (transaction() and script() with `statementTimeout`) that runs past it ends the thread: its caller gets
 * PostgreSQL's 57014, its transaction is lost as a crash loses it, and a new thread opens the same data directory
 * (kept in memory-backed storage for the seeded and large databases) and runs the statements that had not started.
 * `log` receives the opening's progress (the large organisation's generation); `lost` is told if the thread fails or
 * stops other than by close(), after which every call fails.
 */
export async function openPgliteThread(
  opening: PgliteOpening,
  { log = () => undefined, lost = () => undefined }: { log?: (message: string) => void; lost?: (error: Error) => void } = {},
): Promise<{ db: Database; opened: OpenedLarge | null }> {
  const scratch = opening.kind === 'dir' ? null : await makeScratchDataDir()
  if (scratch) scratchDirs.add(scratch)
  const dataDir = scratch ?? (opening as { dataDir: string }).dataDir
  const state = new ThreadState()
  const pending = new Map<number, Call>()
  const listeners = new Map<number, { channel: string; onPayload: (payload: string) => void }>()
  /** Transactions open on the thread, and those its end rolled back, until their caller ends them. */
  const open = new Set<number>()
  const aborted = new Set<number>()
  let nextId = 1
  let gone: Error | null = null
  let closing = false
  /** Settles once a new thread runs after a cut; null while none is opening. */
  let restarting: Promise<void> | null = null
  let thread: Thread

  const settle = (id: number, outcome: { value: unknown } | { error: Error }) => {
    const call = pending.get(id)
    if (!call) return
    pending.delete(id)
    clearTimeout(call.timer)
    const request = call.request
    if (request.op === 'begin' && 'value' in outcome) open.add(request.tx)
    if (request.op === 'end') open.delete(request.tx)
    if ('value' in outcome) call.resolve(outcome.value)
    else call.reject(outcome.error)
  }

  const fail = (error: Error) => {
    if (gone) return
    gone = error
    for (const id of [...pending.keys()]) settle(id, { error })
    if (!closing) lost(error)
  }

  /** Starts a thread on `what` and resolves once it has opened it; its messages go to the server's handlers. */
  const launch = (what: PgliteOpening): Promise<{ started: Thread; opened: OpenedLarge | null }> =>
    new Promise((resolve, reject) => {
      const channel = new MessageChannel()
      const worker = startWorker({ port: channel.port2, state: state.buffer })
      const started: Thread = { worker, port: channel.port1 }
      let ready = false
      channel.port1.on('message', (message: ThreadMessage) => {
        if ('opened' in message) {
          ready = true
          resolve({ started, opened: message.opened })
        } else if ('failed' in message) {
          reject(errorFrom(message.failed))
          void worker.terminate()
        } else onMessage(message)
      })
      const stopped = (error: Error) => (ready ? fail(error) : reject(error))
      worker.on('error', (error: Error) => stopped(new Error(`The database thread failed: ${error.message}`, { cause: error })))
      worker.on('exit', (code) => stopped(new Error(`The database thread stopped (exit code ${code})`)))
      channel.port1.postMessage(what)
    })

  function onMessage(message: ThreadMessage): void {
    if ('notify' in message) listeners.get(message.notify)?.onPayload(message.payload)
    else if ('log' in message) log(message.log)
    else if ('id' in message) settle(message.id, message.ok ? { value: message.value } : { error: errorFrom(message.error) })
  }

  /** Ends the thread running statement `id` past its timeout, then opens a new one (see openPgliteThread). */
  const cut = async (id: number) => {
    if (gone || closing || restarting || !state.claim(id)) return
    let reopened = () => undefined as void
    restarting = new Promise<void>((resolve) => (reopened = resolve))
    const old = thread
    old.worker.removeAllListeners('exit').removeAllListeners('error')
    await old.worker.terminate()
    // Answers the thread sent before it ended still count, the cut statement's own if it ended meanwhile.
    for (let message = receiveMessageOnPort(old.port); message; message = receiveMessageOnPort(old.port)) onMessage(message.message as ThreadMessage)
    old.port.close()
    settle(id, { error: statementTimeout() })
    for (const tx of open) aborted.add(tx)
    open.clear()
    state.reset()
    try {
      thread = (await launch({ kind: 'dir', dataDir })).started
    } catch (error) {
      fail(error as Error)
      return
    } finally {
      restarting = null
      reopened()
    }
    for (const [listener, { channel }] of listeners) send({ id: nextId++, op: 'listen', channel, listener })
    for (const [waiting, call] of [...pending].sort(([a], [b]) => a - b)) {
      // Subscriptions were given to the new thread above.
      if (call.request.op === 'listen' || call.request.op === 'unlisten') settle(waiting, { value: undefined })
      else if (!answeredLocally(waiting, call.request)) dispatch(waiting, call)
    }
  }

  /**
   * Answers the statements of a transaction that a cut rolled back as PostgreSQL does after an error (25P02), and
   * their rollback without an error. True if answered.
   */
  function answeredLocally(id: number, request: ThreadRequest): boolean {
    if (!('tx' in request) || request.tx === undefined || request.op === 'begin' || !aborted.has(request.tx)) return false
    if (request.op === 'end') aborted.delete(request.tx)
    settle(id, request.op === 'end' && !request.commit ? { value: undefined } : { error: transactionAborted() })
    return true
  }

  const send = (request: ThreadRequest) => thread.port.postMessage(request)
  const dispatch = (id: number, call: Call) => {
    send(call.request)
    if (call.timeout && call.timer === undefined) watch(id, call.timeout)
  }

  /** Checks statement `id` when its timeout may have passed since it started, and cuts it if so. */
  const watch = (id: number, after: number) => {
    const call = pending.get(id)
    if (!call?.timeout) return
    call.timer = setTimeout(() => {
      const startedAt = state.startedAtOf(id)
      // Not started yet (it waits for PGlite): its time has not begun.
      const left = startedAt === null ? call.timeout! : startedAt + call.timeout! - Date.now()
      if (left > 0) watch(id, left)
      else void cut(id)
    }, after).unref()
  }

  // Requests are matched to answers by id; Omit does not distribute over the union, hence the cast.
  const call = <T>(request: Record<string, unknown> & { op: ThreadRequest['op'] }, timeout?: number): Promise<T> => {
    if (gone) return Promise.reject(gone)
    const id = nextId
    nextId = nextId >= 0x7fffffff ? 1 : nextId + 1
    const full = { ...request, id } as ThreadRequest
    return new Promise<T>((resolve, reject) => {
      const waiting: Call = { request: full, resolve: resolve as (value: unknown) => void, reject, timeout }
      pending.set(id, waiting)
      // While a new thread opens, requests wait for it (cut() sends them).
      if (!answeredLocally(id, full) && !restarting) dispatch(id, waiting)
    })
  }
  const sql = (tx: number | undefined, urgent: boolean, timeout?: number): Sql => ({
    query: async <T>(text: string, params?: unknown[]) => ({ rows: await call<T[]>({ op: 'query', text, params, tx, urgent }, timeout) }),
    exec: async (text: string) => {
      await call({ op: 'exec', text, tx, urgent }, timeout)
    },
  })

  const first = await launch(scratch ? { ...opening, dataDir: scratch } : opening).catch(async (error: unknown) => {
    await removeScratch(scratch)
    throw error
  })
  thread = first.started
  let nextHandle = 1
  /** The database as seen by the API (urgent false) or by background work that must not wait behind it. */
  const database = (urgent: boolean): Database => ({
    kind: 'pglite',
    ...sql(undefined, urgent),
    transaction: async (fn, options?: StatementOptions) => {
      const timeout = statementTimeoutMs(options?.statementTimeout)
      const tx = nextHandle++
      await call({ op: 'begin', tx, urgent })
      let result
      try {
        result = await fn(sql(tx, urgent, timeout))
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined)
        throw error
      }
      await call({ op: 'end', tx, commit: true }, timeout)
      return result
    },
    script: async <T>(text: string, options?: StatementOptions) => ({
      rows: await call<T[]>({ op: 'script', text, urgent }, statementTimeoutMs(options?.statementTimeout)),
    }),
    listen: async (channel, onPayload) => {
      const listener = nextHandle++
      listeners.set(listener, { channel, onPayload })
      await call({ op: 'listen', channel, listener })
      return async () => {
        listeners.delete(listener)
        await call({ op: 'unlisten', listener }).catch(() => undefined)
      }
    },
    separate: () => ({ ...database(true), close: async () => undefined }),
    close: async () => {
      await restarting
      if (!gone) {
        closing = true
        await call({ op: 'close' }).catch(() => undefined)
        await thread.worker.terminate()
      }
      thread.port.close()
      await removeScratch(scratch)
    },
  })
  return { db: database(false), opened: first.opened }
}
