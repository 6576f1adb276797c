/**
 * Measure 6: `npm start` from spawn until the app and the backend answer on their fixed ports, then Ctrl-C (SIGINT to
 * its process group, as a terminal does) and the time until every process of it has exited.
 */
import { spawn } from 'node:child_process'
import { createConnection } from 'node:net'
import { createInterface } from 'node:readline'
import { ROOT } from '../support/stack'
import { round } from '../support/stats'

const APP = 'http://127.0.0.1:5173/'
const BACKEND = 'http://127.0.0.1:54321/auth/v1/health'
const PORTS = [5173, 54321, 54324, 54325]

export interface StartupResult {
  skipped: string | null
  readyMs: number | null
  /** When it printed "Recertif is running." */
  bannerMs: number | null
  /** When each child printed `ready`, and the backend's own "started in" line. */
  phases: Record<string, number | string>
  /** npm ended on the SIGINT (code 0, or killed by the signal as npm does on Ctrl-C) and no process of its group is left. */
  stoppedCleanly: boolean
  exit: string
  processesLeft: boolean
  stopMs: number | null
  portsFreedAfterStop: boolean
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Whether any process of the group led by `pid` is still running (signal 0 only checks). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) })
    await response.arrayBuffer()
    return true
  } catch {
    return false
  }
}

export async function measureStartup(timeoutMs = 120_000): Promise<StartupResult> {
  const busy = (await Promise.all(PORTS.map(async (port) => ((await portInUse(port)) ? port : null)))).filter((port) => port !== null)
  if (busy.length > 0) {
    return { skipped: `ports already in use: ${busy.join(', ')}`, readyMs: null, bannerMs: null, phases: {}, stoppedCleanly: false, exit: '', processesLeft: false, stopMs: null, portsFreedAfterStop: false }
  }
  const started = performance.now()
  // Its own process group, so that SIGINT reaches npm, tsx and the children as a terminal's Ctrl-C would.
  const env = { ...process.env }
  delete env.NODE_ENV
  const child = spawn('npm', ['start'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env })
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)))
  let bannerMs: number | null = null
  const phases: Record<string, number | string> = {}
  const output: string[] = []
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      output.push(line)
      if (bannerMs === null && line.includes('Recertif is running')) bannerMs = performance.now() - started
      const [, name, said] = /^\s*\[(backend|mail)\] (ready|\s*started in .*)$/.exec(line) ?? []
      if (said === 'ready') phases[`${name} ready`] = round(performance.now() - started)
      else if (said) phases[`${name} says`] = said.trim()
    })
  }
  let readyMs: number | null = null
  let ended = false
  void exited.then(() => (ended = true))
  while (!ended && performance.now() - started < timeoutMs) {
    if ((await answers(APP)) && (await answers(BACKEND))) {
      readyMs = performance.now() - started
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const stopping = performance.now()
  if (!ended) process.kill(-child.pid!, 'SIGINT')
  const exit = await Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 20_000))])
  const stopMs = performance.now() - stopping
  // The children stop on their own SIGINT; give them the time their shutdown takes before looking.
  let processesLeft = true
  for (let waited = 0; processesLeft && waited < 10_000; waited += 100) {
    processesLeft = groupAlive(child.pid!)
    if (processesLeft) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (processesLeft) process.kill(-child.pid!, 'SIGKILL')
  if (exit === 'timeout') await exited
  const stillBound = (await Promise.all(PORTS.map(portInUse))).some(Boolean)
  if (readyMs === null) console.error(output.slice(-20).join('\n'))
  return {
    skipped: null,
    readyMs: readyMs === null ? null : round(readyMs),
    bannerMs: bannerMs === null ? null : round(bannerMs),
    phases,
    stoppedCleanly: (exit === 'code 0' || exit === 'SIGINT') && !processesLeft,
    exit,
    processesLeft,
    stopMs: round(stopMs),
    portsFreedAfterStop: !stillBound,
  }
}
