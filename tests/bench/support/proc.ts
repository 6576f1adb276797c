/**
 * Processor time and memory of the processes under test, read from Linux's /proc: the local backend (a child of the
 * bench) and, on PostgreSQL, every process of the cluster (its postmaster and the postmaster's children, the backends
 * and background workers). Elsewhere than on Linux the readers answer null.
 */
import { readdir, readFile } from 'node:fs/promises'

// USER_HZ: the unit of /proc's times, 100 on every Linux architecture the bench runs on.
const TICKS_PER_SECOND = 100

interface Stat {
  pid: number
  ppid: number
  /** utime + stime, ms. */
  cpuMs: number
  /** cutime + cstime: the children it has waited for, ms. */
  childrenCpuMs: number
}

async function readStat(pid: number): Promise<Stat | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
  if (text === null) return null
  // The command name, in parentheses, may hold spaces: the fields are counted after its closing parenthesis.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // After the name: state (3), ppid (4), … utime (14), stime (15), cutime (16), cstime (17).
  const field = (n: number) => Number(fields[n - 3])
  const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND
  return { pid, ppid: field(4), cpuMs: toMs(field(14) + field(15)), childrenCpuMs: toMs(field(16) + field(17)) }
}

/** CPU used so far by one process (all its threads), ms; null if it is gone or there is no /proc. */
export async function processCpuMs(pid: number): Promise<number | null> {
  return (await readStat(pid))?.cpuMs ?? null
}

/** Resident memory of one process, bytes; null if it is gone or there is no /proc. */
export async function processRssBytes(pid: number): Promise<number | null> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null)
  const kb = text === null ? undefined : /^VmRSS:\s+(\d+) kB/m.exec(text)?.[1]
  return kb === undefined ? null : Number(kb) * 1024
}

/**
 * CPU used so far by a process and all its children, those still running and those it has waited for (a PostgreSQL
 * cluster: the postmaster forks a process per connection and reaps them), ms; null without /proc.
 */
export async function treeCpuMs(rootPid: number): Promise<number | null> {
  const root = await readStat(rootPid)
  if (!root) return null
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number)
  const stats = await Promise.all(pids.map((pid) => (pid === rootPid ? null : readStat(pid))))
  let total = root.cpuMs + root.childrenCpuMs
  for (const stat of stats) if (stat && stat.ppid === rootPid) total += stat.cpuMs
  return total
}

// PostgreSQL's own processes, by the title it gives them; the others serve connections (and their parallel workers).
const POSTGRES_BACKGROUND = /^postgres: (autovacuum|checkpointer|background writer|walwriter|logical replication|stats collector|archiver|wal(sender|receiver)|startup)/

/**
 * A PostgreSQL cluster's CPU so far, ms: in all (`treeCpuMs` of its postmaster), and that of the processes serving
 * connections only, without autovacuum and the writers, which run when they will rather than when a query asks.
 */
export async function postgresCpuMs(postmaster: number): Promise<{ total: number; connections: number } | null> {
  const total = await treeCpuMs(postmaster)
  if (total === null) return null
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number)
  let connections = 0
  for (const pid of pids) {
    const stat = await readStat(pid)
    if (!stat || stat.ppid !== postmaster) continue
    const title = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
    if (!POSTGRES_BACKGROUND.test(title.replace(/\0/g, ' ').trim())) connections += stat.cpuMs
  }
  return { total, connections }
}

/** The parent of a process (for a PostgreSQL backend, its postmaster); null if it is gone or there is no /proc. */
export async function parentPid(pid: number): Promise<number | null> {
  return (await readStat(pid))?.ppid ?? null
}
