import { act, renderHook } from '@testing-library/react'
import { useReviewQueueState, QUEUE_ROWS_PER_PAGE } from '@/features/reviews/components/queue/useReviewQueueState'
import { makeQueueItem } from '../support/queue-items'
import type { BulkOutcome, DecisionRequest, QueueItem } from '@/features/reviews/model'

function queueItem(id: string, overrides: Partial<QueueItem> = {}): QueueItem {
  return makeQueueItem(id, { granted_at: null, campaign_name: 'Revue T4', suggests_refusal: false, recommendation: null, ...overrides })
}

const noDecision = async (): Promise<BulkOutcome[]> => []

describe('Review queue state', () => {
  it('pages the filtered queue and goes back to the first page when a filter changes', () => {
    const items = Array.from({ length: QUEUE_ROWS_PER_PAGE + 5 }, (_, index) =>
      queueItem(`r${String(index).padStart(3, '0')}`, index < 3 ? { application_id: 'a-sap', application_name: 'SAP Finance' } : {}),
    )
    const { result } = renderHook(() => useReviewQueueState(items, noDecision))
    expect(result.current.pageCount).toBe(2)
    act(() => result.current.setPage(1))
    expect(result.current.pageItems).toHaveLength(5)
    act(() => result.current.updateFilters({ applicationId: 'a-sap' }))
    expect(result.current.page).toBe(0)
    expect(result.current.pageItems.map((item) => item.right_id)).toEqual(['r000', 'r001', 'r002'])
    expect(result.current.visibleCount).toBe(3)
  })

  it('selects a whole page, and forgets a selected right once it has left the queue', () => {
    const items = [queueItem('r1'), queueItem('r2'), queueItem('r3')]
    const { result, rerender } = renderHook(({ queue }) => useReviewQueueState(queue, noDecision), { initialProps: { queue: items } })
    act(() => result.current.togglePage())
    expect(result.current.selectedCount).toBe(3)
    expect(result.current.allOnPageSelected).toBe(true)
    rerender({ queue: items.slice(1) })
    expect(result.current.selectedCount).toBe(2)
  })

  it('offers a refusal of the selection only when every selected right can be refused', () => {
    const items = [queueItem('r1'), queueItem('r2', { refuse_status: null })]
    const { result } = renderHook(() => useReviewQueueState(items, noDecision))
    act(() => result.current.toggle('r1'))
    expect(result.current.canRefuseSelection).toBe(true)
    act(() => result.current.toggle('r2'))
    expect(result.current.canRefuseSelection).toBe(false)
  })

  it('sends the selection with its comment, keeps the refused rights selected and the comment for another try', async () => {
    const items = [queueItem('r1'), queueItem('r2')]
    const decide = vi.fn(async (requests: readonly DecisionRequest[]) =>
      requests.map((request) => ({ rightId: request.rightId, ok: request.rightId === 'r1', message: request.rightId === 'r1' ? null : 'Déjà revu.' })),
    )
    const { result } = renderHook(() => useReviewQueueState(items, decide))
    act(() => {
      result.current.toggle('r1')
      result.current.toggle('r2')
      result.current.setComment('Revue trimestrielle')
    })
    await act(() => result.current.decideSelected('approve'))
    expect(decide).toHaveBeenCalledWith([
      { rightId: 'r1', status: 'validated_manager', comment: 'Revue trimestrielle' },
      { rightId: 'r2', status: 'validated_manager', comment: 'Revue trimestrielle' },
    ])
    expect(result.current.successCount).toBe(1)
    expect(result.current.failures.map((failure) => `${failure.label} : ${failure.message}`)).toEqual(['ServiceNow — Rôle r2 (Emma Girard) : Déjà revu.'])
    expect(result.current.selectedCount).toBe(1)
    expect(result.current.isSelected('r2')).toBe(true)
    expect(result.current.comment).toBe('Revue trimestrielle')
    expect(result.current.running).toBeNull()
  })
})
