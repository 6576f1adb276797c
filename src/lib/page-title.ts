import { useEffect } from 'react'

/** Names the browser tab after the page, which is also what screen readers announce on navigation. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — Recertif`
  }, [title])
}
