/**
 * The reviews api with the header's bell counting nothing rather than asking the network, for screens whose tests are
 * not about the bell: `vi.mock('@/features/reviews/api', async (original) => (await import('../support/quiet-bell')).quietBell(original))`.
 */
export async function quietBell(importOriginal: <T>() => Promise<T>) {
  return { ...(await importOriginal<typeof import('@/features/reviews/api')>()), useReviewQueueCount: () => ({ data: 0 }) }
}
