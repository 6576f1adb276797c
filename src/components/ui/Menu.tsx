import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { MoreHorizontal } from 'lucide-react'
import { cn } from '@/lib/cn'
import { buttonClasses } from './Button'

export interface MenuItem {
  label: string
  onSelect: () => void
  icon?: ReactNode
  /** A destructive action, shown in red. */
  danger?: boolean
}

interface MenuProps {
  /** The button's accessible name, which says whose actions these are (« Autres actions pour Revue T4 »). */
  label: string
  items: readonly MenuItem[]
  /** The button's visible text; an ellipsis icon alone when absent. */
  children?: ReactNode
  className?: string
}

const MENU_WIDTH = 224 // px, w-56
const GAP = 4

/**
 * A menu button (WAI-ARIA Authoring Practices « Menu Button »): Enter, Space or ↓ open it on its first item, ↑ on its
 * last; ↑ ↓ Home End move between items; Escape closes it and gives focus back to the button, as does choosing an item,
 * so that a dialog the item opens returns focus to the button when it closes. The list is placed with fixed coordinates
 * so that a table's scrolling region does not clip it, and moves with its button when the page or the table scrolls.
 */
export function Menu({ label, items, children, className }: MenuProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false)
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null)
  const menuId = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)

  const itemsOf = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])
  const close = (refocus: boolean) => {
    setOpen(false)
    setPosition(null)
    if (refocus) buttonRef.current?.focus()
  }

  // Placed under the button, right-aligned with it, or above it when the viewport has no room below.
  const place = () => {
    if (!buttonRef.current || !menuRef.current) return
    const button = buttonRef.current.getBoundingClientRect()
    const height = menuRef.current.offsetHeight
    const below = button.bottom + GAP + height <= window.innerHeight
    setPosition({
      top: below ? button.bottom + GAP : Math.max(GAP, button.top - GAP - height),
      left: Math.max(GAP, Math.min(button.right - MENU_WIDTH, window.innerWidth - MENU_WIDTH - GAP)),
    })
  }

  useLayoutEffect(() => {
    if (!open) return
    place()
    const list = itemsOf()
    // preventScroll: the list is placed by hand, in the viewport already.
    ;(open === 'last' ? list[list.length - 1] : list[0])?.focus({ preventScroll: true })
  }, [open])

  useEffect(() => {
    if (!open) return
    const closeOnOutsidePointer = (event: PointerEvent) => {
      const target = event.target
      if (target instanceof Node && !menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) close(false)
    }
    // The list follows its button when the page or the table scrolls under it.
    document.addEventListener('pointerdown', closeOnOutsidePointer)
    window.addEventListener('scroll', place, true)
    window.addEventListener('resize', place)
    return () => {
      document.removeEventListener('pointerdown', closeOnOutsidePointer)
      window.removeEventListener('scroll', place, true)
      window.removeEventListener('resize', place)
    }
  }, [open])

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last')
    }
  }

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = itemsOf()
    const index = list.indexOf(document.activeElement as HTMLElement)
    const target =
      event.key === 'ArrowDown'
        ? list[(index + 1) % list.length]
        : event.key === 'ArrowUp'
          ? list[(index - 1 + list.length) % list.length]
          : event.key === 'Home'
            ? list[0]
            : event.key === 'End'
              ? list[list.length - 1]
              : null
    if (target) {
      event.preventDefault()
      target.focus({ preventScroll: true })
    } else if (event.key === 'Escape') {
      event.preventDefault()
      // A dialog around the menu must not close with it.
      event.stopPropagation()
      close(true)
    } else if (event.key === 'Tab') {
      close(false)
    }
  }

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? menuId : undefined}
        className={cn(buttonClasses({ variant: 'outline', size: 'sm' }), className)}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKeyDown}
      >
        {children ?? <MoreHorizontal aria-hidden="true" className="h-4 w-4" />}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKeyDown}
          style={{ top: position?.top ?? 0, left: position?.left ?? 0, width: MENU_WIDTH }}
          className="fixed z-40 rounded-md border border-gray-200 bg-white py-1 shadow-lg"
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={cn(
                'flex w-full items-center gap-2 px-4 py-2 text-left text-sm hover:bg-gray-100 focus:bg-gray-100 focus:outline-none',
                item.danger ? 'text-red-700' : 'text-gray-800',
              )}
              onClick={() => {
                close(true)
                item.onSelect()
              }}
            >
              {item.icon}
              {item.label}
            </button>
          ))}
        </div>
      )}
    </>
  )
}
