import {
  useId,
  useLayoutEffect,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
} from 'react'
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
 * Modal dialog on the native `<dialog>` opened with `showModal()`: the browser makes the page behind inert and turns
 * Escape into a `cancel` event wherever focus is, even after the button that had it was disabled by the action it
 * started (our own key handler on the panel missed Escape then). Closing stays the caller's decision (`open`), so a
 * dialog busy saving can refuse it. It is labelled by its title, cycles Tab inside, closes on Escape, its Fermer
 * button or a click on the backdrop, and gives focus back to whatever had it before.
 */
export function Dialog(props: DialogProps) {
  return props.open ? createPortal(<OpenDialog {...props} />, document.body) : null
}

function OpenDialog({ onClose, title, description, children, footer, size = 'md', initialFocusRef }: DialogProps) {
  const titleId = useId()
  const descriptionId = useId()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const bodyRef = useRef<HTMLDivElement>(null)
  const footerRef = useRef<HTMLDivElement>(null)
  const onCloseRef = useRef(onClose)
  const pressedOnBackdrop = useRef(false)
  // Set while this component closes its own element on unmount, so that the `close` event is not taken for the user's.
  const closingItself = useRef(false)

  useLayoutEffect(() => {
    onCloseRef.current = onClose
  }, [onClose])

  useLayoutEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    closingItself.current = false
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog.showModal()
    const firstIn = (element: HTMLElement | null) => (element ? focusableWithin(element)[0] : undefined)
    const target = initialFocusRef?.current ?? firstIn(bodyRef.current) ?? firstIn(footerRef.current) ?? dialog
    target.focus()

    const { overflow } = document.body.style
    document.body.style.overflow = 'hidden'
    return () => {
      closingItself.current = true
      if (dialog.open) dialog.close()
      document.body.style.overflow = overflow
      previouslyFocused?.focus()
    }
  }, [initialFocusRef])

  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    // When the browser lets us, keep the element open and let the caller close it by unmounting; otherwise
    // (Chrome refuses a second cancellation without a user gesture in between) `onNativeClose` follows.
    if (!event.nativeEvent.cancelable) return
    event.preventDefault()
    onCloseRef.current()
  }

  const onNativeClose = () => {
    // Browsers fire `close` a task later: by then StrictMode's second mount may have shown the element again.
    if (closingItself.current || dialogRef.current?.open) return
    onCloseRef.current()
    // A caller that refused (busy saving) still renders the dialog: show it again once React has had its say.
    const dialog = dialogRef.current
    setTimeout(() => {
      if (dialog?.isConnected && !dialog.open && !closingItself.current) dialog.showModal()
    })
  }

  // A click on the backdrop targets the <dialog> itself, since its content fills it; a press that began inside and
  // ended outside (selecting text) does not count.
  const onMouseDown = (event: MouseEvent<HTMLDialogElement>) => {
    pressedOnBackdrop.current = event.target === dialogRef.current
  }
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (pressedOnBackdrop.current && event.target === dialogRef.current) onCloseRef.current()
    pressedOnBackdrop.current = false
  }

  // The browser lets Tab leave a modal dialog for its own toolbar; keep it cycling inside, as before.
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const dialog = dialogRef.current
    if (event.key !== 'Tab' || !dialog) return
    const focusable = focusableWithin(dialog)
    const first = focusable[0]
    const last = focusable[focusable.length - 1]
    if (!first || !last) {
      event.preventDefault()
      return
    }
    const active = document.activeElement
    if (event.shiftKey && (active === first || active === dialog)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    <dialog
      ref={dialogRef}
      // The element's own role, spelled out for selectors written against the former <div role="dialog">.
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      tabIndex={-1}
      onCancel={onCancel}
      onClose={onNativeClose}
      onMouseDown={onMouseDown}
      onClick={onClick}
      onKeyDown={onKeyDown}
      className={cn(
        'w-[calc(100%-2rem)] rounded-lg bg-white p-0 shadow-xl backdrop:bg-gray-900/50 focus:outline-none',
        sizeClasses[size],
      )}
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
    </dialog>
  )
}
