import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react'
import { ChevronDown, ChevronUp, ChevronsUpDown } from 'lucide-react'
import { cn } from '@/lib/cn'

interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Names the table for screen readers; visually hidden unless `showCaption`. */
  caption: string
  showCaption?: boolean
}

/**
 * The wrapper scrolls sideways on narrow screens; keyboard users can only scroll what they can focus (WCAG 2.1.1),
 * so it is a focusable region named after the table.
 */
export function Table({ caption, showCaption = false, className, children, ...rest }: TableProps) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="overflow-x-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
    >
      <table className={cn('min-w-full divide-y divide-gray-200 text-sm', className)} {...rest}>
        <caption className={showCaption ? 'px-4 py-2 text-left font-medium text-gray-700' : 'sr-only'}>{caption}</caption>
        {children}
      </table>
    </div>
  )
}

export function TableHead({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn('bg-gray-50', className)} {...rest} />
}

export function TableBody({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn('divide-y divide-gray-100 bg-white', className)} {...rest} />
}

export function TableRow({ className, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('hover:bg-gray-50', className)} {...rest} />
}

export function TableHeaderCell({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn('px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-gray-600', className)}
      {...rest}
    />
  )
}

export function TableCell({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-4 py-3 text-gray-800', className)} {...rest} />
}

/** The single row a table shows when it has nothing to list. */
export function TableEmptyRow({ colSpan, message }: { colSpan: number; message: string }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-6 text-center text-gray-500">
        {message}
      </td>
    </tr>
  )
}

interface SortableHeaderCellProps<Sort extends string> {
  label: string
  column: Sort
  sort: Sort
  direction: 'asc' | 'desc'
  onSort: (column: Sort) => void
}

/** A column header that sorts the list on its column; `aria-sort` tells screen readers which column sorts, and how. */
export function SortableHeaderCell<Sort extends string>({ label, column, sort, direction, onSort }: SortableHeaderCellProps<Sort>) {
  const active = column === sort
  const Icon = !active ? ChevronsUpDown : direction === 'asc' ? ChevronUp : ChevronDown
  return (
    <TableHeaderCell aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-gray-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
        onClick={() => onSort(column)}
      >
        {label}
        <Icon aria-hidden="true" className={cn('h-3.5 w-3.5', active ? 'text-gray-900' : 'text-gray-400')} />
      </button>
    </TableHeaderCell>
  )
}

/**
 * Below 768 px a table whose rows do not fit a phone becomes a list of cards: the header is read by screen readers
 * only, each row is a card, and each cell a line led by its column's name (the cell's data-label).
 */
export const cardTable = {
  table: 'max-md:block',
  head: 'max-md:sr-only',
  body: 'max-md:block max-md:space-y-3 max-md:divide-y-0 max-md:bg-gray-50 max-md:p-3',
  row: 'max-md:block max-md:rounded-lg max-md:border max-md:border-gray-200 max-md:bg-white max-md:px-4 max-md:py-3',
  /** A cell on a line of its own, under the card's title. */
  block: 'max-md:block max-md:px-0',
  /** A figure after its column's name. */
  labelled:
    'max-md:flex max-md:items-center max-md:justify-between max-md:gap-4 max-md:px-0 max-md:py-1 max-md:before:text-xs max-md:before:font-medium max-md:before:text-gray-600 max-md:before:content-[attr(data-label)]',
} as const
