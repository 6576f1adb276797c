import { useEffect } from 'react'
import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import type { RealtimeChannel } from '@supabase/supabase-js'
import { getSupabase } from './supabase'

/**
 * The kinds of data the database announces on live topics (supabase/migrations/20261121001140_live_updates.sql):
 * each message names the kinds that changed for its audience, never a row.
 */
export const LIVE_KINDS = ['users', 'applications', 'campaigns', 'user_rights', 'control_rules', 'audit_logs'] as const
export type LiveKind = (typeof LIVE_KINDS)[number]

type Listener = {
  /** Something of a kind the listener shows changed for the signed-in person. */
  onChange: () => void
  /** A topic (re)joined after having been joined before: messages may have been missed meanwhile. */
  onResync: () => void
}

const listeners = new Map<LiveKind, Set<Listener>>()

function listenersOf(kinds: Iterable<LiveKind>): Set<Listener> {
  const found = new Set<Listener>()
  for (const kind of kinds) for (const listener of listeners.get(kind) ?? []) found.add(listener)
  return found
}

/** The kinds a message names, ignoring anything else it may carry. */
function kindsIn(payload: unknown): LiveKind[] {
  const kinds = (payload as { kinds?: unknown } | null)?.kinds
  return Array.isArray(kinds) ? kinds.filter((kind): kind is LiveKind => (LIVE_KINDS as readonly string[]).includes(kind)) : []
}

/** The private topics a person receives: their own, and their role's view for admin and rssi. */
export function liveTopicsFor(person: { id: string; role: string }): string[] {
  return [`user:${person.id}`, ...(person.role === 'admin' || person.role === 'rssi' ? [person.role] : [])]
}

/**
 * The topics the database holds to one message a second (admin, rssi, a campaign's), with the kinds each may carry: a
 * change committed within the second after a message is told by the topic's next message, if any comes.
 */
function throttledKinds(topic: string): readonly LiveKind[] | null {
  if (topic === 'admin' || topic === 'rssi') return LIVE_KINDS
  return topic.startsWith('campaign:') ? ['campaigns', 'user_rights'] : null
}

/** After joining a throttled topic or a message on it, how long without another before the screen looks again for held changes. */
export const THROTTLED_CATCH_UP_MS = 1500

/**
 * Joins these private topics until the returned function is called. The database checks at the join that the person
 * may receive each one; a message then reaches the listeners of the kinds it names. On a throttled topic, the
 * listeners of its kinds hear once more a quiet second and a half after the join and after each message: a change
 * the database held (committed within a second of the topic's last message) is then shown even when no message
 * follows it, whether that last message came before the join or after.
 */
export function joinLiveTopics(topics: readonly string[]): () => void {
  const supabase = getSupabase()
  const catchUps = new Map<string, ReturnType<typeof setTimeout>>()
  const scheduleCatchUp = (topic: string) => {
    const kinds = throttledKinds(topic)
    if (!kinds) return
    clearTimeout(catchUps.get(topic))
    catchUps.set(
      topic,
      setTimeout(() => {
        catchUps.delete(topic)
        for (const listener of listenersOf(kinds)) listener.onChange()
      }, THROTTLED_CATCH_UP_MS),
    )
  }
  const channels: RealtimeChannel[] = topics.map((topic) => {
    let joinedOnce = false
    return supabase
      .channel(topic, { config: { private: true } })
      .on('broadcast', { event: 'changed' }, (message: { payload?: unknown }) => {
        const kinds = kindsIn(message.payload)
        if (kinds.length === 0) return
        for (const listener of listenersOf(kinds)) listener.onChange()
        scheduleCatchUp(topic)
      })
      .subscribe((status) => {
        if (status !== 'SUBSCRIBED') return
        if (joinedOnce) for (const listener of listenersOf(LIVE_KINDS)) listener.onResync()
        joinedOnce = true
        // A change held because the topic's last message went out just before the join is told by no message to come.
        scheduleCatchUp(topic)
      })
  })
  return () => {
    for (const timer of catchUps.values()) clearTimeout(timer)
    for (const channel of channels) void supabase.removeChannel(channel)
  }
}

/** Keeps the signed-in person's live topics joined while they are signed in: one set of channels per session. */
export function useLiveTopics(person: { id: string; role: string }): void {
  const { id, role } = person
  useEffect(() => joinLiveTopics(liveTopicsFor({ id, role })), [id, role])
}

/**
 * A campaign's topic, for a screen that shows that campaign's progress: its reviewers hear of every decision in it.
 * Administrators and the security officer hear them on their role's topic already.
 */
export function campaignTopicFor(campaignId: string, person: { role: string }): string | null {
  return person.role === 'admin' || person.role === 'rssi' ? null : `campaign:${campaignId}`
}

/** Keeps a campaign's topic joined while a screen shows its progress. */
export function useLiveCampaign(campaignId: string, person: { role: string }): void {
  const topic = campaignTopicFor(campaignId, person)
  useEffect(() => (topic ? joinLiveTopics([topic]) : undefined), [topic])
}

/** Calls back on every announced change of these kinds until the returned function is called. */
export function subscribeToKinds(kinds: readonly LiveKind[], listener: Listener): () => void {
  for (const kind of kinds) {
    const set = listeners.get(kind) ?? new Set()
    set.add(listener)
    listeners.set(kind, set)
  }
  return () => {
    for (const kind of kinds) listeners.get(kind)?.delete(listener)
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
 * Keeps the queries under `queryKey` fresh: any announced change of these kinds marks them stale and refetches the
 * ones on screen. A burst of changes costs one refetch.
 */
export function useLiveInvalidation(kinds: readonly LiveKind[], queryKey: QueryKey, timing: LiveTiming = LIVE_TIMING): void {
  const queryClient = useQueryClient()
  const kindsKey = kinds.join(',')
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
    const unsubscribe = subscribeToKinds(kindsKey.split(',') as LiveKind[], { onChange: schedule, onResync: schedule })
    return () => {
      if (timer) clearTimeout(timer)
      unsubscribe()
    }
  }, [queryClient, kindsKey, keyHash, debounceMs, maxWaitMs])
}
