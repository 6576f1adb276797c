import type { MessagesRequest } from '../model'

/** The notifications feature's query keys: Envoyer maintenant invalidates them all. */
export const notificationKeys = {
  all: ['notifications'] as const,
  summary: () => [...notificationKeys.all, 'summary'] as const,
  messages: (request: MessagesRequest) => [...notificationKeys.all, 'messages', request] as const,
}
