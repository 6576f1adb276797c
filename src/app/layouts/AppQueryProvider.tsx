import { useContext, useState, type ReactNode } from 'react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { QueryClientOverride } from '../query-client'

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 },
      mutations: { retry: false },
    },
  })
}

export function AppQueryProvider({ children }: { children: ReactNode }) {
  const override = useContext(QueryClientOverride)
  const [client] = useState(() => override ?? createQueryClient())
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>
}
