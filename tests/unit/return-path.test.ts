import { DEFAULT_AFTER_SIGN_IN, isSafeReturnPath, OAUTH_RETURN_KEY, returnPathFrom } from '@/auth/return-path'
import { LOGGED_OUT_FLAG_KEY } from '@/auth/session'

describe('return path after sign-in', () => {
  it('returns to the page asked for, with its query and fragment', () => {
    expect(returnPathFrom({ pathname: '/app/audit', search: '?page=2', hash: '#top' })).toBe('/app/audit?page=2#top')
  })

  it('defaults to the dashboard', () => {
    expect(returnPathFrom(null)).toBe(DEFAULT_AFTER_SIGN_IN)
    expect(DEFAULT_AFTER_SIGN_IN).toBe('/app/dashboard')
  })

  it('never leaves the site nor loops back to /login', () => {
    for (const path of ['//evil.example.com', '/\\evil.example.com', 'https://evil.example.com', '/login?x=1']) {
      expect(isSafeReturnPath(path)).toBe(false)
    }
    expect(returnPathFrom({ pathname: '//evil.example.com' })).toBe(DEFAULT_AFTER_SIGN_IN)
  })

  it('keeps its keys out of the logout cleanup markers', () => {
    for (const key of [OAUTH_RETURN_KEY, LOGGED_OUT_FLAG_KEY]) {
      expect(['sb-', 'supabase', 'auth'].some((marker) => key.includes(marker))).toBe(false)
    }
  })
})
