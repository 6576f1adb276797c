/**
 * Storage for the auth session that honours "Se souvenir de moi": remembered sessions go to localStorage,
 * the others to sessionStorage so they end with the browser tab. The choice itself is kept in localStorage
 * under a key the logout cleanup leaves alone (it names no sb-, supabase or auth).
 */
export const REMEMBER_ME_KEY = 'recertif.remember-me'

export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface RememberMeStorage extends KeyValueStorage {
  setRemembered(remembered: boolean): void
}

export function createRememberMeStorage(
  persistent: () => KeyValueStorage,
  perTab: () => KeyValueStorage,
): RememberMeStorage {
  const remembered = () => persistent().getItem(REMEMBER_ME_KEY) !== 'tab'
  return {
    setRemembered(value) {
      persistent().setItem(REMEMBER_ME_KEY, value ? 'browser' : 'tab')
    },
    getItem(key) {
      return (remembered() ? persistent() : perTab()).getItem(key)
    },
    setItem(key, value) {
      const [target, other] = remembered() ? [persistent(), perTab()] : [perTab(), persistent()]
      target.setItem(key, value)
      other.removeItem(key)
    },
    removeItem(key) {
      persistent().removeItem(key)
      perTab().removeItem(key)
    },
  }
}

export const rememberMeStorage = createRememberMeStorage(
  () => window.localStorage,
  () => window.sessionStorage,
)
