import { Suspense, useEffect, useId, useState, type ReactNode } from 'react'
import { useSeen } from '@/lib/use-seen'
import { Spinner } from './Spinner'
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from './Table'

export interface ChartFigureProps {
  /** What the chart shows: the table's caption and the figure's name. */
  title: string
  /** The chart's text alternative in one or two sentences, shown under it (WCAG 1.1.1). */
  summary: string
  /** The data the chart draws, one row per point, the first column naming the point. */
  columns: readonly string[]
  rows: readonly (readonly (string | number)[])[]
  /** The drawing: a chart loaded on demand, hidden from assistive technology since the summary and table say it all. */
  children: ReactNode
  /** Height of the drawing area, kept while the chart's code arrives so that the page does not jump. */
  height?: number
}

/**
 * Whether the page has had a quiet moment since this mounted: a chart below the fold is then drawn without waiting to be
 * scrolled to, so that a phone, a full-page capture or a printout never shows an empty frame where it stands. Browsers
 * without requestIdleCallback (Safari) draw once the current task and the page's first paint are done.
 */
function usePageIdle(): boolean {
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true))
      return () => window.cancelIdleCallback(handle)
    }
    const handle = window.setTimeout(() => setIdle(true))
    return () => window.clearTimeout(handle)
  }, [])
  return idle
}

/**
 * A chart with its text alternatives: a summary sentence for everyone, and its figures in a table behind « Voir les
 * données », readable by screen readers and by anyone who would rather read than look. The drawing itself arrives
 * on demand: only pages that draw load the chart library, once a chart comes into view or the page is idle, whichever
 * comes first, so that it never delays the page's own figures.
 */
export function ChartFigure({ title, summary, columns, rows, children, height = 260 }: ChartFigureProps) {
  const captionId = useId()
  const [drawingRef, seen] = useSeen<HTMLDivElement>()
  const idle = usePageIdle()
  return (
    // Named by its caption explicitly: not every browser and screen reader takes a figure's name from its figcaption.
    <figure aria-labelledby={captionId} className="min-w-0 space-y-3">
      <div ref={drawingRef} aria-hidden="true" style={{ height }} className="w-full">
        {(seen || idle) && <Suspense fallback={<Spinner className="py-10" />}>{children}</Suspense>}
      </div>
      <figcaption id={captionId} className="text-sm text-gray-700">
        {summary}
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-primary-700 hover:underline">Voir les données</summary>
        <div className="mt-2">
          <Table caption={title}>
            <TableHead>
              <tr>
                {columns.map((column) => (
                  <TableHeaderCell key={column}>{column}</TableHeaderCell>
                ))}
              </tr>
            </TableHead>
            <TableBody>
              {rows.map((row, index) => (
                <TableRow key={`${String(row[0])}-${index}`}>
                  {row.map((cell, cellIndex) => (
                    <TableCell key={columns[cellIndex]}>{cell}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </details>
    </figure>
  )
}
