import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react'
import { createPortal } from 'react-dom'
import { X } from 'lucide-react'
import { cn } from '@/lib/cn'
import { focusableWithin } from './focusable'

const sizeClasses = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-3xl' } as const

export interface DialogProps {
  open: boolean
  onClose: () => void
  title: string
  description?: string
  children?: ReactNode
  footer?: ReactNode
  size?: keyof typeof sizeClasses
  /** Receives focus on opening; otherwise the first focusable element of the body (then of the footer) does. */
  initialFocusRef?: RefObject<HTMLElement | null>
}

/**
 * Modal dialog: labelled by its title, keeps Tab and Shift+Tab inside while open, closes on Escape or a click on
 * the backdrop, and gives focus back to whatever had it before.
 */
export function Dialog({ open, onClose, title, description, children, footer, size = 'md', initialFocusRef }: DialogProps) {
  const titleId = useId()
  const descriptionId = useId()
  const panelRef = useRef<HTMLDivElement>(null)
  const bodyRef = useRef<HTMLDivElement>(null)
  const footerRef = useRef<HTMLDivElement>(null)
  const onCloseRef = useRef(onClose)

  useEffect(() => {
    onCloseRef.current = onClose
  }, [onClose])

  useEffect(() => {
    if (!open) return
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const panel = panelRef.current
    const firstIn = (element: HTMLElement | null) => (element ? focusableWithin(element)[0] : undefined)
    const target = initialFocusRef?.current ?? firstIn(bodyRef.current) ?? firstIn(footerRef.current) ?? panel
    target?.focus()

    // Focus that escapes by other means than Tab (a click behind, a script) is brought back.
    const keepFocusInside = (event: FocusEvent) => {
      if (panel && event.target instanceof Node && !panel.contains(event.target)) panel.focus()
    }
    document.addEventListener('focusin', keepFocusInside)
    const { overflow } = document.body.style
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('focusin', keepFocusInside)
      document.body.style.overflow = overflow
      previouslyFocused?.focus()
    }
  }, [open, initialFocusRef])

  if (!open) return null

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      onCloseRef.current()
      return
    }
    if (event.key !== 'Tab' || !panelRef.current) return
    const focusable = focusableWithin(panelRef.current)
    const first = focusable[0]
    const last = focusable[focusable.length - 1]
    if (!first || !last) {
      event.preventDefault()
      return
    }
    const active = document.activeElement
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <div aria-hidden="true" className="absolute inset-0 bg-gray-900/50" onClick={() => onCloseRef.current()} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={cn('relative w-full rounded-lg bg-white shadow-xl focus:outline-none', sizeClasses[size])}
      >
        <div className="flex items-start justify-between gap-4 border-b border-gray-100 px-6 py-4">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-gray-900">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="mt-1 text-sm text-gray-500">
                {description}
              </p>
            )}
          </div>
          <button
            type="button"
            onClick={() => onCloseRef.current()}
            aria-label="Fermer"
            className="rounded-md p-1 text-gray-500 hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        <div ref={bodyRef} className="max-h-[70vh] overflow-y-auto px-6 py-4">
          {children}
        </div>
        {footer && (
          <div ref={footerRef} className="flex justify-end gap-2 border-t border-gray-100 px-6 py-4">
            {footer}
          </div>
        )}
      </div>
    </div>,
    document.body,
  )
}
