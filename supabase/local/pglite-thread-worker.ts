/**
 * The database thread of openPgliteThread (pglite-thread.ts): opens the PGlite it is told to, then answers the
 * server's statements, transactions and subscriptions. Statements and transactions wait in two lines, the urgent one
 * first, and go to PGlite one at a time; a transaction's own statements go straight in, as it holds PGlite meanwhile.
 */
import { parentPort, receiveMessageOnPort } from 'node:worker_threads'
import { openPglite, type PgliteDatabase, type Sql } from './database'
import { openLargeDatasetPglite } from './dataset'
import { openSeededPglite } from './template-cache'
import { errorFields, type OpenedLarge, type PgliteOpening, type ThreadMessage, type ThreadRequest } from './pglite-thread'

const port = parentPort!
const send = (message: ThreadMessage) => port.postMessage(message)

interface OpenTransaction {
  tx: Sql
  decide: (commit: boolean) => void
  /** Settles once PGlite has committed or rolled back. */
  finished: Promise<void>
}

/** Thrown inside a transaction the server chose to roll back, so that PGlite undoes it. */
const rollback = new Error('rolled back by the server')

async function open(opening: PgliteOpening): Promise<{ db: PgliteDatabase; opened: OpenedLarge | null }> {
  if (opening.kind === 'seeded') return { db: await openSeededPglite(), opened: null }
  if (opening.kind === 'dir') return { db: await openPglite({ dataDir: opening.dataDir }), opened: null }
  const { db, report, file, seconds } = await openLargeDatasetPglite({ ...opening.options, log: (message) => send({ log: message }) })
  return { db, opened: { report, file, seconds } }
}

function serve(db: PgliteDatabase): void {
  const transactions = new Map<number, OpenTransaction>()
  const unlisten = new Map<number, () => Promise<void>>()
  let nextHandle = 1

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

  /** Opens a transaction and holds PGlite until the server ends it; settles then. */
  const begin = (id: number): Promise<unknown> => {
    const handle = nextHandle++
    let decide: (commit: boolean) => void = () => undefined
    const decided = new Promise<boolean>((resolve) => (decide = resolve))
    let begun = false
    const finished = db
      .transaction(async (tx) => {
        transactions.set(handle, { tx, decide, finished })
        begun = true
        send({ id, ok: true, value: handle })
        if (!(await decided)) throw rollback
      })
      .catch((error: unknown) => {
        if (error === rollback) return
        if (!begun) send({ id, ok: false, error: errorFields(error) })
        throw error
      })
    return finished.catch(() => undefined)
  }

  const answer = async (request: ThreadRequest): Promise<unknown> => {
    const sql = 'tx' in request && request.tx !== undefined ? transactions.get(request.tx)?.tx : db
    if (!sql) throw new Error('This transaction has already ended.')
    switch (request.op) {
      case 'query':
        return (await sql.query(request.text, request.params)).rows
      case 'exec':
        return sql.exec(request.text)
      case 'script':
        return (await db.script(request.text)).rows
      case 'end': {
        const open = transactions.get(request.tx)!
        transactions.delete(request.tx)
        open.decide(request.commit)
        return open.finished
      }
      case 'listen': {
        const handle = nextHandle++
        unlisten.set(handle, await db.listen(request.channel, (payload) => send({ notify: handle, payload })))
        return handle
      }
      case 'unlisten': {
        await unlisten.get(request.listener)?.()
        unlisten.delete(request.listener)
        return undefined
      }
      case 'close':
        await db.close()
        return undefined
      case 'begin':
        throw new Error('unreachable')
    }
  }

  const reply = (request: ThreadRequest) =>
    answer(request).then(
      (value) => send({ id: request.id, ok: true, value }),
      (error: unknown) => send({ id: request.id, ok: false, error: errorFields(error) }),
    )
  function onRequest(request: ThreadRequest): void {
    if (request.op === 'begin') enqueue(request.urgent, () => begin(request.id))
    else if (request.op === 'query' || request.op === 'exec' || request.op === 'script') {
      if ('tx' in request && request.tx !== undefined) void reply(request)
      else enqueue(request.urgent, () => reply(request))
    } else void reply(request)
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
