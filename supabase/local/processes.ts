import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const READY_LINE = 'ready'

export interface LocalProcess {
  /** Resolves with the exit code once the process has ended, whoever ended it. */
  exited: Promise<number | null>
  stop(): Promise<void>
}

export interface LocalBackend extends LocalProcess {
  url: string
}

interface StartOptions {
  /** Each line the process prints, for the caller to show or keep. */
  onLine?: (line: string) => void
  readyTimeoutMs?: number
}

/** Runs supabase/local/main.ts (REST, auth, realtime over in-memory demo data) and resolves once it is ready. */
export async function startLocalBackend({ port, ...options }: StartOptions & { port: number }): Promise<LocalBackend> {
  const backend = await startReadyProcess('local backend', ['supabase/local/main.ts', '--port', String(port)], options)
  return { ...backend, url: `http://127.0.0.1:${port}` }
}

/** Runs the local mail catcher (SMTP 54325, messages page 54324), where the contact function delivers in development. */
export function startMailCatcher(options: StartOptions = {}): Promise<LocalProcess> {
  return startReadyProcess('mail catcher', ['supabase/local/mail/main.ts'], options)
}

/** Runs a TypeScript entry point of supabase/local in its own process and resolves once it has printed `ready`. */
function startReadyProcess(
  name: string,
  args: string[],
  { onLine, readyTimeoutMs = 180_000 }: StartOptions,
): Promise<LocalProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const killed = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(killed)
  }

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`The ${name} did not print "${READY_LINE}" within ${readyTimeoutMs / 1000} s`))
    }, readyTimeoutMs)
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue
      createInterface({ input: stream }).on('line', (line) => {
        onLine?.(line)
        if (line.trim() === READY_LINE) {
          clearTimeout(timer)
          resolve({ exited, stop })
        }
      })
    }
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`The ${name} exited (code ${code}) before it was ready`))
    })
  })
}
