import type { ReactNode } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { AuthProvider } from '@/auth/AuthProvider'
import { QueryClientOverride } from './query-client'

type AuthOptions = Omit<Parameters<typeof AuthProvider>[0], 'children'>

interface AppProvidersProps {
  children: ReactNode
  /** For tests; the authenticated area otherwise creates its own. */
  queryClient?: QueryClient
  auth?: AuthOptions
}

export function AppProviders({ children, queryClient, auth }: AppProvidersProps) {
  return (
    <QueryClientOverride.Provider value={queryClient ?? null}>
      <AuthProvider {...auth}>{children}</AuthProvider>
    </QueryClientOverride.Provider>
  )
}
