import { useId } from 'react'

/** The lines of an imported file that were refused, each with its reasons, under a title (the browser's or the server's). */
export function LineProblemsList({ title, lines }: { title: string; lines: readonly { line: number; errors: readonly string[] }[] }) {
  const id = useId()
  return (
    <section aria-labelledby={id} className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      <h3 id={id} className="font-medium">
        {title}
      </h3>
      <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto" aria-labelledby={id}>
        {lines.map((report) => (
          <li key={report.line}>
            <span className="font-medium">{`Ligne ${report.line}`}</span>
            {` : ${report.errors.join(' ; ')}`}
          </li>
        ))}
      </ul>
    </section>
  )
}
