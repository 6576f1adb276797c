/**
 * The stack the bench drives: the local backend (large dataset unless told otherwise) in a child process, the app
 * built for it with `vite build --mode local-server` into a per-run directory, and Vite's preview server over that build.
 */
import { spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { preview, type PreviewServer } from 'vite'
import { DEV_ANON_KEY } from '../../../supabase/local/keys'

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export interface DatasetOptions {
  /** 'large' asks the backend for its generated dataset; 'demo' keeps the small demo data. */
  dataset: 'large' | 'demo'
  scale?: string
  seed?: string
  /**
   * The database at DATABASE_URL already holds the large dataset at this scale and seed: the backend opens it as it
   * is instead of generating it anew. The bench changes it (decisions, an import, a campaign completed and one
   * started), so it must be a throwaway copy.
   */
  ready?: boolean
}

export interface Stack {
  appUrl: string
  backendUrl: string
  /** The backend's process, for its processor time and memory in /proc (PGlite runs inside it). */
  backendPid: number
  /** What the backend said it runs on, e.g. "PGlite in memory". */
  databaseKind: string
  backendStartMs: number
  buildMs: number
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export function backendArgs({ dataset, scale, seed, ready }: DatasetOptions): string[] {
  if (dataset === 'demo' || ready) return []
  // A PostgreSQL from DATABASE_URL receives the dataset anew (the backend refuses to load it over other data).
  const reset = process.env.DATABASE_URL ? ['--reset'] : []
  return ['--dataset', 'large', ...(scale ? ['--dataset-scale', scale] : []), ...(seed ? ['--dataset-seed', seed] : []), ...reset]
}

interface Backend {
  url: string
  pid: number
  databaseKind: string
  stop(): Promise<void>
}

/** supabase/local/main.ts with the dataset flags; resolves once it prints `ready` (a large seed may take minutes). */
function startBackend(port: number, extraArgs: string[], log: (line: string) => void): Promise<Backend> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts', '--port', String(port), ...extraArgs], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Every reviewer signs in from this machine's one address, a hundred and more within a minute: past GoTrue's
    // token_refresh limit per address, which the bench does not measure.
    env: { AUTH_RATE_LIMIT_TOKEN_REFRESH: '0', AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '0', ...process.env },
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(killer)
  }
  let databaseKind = 'unknown'
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error('The backend was not ready within 30 min'))
    }, 30 * 60_000)
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        log(line)
        const kind = /^Recertif local backend \((.*)\)$/.exec(line.trim())
        if (kind?.[1]) databaseKind = kind[1]
        if (line.trim() === 'ready') {
          clearTimeout(timer)
          resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, databaseKind, stop })
        }
      })
    }
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`The backend exited (code ${code}) before it was ready`))
    })
  })
}

/** A production build (NODE_ENV unset, so React's production build) pointed at this run's backend. */
function buildApp(backendUrl: string, outDir: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, VITE_SUPABASE_URL: backendUrl, VITE_SUPABASE_ANON_KEY: DEV_ANON_KEY }
  delete env.NODE_ENV
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js')
  const child = spawn(process.execPath, [vite, 'build', '--mode', 'local-server', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The app build failed (exit code ${code})`))))
  })
}

export async function startStack(options: DatasetOptions, log: (line: string) => void): Promise<Stack> {
  const outDir = `.tmp/bench-dist-${process.pid}`
  const [backendPort, appPort] = [await freePort(), await freePort()]
  const backendLog: string[] = []
  let backend: Backend | undefined
  let server: PreviewServer | undefined
  const cleanup = async () => {
    await server?.close()
    await backend?.stop()
    await rm(path.join(ROOT, outDir), { recursive: true, force: true })
  }
  try {
    let started = performance.now()
    backend = await startBackend(backendPort, backendArgs(options), (line) => {
      backendLog.push(line)
      if (!/key|secret/i.test(line)) log(`  [backend] ${line}`)
    })
    const backendStartMs = performance.now() - started
    started = performance.now()
    await buildApp(backend.url, outDir)
    const buildMs = performance.now() - started
    server = await preview({
      root: ROOT,
      mode: 'local-server',
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: appPort, strictPort: true, open: false },
    })
    return {
      appUrl: `http://127.0.0.1:${appPort}`,
      backendUrl: backend.url,
      backendPid: backend.pid,
      databaseKind: backend.databaseKind,
      backendStartMs,
      buildMs,
      stop: cleanup,
    }
  } catch (error) {
    await cleanup()
    throw error
  }
}
