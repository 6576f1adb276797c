import { useEffect, useRef, useState } from 'react'

/**
 * Whether the element has come into view once, for what is worth fetching only when someone looks at it: a chart
 * library that weighs more than the rest of a page's code, or a figure at the bottom of a page whose query would
 * compete with the figures at its top. Without IntersectionObserver (old browsers, jsdom) everything counts as seen.
 */
export function useSeen<T extends Element>() {
  const ref = useRef<T>(null)
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined')
  useEffect(() => {
    const element = ref.current
    if (seen || !element) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [seen])
  return [ref, seen] as const
}
