/** Budgets, the printed table and the JSON file of a bench run. */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

export const KB = 1000

export interface BudgetLine {
  name: string
  /** What was measured, for the table, e.g. "812 ms" or "143.2 KB". */
  value: string
  limit: string
  ok: boolean
  /** Left out on purpose (e.g. --skip-startup): shown, not counted as missed. */
  skipped?: boolean
  /** Why it failed to measure, or a short reading aid. */
  note?: string
}

export interface InfoLine {
  name: string
  value: string
}

export const ms = (value: number) => `${Math.round(value)} ms`
export const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`
export const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`

export function budget(name: string, measured: number | null | undefined, limit: number, format: (value: number) => string, note?: string): BudgetLine {
  if (measured === null || measured === undefined || !Number.isFinite(measured)) {
    return { name, value: 'not measured', limit: `≤ ${format(limit)}`, ok: false, note }
  }
  return { name, value: format(measured), limit: `≤ ${format(limit)}`, ok: measured <= limit, note }
}

export function printTable(title: string, budgets: BudgetLine[], info: InfoLine[]): void {
  const width = Math.max(...budgets.map((line) => line.name.length), ...info.map((line) => line.name.length))
  console.info(`\n${title}`)
  console.info('Budgets')
  for (const line of budgets) {
    const mark = line.skipped ? '–' : line.ok ? '✓' : '✗'
    console.info(`  ${mark} ${line.name.padEnd(width)}  ${line.value.padStart(14)}  ${line.limit}${line.note ? `  (${line.note})` : ''}`)
  }
  console.info('Other figures')
  for (const line of info) console.info(`    ${line.name.padEnd(width)}  ${line.value}`)
}

export async function writeResults(root: string, results: unknown): Promise<string> {
  const dir = path.join(root, '.tmp/bench')
  await mkdir(dir, { recursive: true })
  const file = path.join(dir, 'results.json')
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`)
  return file
}

/** One figure of a run as the growth table keeps it: its value, and when and under what load it was measured. */
export interface Figure {
  value: string
  limit?: string
  ok?: boolean
  note?: string
  at: string
  /** The machine's load average (1, 5, 15 min) when the run ended. */
  load: number[]
}

export interface FiguresFile {
  backend: 'postgres' | 'pglite'
  scale: number
  figures: Record<string, Figure>
}

export const figuresFileName = (backend: string, scale: number) => `figures-${backend}-${scale}.json`

/**
 * Merges a run's figures into .tmp/bench/figures-<backend>-<scale>.json: each measured figure replaces the one of the
 * same name, and what this run skipped or failed keeps its last value, so that runs of a few measures each (--only)
 * add up to the whole table.
 */
export async function writeFigures(
  root: string,
  run: { backend: 'postgres' | 'pglite'; scale: number; at: string; load: number[]; report: { budgets: BudgetLine[]; info: InfoLine[] } },
): Promise<string> {
  const file = path.join(root, '.tmp/bench', figuresFileName(run.backend, run.scale))
  const previous = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as FiguresFile,
    () => null,
  )
  const figures: Record<string, Figure> = { ...previous?.figures }
  for (const line of run.report.budgets) {
    if (line.skipped || line.value === 'not measured') continue
    figures[line.name] = { value: line.value, limit: line.limit, ok: line.ok, note: line.note, at: run.at, load: run.load }
  }
  for (const line of run.report.info) {
    if (line.name.startsWith('error in ')) continue
    figures[line.name] = { value: line.value, at: run.at, load: run.load }
  }
  const content: FiguresFile = { backend: run.backend, scale: run.scale, figures }
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, `${JSON.stringify(content, null, 2)}\n`)
  return file
}
