import { useEffect } from 'react'
import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import type { RealtimeChannel } from '@supabase/supabase-js'
import { getSupabase } from './supabase'
import type { Database } from './database.types'

/** The tables of the supabase_realtime publication (migration 0900). */
export type LiveTable = Extract<
  keyof Database['public']['Tables'],
  'users' | 'applications' | 'campaigns' | 'user_rights' | 'control_rules' | 'audit_logs'
>

type Listener = {
  /** A change the caller's row-level security lets them see. */
  onChange: () => void
  /** The channel (re)joined after having been joined before: changes may have been missed meanwhile. */
  onResync: () => void
}

type TableFeed = { channel: RealtimeChannel; listeners: Set<Listener>; joinedOnce: boolean }

// One channel per table, shared by every list that shows it, so that ten open lists cost one subscription.
const feeds = new Map<LiveTable, TableFeed>()

function openFeed(table: LiveTable): TableFeed {
  const feed: TableFeed = { channel: getSupabase().channel(`live:${table}`), listeners: new Set(), joinedOnce: false }
  feed.channel
    .on('postgres_changes', { event: '*', schema: 'public', table }, () => {
      for (const listener of feed.listeners) listener.onChange()
    })
    .subscribe((status) => {
      if (status !== 'SUBSCRIBED') return
      if (feed.joinedOnce) for (const listener of feed.listeners) listener.onResync()
      feed.joinedOnce = true
    })
  return feed
}

/** Calls back on every visible change to these tables until the returned function is called. */
export function subscribeToTables(tables: readonly LiveTable[], listener: Listener): () => void {
  for (const table of tables) {
    const feed = feeds.get(table) ?? openFeed(table)
    feeds.set(table, feed)
    feed.listeners.add(listener)
  }
  return () => {
    for (const table of tables) {
      const feed = feeds.get(table)
      if (!feed) continue
      feed.listeners.delete(listener)
      if (feed.listeners.size === 0) {
        feeds.delete(table)
        void getSupabase().removeChannel(feed.channel)
      }
    }
  }
}

export interface LiveTiming {
  /** Quiet time after the last change before refetching. */
  debounceMs: number
  /** The longest a burst of changes (a campaign start, twenty reviewers at work) may delay the refetch. */
  maxWaitMs: number
}

export const LIVE_TIMING: LiveTiming = { debounceMs: 300, maxWaitMs: 2000 }

/**
 * Keeps the queries under `queryKey` fresh: any change to `tables` that the caller may read marks them stale
 * and refetches the ones on screen. A burst of changes costs one refetch.
 */
export function useLiveInvalidation(tables: readonly LiveTable[], queryKey: QueryKey, timing: LiveTiming = LIVE_TIMING): void {
  const queryClient = useQueryClient()
  const tablesKey = tables.join(',')
  const keyHash = JSON.stringify(queryKey)
  const { debounceMs, maxWaitMs } = timing
  useEffect(() => {
    const key = JSON.parse(keyHash) as QueryKey
    let timer: ReturnType<typeof setTimeout> | undefined
    let firstChangeAt: number | undefined
    const flush = () => {
      timer = undefined
      firstChangeAt = undefined
      void queryClient.invalidateQueries({ queryKey: key })
    }
    const schedule = () => {
      const now = Date.now()
      firstChangeAt ??= now
      if (timer) clearTimeout(timer)
      const wait = Math.min(debounceMs, Math.max(0, firstChangeAt + maxWaitMs - now))
      timer = setTimeout(flush, wait)
    }
    const unsubscribe = subscribeToTables(tablesKey.split(',') as LiveTable[], { onChange: schedule, onResync: schedule })
    return () => {
      if (timer) clearTimeout(timer)
      unsubscribe()
    }
  }, [queryClient, tablesKey, keyHash, debounceMs, maxWaitMs])
}
