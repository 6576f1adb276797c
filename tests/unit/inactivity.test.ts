import { ACTIVITY_EVENTS, INACTIVITY_TIMEOUT_MS, watchInactivity } from '@/auth/inactivity'

describe('watchInactivity', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('waits five minutes', () => {
    expect(INACTIVITY_TIMEOUT_MS).toBe(300_000)
    expect([...ACTIVITY_EVENTS]).toEqual(['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart'])
  })

  it('calls onIdle once, after the timeout without activity', () => {
    const onIdle = vi.fn()
    watchInactivity({ target: new EventTarget(), onIdle })
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS - 1)
    expect(onIdle).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onIdle).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS * 3)
    expect(onIdle).toHaveBeenCalledTimes(1)
  })

  it.each(ACTIVITY_EVENTS)('counts %s as activity', (event) => {
    const target = new EventTarget()
    const onIdle = vi.fn()
    watchInactivity({ target, onIdle })
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS - 10_000)
    target.dispatchEvent(new Event(event))
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS - 1)
    expect(onIdle).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onIdle).toHaveBeenCalledTimes(1)
  })

  it('ignores other events, and stops watching when asked', () => {
    const target = new EventTarget()
    const onIdle = vi.fn()
    const stop = watchInactivity({ target, onIdle })
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS - 1_000)
    target.dispatchEvent(new Event('focus'))
    vi.advanceTimersByTime(1_000)
    expect(onIdle).toHaveBeenCalledTimes(1)

    const second = vi.fn()
    const stopSecond = watchInactivity({ target, onIdle: second })
    stopSecond()
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS * 2)
    expect(second).not.toHaveBeenCalled()
    stop()
  })
})
