import { createContext } from 'react'
import type { QueryClient } from '@tanstack/react-query'

/**
 * Server state lives only in the authenticated area, so @tanstack/react-query stays out of the public pages' bundle
 * and each signed-in session starts with an empty cache. Tests hand their own client through this context.
 */
export const QueryClientOverride = createContext<QueryClient | null>(null)
