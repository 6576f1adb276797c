/**
 * `npm run bench:growth [-- --backend pglite]`: one table of every figure the bench has written for
 * a backend (PostgreSQL unless told otherwise), a column per dataset scale (.tmp/bench/figures-<backend>-<scale>.json,
 * written by `npm run bench -- --scale F`), so that one can read whether a figure grows with the data, with the page
 * or not at all. Printed as Markdown, with when and under what load each scale's figures were measured.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ROOT } from './support/stack'
import type { Figure, FiguresFile } from './report'

const { values } = parseArgs({ options: { backend: { type: 'string', default: 'postgres' } } })
const backend = values.backend
if (backend !== 'postgres' && backend !== 'pglite') throw new Error(`--backend is postgres or pglite: ${backend}`)

const cell = (figure: Figure | undefined) => {
  if (!figure) return '—'
  const mark = figure.ok === undefined ? '' : figure.ok ? ' ✓' : ' ✗'
  return `${figure.value}${mark}${figure.note ? ` (${figure.note})` : ''}`.replaceAll('|', '\\|')
}

/** The earliest and latest run of a scale's figures, and the range of their loads (1-minute average). */
function when(file: FiguresFile): string {
  const figures = Object.values(file.figures)
  const times = figures.map((figure) => figure.at).sort()
  const loads = figures.map((figure) => figure.load[0] ?? 0)
  const day = (at: string) => at.slice(0, 16).replace('T', ' ')
  return `scale ${file.scale}: ${day(times[0]!)}–${day(times[times.length - 1]!).slice(11)} UTC, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`
}

async function main(): Promise<void> {
  const dir = path.join(ROOT, '.tmp/bench')
  const prefix = `figures-${backend}-`
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
  const files = (await Promise.all(names.map(async (name) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as FiguresFile))).sort(
    (a, b) => a.scale - b.scale,
  )
  if (files.length === 0) {
    console.info(`No figures for ${backend} in ${path.relative(process.cwd(), dir)}: run \`npm run bench -- --scale F\` first (on PostgreSQL: bash .ci/with-postgres npm run bench -- --scale F --skip-startup).`)
    process.exitCode = 1
    return
  }
  // Rows in the order the bench prints them, the budgets first; a figure measured at one scale only still gets its row.
  const rows = [...new Set(files.flatMap((file) => Object.keys(file.figures)))]
  const budgeted = (name: string) => files.some((file) => file.figures[name]?.limit !== undefined)
  rows.sort((a, b) => Number(budgeted(b)) - Number(budgeted(a)))
  // A budget may change with the scale (the start: 10 s up to scale 1, 60 s above): each one, smallest scale first.
  const limit = (name: string) => [...new Set(files.map((file) => file.figures[name]?.limit).filter(Boolean))].join(' / ')
  console.info(`| what | budget | ${files.map((file) => `scale ${file.scale}`).join(' | ')} |`)
  console.info(`|---|---|${files.map(() => '---').join('|')}|`)
  for (const name of rows) console.info(`| ${name} | ${limit(name)} | ${files.map((file) => cell(file.figures[name])).join(' | ')} |`)
  console.info(`\n${backend === 'postgres' ? 'PostgreSQL' : 'PGlite'}; ${files.map(when).join('; ')}.`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
