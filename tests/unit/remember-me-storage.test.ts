import { createRememberMeStorage, REMEMBER_ME_KEY } from '@/lib/remember-me-storage'
import { MemoryStorage } from './support/memory-storage'

describe('remember-me storage', () => {
  function setup() {
    const persistent = new MemoryStorage()
    const perTab = new MemoryStorage()
    return { persistent, perTab, storage: createRememberMeStorage(() => persistent, () => perTab) }
  }

  it('keeps a remembered session in localStorage', () => {
    const { persistent, perTab, storage } = setup()
    storage.setRemembered(true)
    storage.setItem('sb-127-auth-token', 'token')
    expect(persistent.getItem('sb-127-auth-token')).toBe('token')
    expect(perTab.getItem('sb-127-auth-token')).toBeNull()
    expect(storage.getItem('sb-127-auth-token')).toBe('token')
  })

  it('keeps an unremembered session for the tab only', () => {
    const { persistent, perTab, storage } = setup()
    storage.setRemembered(false)
    storage.setItem('sb-127-auth-token', 'token')
    expect(perTab.getItem('sb-127-auth-token')).toBe('token')
    expect(persistent.getItem('sb-127-auth-token')).toBeNull()
    expect(persistent.getItem(REMEMBER_ME_KEY)).toBe('tab')
    // A new tab shares localStorage but not sessionStorage: nothing to restore there.
    const otherTab = createRememberMeStorage(() => persistent, () => new MemoryStorage())
    expect(otherTab.getItem('sb-127-auth-token')).toBeNull()
  })

  it('moves the session when the choice changes, and removes it from both', () => {
    const { persistent, perTab, storage } = setup()
    storage.setItem('k', 'remembered')
    storage.setRemembered(false)
    storage.setItem('k', 'tab')
    expect(persistent.getItem('k')).toBeNull()
    expect(perTab.getItem('k')).toBe('tab')
    storage.removeItem('k')
    expect(storage.getItem('k')).toBeNull()
  })

  it('uses a key that the logout cleanup leaves alone', () => {
    expect(['sb-', 'supabase', 'auth'].some((marker) => REMEMBER_ME_KEY.includes(marker))).toBe(false)
  })
})
