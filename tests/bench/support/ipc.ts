/**
 * Request and answer between the bench and a helper process of its own (child_process.fork), over Node's IPC channel:
 * the bench calls `helper.call('open', input)`, the helper answers with what its handler of that name returned.
 */
import { fork, type ChildProcess } from 'node:child_process'

interface Request {
  id: number
  method: string
  input: unknown
}

interface Answer {
  id: number
  ok: boolean
  value?: unknown
  error?: string
}

export interface Helper {
  call<T>(method: string, input?: unknown): Promise<T>
  /** The helper's process id, for /proc. */
  pid: number
  stop(): Promise<void>
}

/** Starts `entry` (a TypeScript file, run as the bench runs: through tsx) and resolves once it says it is ready. */
export function startHelper(entry: string, name: string): Promise<Helper> {
  const child: ChildProcess = fork(entry, [], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let nextId = 0
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  void exited.then(() => {
    for (const request of pending.values()) request.reject(new Error(`${name} exited`))
    pending.clear()
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.on('message', (message: unknown) => {
      if (message === 'ready') {
        resolve({
          pid: child.pid ?? 0,
          call<T>(method: string, input?: unknown): Promise<T> {
            const id = ++nextId
            return new Promise<T>((done, fail) => {
              pending.set(id, { resolve: done as (value: unknown) => void, reject: fail })
              child.send({ id, method, input } satisfies Request)
            })
          },
          async stop() {
            if (child.exitCode !== null || child.signalCode !== null) return
            child.kill('SIGTERM')
            const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
            await exited
            clearTimeout(killer)
          },
        })
        return
      }
      const answer = message as Answer
      const request = pending.get(answer.id)
      if (!request) return
      pending.delete(answer.id)
      if (answer.ok) request.resolve(answer.value)
      else request.reject(new Error(`${name}: ${answer.error}`))
    })
    void exited.then(() => reject(new Error(`${name} exited before it was ready`)))
  })
}

/** In the helper: answers the bench's calls with these handlers, one at a time, then says it is ready. */
export function serveHelper(handlers: Record<string, (input: never) => Promise<unknown> | unknown>): void {
  let queue = Promise.resolve()
  process.on('message', (message: unknown) => {
    const { id, method, input } = message as Request
    queue = queue.then(async () => {
      const handler = handlers[method]
      try {
        if (!handler) throw new Error(`no method ${method}`)
        process.send?.({ id, ok: true, value: await handler(input as never) } satisfies Answer)
      } catch (error) {
        process.send?.({ id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies Answer)
      }
    })
  })
  process.send?.('ready')
}
