/**
 * The database thread of openPgliteThread (pglite-thread.ts): opens the PGlite it is told to, then answers the
 * server's statements, transactions and subscriptions. Statements and transactions wait in two lines, the urgent one
 * first, and go to PGlite one at a time; a transaction's own statements go straight in, one after the other, as it
 * holds PGlite meanwhile. Each statement marks itself running in the state shared with the server (ThreadState), and
 * none starts once the server has claimed one to end the thread.
 */
import { receiveMessageOnPort, workerData } from 'node:worker_threads'
import { openPglite, type PgliteDatabase, type Sql } from './database'
import { openLargeDatasetPglite } from './dataset'
import { openSeededPglite } from './template-cache'
import { errorFields, type OpenedLarge, type PgliteOpening, type ThreadData, type ThreadMessage, type ThreadRequest } from './pglite-thread'
import { ThreadState } from './pglite-thread-state'

const { port, state: buffer } = workerData as ThreadData
const state = new ThreadState(buffer)
const send = (message: ThreadMessage) => port.postMessage(message)

interface OpenTransaction {
  tx: Sql
  decide: (commit: boolean) => void
  /** Its statements and its end, one after the other. */
  line: Promise<unknown>
  /** Settles once PGlite has committed or rolled back. */
  finished: Promise<void>
  /** The id of the request that ends it, once sent. */
  end?: number
}

/** Thrown inside a transaction the server chose to roll back, so that PGlite undoes it. */
const rollback = new Error('rolled back by the server')

/** The server is ending this thread: what would have started never settles. */
const never = new Promise<never>(() => undefined)

/** Runs `work` as job `id` in the shared state, or never if the server is ending the thread. */
async function running<T>(id: number, work: () => Promise<T>): Promise<T> {
  if (!state.start(id)) return never
  try {
    return await work()
  } finally {
    state.finish(id)
  }
}

async function open(opening: PgliteOpening): Promise<{ db: PgliteDatabase; opened: OpenedLarge | null }> {
  if (opening.kind === 'seeded') return { db: await openSeededPglite(opening.dataDir), opened: null }
  if (opening.kind === 'dir') return { db: await openPglite({ dataDir: opening.dataDir }), opened: null }
  const { db, report, file, seconds } = await openLargeDatasetPglite({ ...opening.options, dataDir: opening.dataDir, log: (message) => send({ log: message }) })
  return { db, opened: { report, file, seconds } }
}

function serve(db: PgliteDatabase): void {
  const transactions = new Map<number, OpenTransaction>()
  const unlisten = new Map<number, () => Promise<void>>()

  const waiting: Record<'urgent' | 'normal', Array<() => Promise<unknown>>> = { urgent: [], normal: [] }
  let busy = false
  const next = () => {
    if (busy) return
    // The requests that arrived while PGlite was busy are read first: otherwise the next waiting statement would start
    // before an urgent one that came meanwhile was even seen.
    busy = true
    for (let arrived = receiveMessageOnPort(port); arrived; arrived = receiveMessageOnPort(port)) onRequest(arrived.message as ThreadRequest)
    busy = false
    const job = waiting.urgent.shift() ?? waiting.normal.shift()
    if (!job) return
    busy = true
    void job().finally(() => {
      busy = false
      next()
    })
  }
  const enqueue = (urgent: boolean | undefined, job: () => Promise<unknown>) => {
    waiting[urgent ? 'urgent' : 'normal'].push(job)
    next()
  }

  /**
   * Opens transaction `handle` and holds PGlite until the server ends it; settles then. Its end is marked running from
   * the server's decision until PGlite has committed or rolled back.
   */
  const begin = (id: number, handle: number): Promise<unknown> => {
    if (!state.start(id)) return never
    let decide: (commit: boolean) => void = () => undefined
    const decided = new Promise<boolean>((resolve) => (decide = resolve))
    let begun = false
    const record: Partial<OpenTransaction> = { decide, line: Promise.resolve() }
    record.finished = db
      .transaction(async (tx) => {
        transactions.set(handle, Object.assign(record, { tx }) as OpenTransaction)
        begun = true
        state.finish(id)
        send({ id, ok: true, value: handle })
        if (!(await decided)) throw rollback
      })
      .catch((error: unknown) => {
        if (error === rollback) return
        if (!begun) {
          state.finish(id)
          send({ id, ok: false, error: errorFields(error) })
        }
        throw error
      })
      .finally(() => {
        if (record.end !== undefined) state.finish(record.end)
      })
    return record.finished.catch(() => undefined)
  }

  const answer = async (request: ThreadRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query':
      case 'exec':
      case 'script':
        return running(request.id, () => statement(request))
      case 'end': {
        const open = transactions.get(request.tx)!
        transactions.delete(request.tx)
        if (!state.start(request.id)) return never
        open.end = request.id
        open.decide(request.commit)
        return open.finished
      }
      case 'listen':
        unlisten.set(request.listener, await db.listen(request.channel, (payload) => send({ notify: request.listener, payload })))
        return request.listener
      case 'unlisten':
        await unlisten.get(request.listener)?.()
        unlisten.delete(request.listener)
        return undefined
      case 'close':
        await db.close()
        return undefined
      case 'begin':
        throw new Error('unreachable')
    }
  }

  const statement = async (request: ThreadRequest & { op: 'query' | 'exec' | 'script' }): Promise<unknown> => {
    const sql = 'tx' in request && request.tx !== undefined ? transactions.get(request.tx)?.tx : db
    if (!sql) throw new Error('This transaction has already ended.')
    if (request.op === 'query') return (await sql.query(request.text, request.params)).rows
    if (request.op === 'exec') return sql.exec(request.text)
    return (await db.script(request.text)).rows
  }

  const reply = (request: ThreadRequest) =>
    answer(request).then(
      (value) => send({ id: request.id, ok: true, value }),
      (error: unknown) => send({ id: request.id, ok: false, error: errorFields(error) }),
    )
  /** A transaction's statements and end go in its own line, as it holds PGlite; the others wait for it. */
  function onRequest(request: ThreadRequest): void {
    const open = 'tx' in request && request.tx !== undefined && request.op !== 'begin' ? transactions.get(request.tx) : undefined
    if (open) open.line = open.line.then(() => reply(request))
    else if (request.op === 'begin') enqueue(request.urgent, () => begin(request.id, request.tx))
    else if (request.op === 'query' || request.op === 'exec' || request.op === 'script') enqueue(request.urgent, () => reply(request))
    else void reply(request)
  }
  port.on('message', onRequest)
}

port.once('message', (opening: PgliteOpening) => {
  open(opening).then(
    ({ db, opened }) => {
      serve(db)
      send({ opened })
    },
    (error: unknown) => send({ failed: errorFields(error) }),
  )
})
