import type { BrowserStorage } from '@/auth/session'

/** A Web Storage stand-in for the node test environment. */
export class MemoryStorage implements BrowserStorage {
  private readonly items = new Map<string, string>()

  constructor(initial: Record<string, string> = {}) {
    for (const [key, value] of Object.entries(initial)) this.items.set(key, value)
  }

  get length() {
    return this.items.size
  }

  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }

  getItem(key: string) {
    return this.items.get(key) ?? null
  }

  setItem(key: string, value: string) {
    this.items.set(key, value)
  }

  removeItem(key: string) {
    this.items.delete(key)
  }

  clear() {
    this.items.clear()
  }

  keys() {
    return [...this.items.keys()]
  }
}
