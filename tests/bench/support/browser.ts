import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core'
import { demoTotpCode } from '../../support/second-factor'

export const DEMO_PASSWORD = 'Demo1234!'
const CHROMIUM = '/usr/bin/chromium'

// Debian's Chromium with the e2e harness's flags (tests/e2e/support/browser.ts); never a downloaded browser.
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

export async function newContext(browser: Browser, appUrl: string, storageState?: StorageState): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: appUrl, locale: 'fr-FR', acceptDownloads: true, storageState })
  // tsx compiles with esbuild's keepNames, which wraps named inner functions in __name(); the page has no such helper.
  await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)')
  return context
}

/** Fills the login form without submitting it: the caller times the submit. */
export async function fillLogin(page: Page, email: string) {
  await page.getByLabel('Adresse e-mail').fill(email)
  await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD)
}

/**
 * Signs in with "Se souvenir de moi", so the session is in localStorage and other tabs and contexts can reuse it; an
 * administrator or RSSI then types their demo second factor's code, as the app asks.
 */
export async function signIn(page: Page, email: string) {
  await page.goto('/login')
  await fillLogin(page, email)
  await page.getByRole('checkbox', { name: 'Se souvenir de moi' }).check()
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
  if (demoTotpCode(email)) {
    await fillSecondFactor(page, email)
    await page.getByRole('button', { name: 'Vérifier' }).click()
  }
  await page.getByRole('navigation', { name: 'Menu principal' }).waitFor()
}

/** On the second-factor page the app opens after the password, types the demo account's current code. */
export async function fillSecondFactor(page: Page, email: string) {
  const code = demoTotpCode(email)
  if (!code) throw new Error(`${email} has no demo second factor`)
  await page.waitForURL('**/verification')
  await page.getByLabel('Code à 6 chiffres').fill(code)
}

/**
 * A condition evaluated in the page: `(arg) => boolean`. It travels as source text, so it must not close over
 * anything. The watchers check it on every DOM mutation and animation frame and record the page's own clock
 * (performance.now()) when it first holds, rather than polling from Node.
 */
export type PageCondition = readonly [condition: (arg: string) => boolean, arg: string]
type Conditions = Record<string, PageCondition>

function serialize(conditions: Conditions): [string, string, string][] {
  return Object.entries(conditions).map(([name, [condition, arg]]) => [name, condition.toString(), arg])
}

/** Runs in the page: resolves with each condition's first-true time. */
function watch(entries: [string, string, string][], timeoutMs: number): Promise<Record<string, number>> {
  const pending = entries.map(([name, source, arg]) => ({
    name,
    arg,
    check: new Function('arg', `return (${source})(arg)`) as (arg: string) => boolean,
  }))
  const marks: Record<string, number> = {}
  return new Promise((resolve, reject) => {
    const finish = () => {
      const now = performance.now()
      for (const item of pending) {
        if (!(item.name in marks) && item.check(item.arg)) marks[item.name] = now
      }
      if (Object.keys(marks).length < pending.length) return false
      observer.disconnect()
      resolve(marks)
      return true
    }
    const observer = new MutationObserver(() => void finish())
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
    const frame = () => {
      if (!finish()) requestAnimationFrame(frame)
    }
    frame()
    setTimeout(() => reject(new Error(`Timed out waiting for ${pending.filter((item) => !(item.name in marks)).map((item) => item.name).join(', ')}`)), timeoutMs)
  })
}

/** Clicks `selector` in the page and returns, per condition, the milliseconds from the click until it first held. */
export async function clickAndTime(page: Page, selector: string, conditions: Conditions, timeoutMs = 120_000): Promise<Record<string, number>> {
  return page.evaluate(
    async ([sel, entries, timeout, watchSource]) => {
      const element = document.querySelector<HTMLElement>(sel)
      if (!element) throw new Error(`No element ${sel}`)
      const run = new Function(`return (${watchSource})`)() as typeof watch
      const started = performance.now()
      const marks = run(entries, timeout)
      element.click()
      const result = await marks
      return Object.fromEntries(Object.entries(result).map(([name, at]) => [name, at - started]))
    },
    [selector, serialize(conditions), timeoutMs, watch.toString()] as const,
  )
}

/**
 * Loads `url` in a new page of `context` with watchers installed before any script of the app runs, and returns, per
 * condition, the milliseconds from the navigation's start (the page clock's origin) until it first held.
 */
export async function loadAndTime(context: BrowserContext, url: string, conditions: Conditions, timeoutMs = 120_000): Promise<{ page: Page; marks: Record<string, number> }> {
  const page = await context.newPage()
  await page.addInitScript(
    ([entries, timeout, watchSource]) => {
      const run = new Function(`return (${watchSource})`)() as typeof watch
      const start = () => {
        ;(window as unknown as { __benchMarks: Promise<Record<string, number>> }).__benchMarks = run(entries, timeout)
      }
      // The observer needs the document element; at document start it may not exist yet.
      if (document.documentElement) start()
      else document.addEventListener('readystatechange', start, { once: true })
    },
    [serialize(conditions), timeoutMs, watch.toString()] as const,
  )
  await page.goto(url, { waitUntil: 'commit' })
  await page.waitForFunction(() => '__benchMarks' in window)
  const marks = await page.evaluate(() => (window as unknown as { __benchMarks: Promise<Record<string, number>> }).__benchMarks)
  return { page, marks }
}

// Conditions shared by the measures (page-side functions: no outer variables).

/** A visible element matching the selector. */
export const visible = (selector: string): PageCondition => [
  (sel: string) => {
    const element = document.querySelector<HTMLElement>(sel)
    return element !== null && element.getClientRects().length > 0
  },
  selector,
]

/** An element matching the selector whose text matches the pattern (given as a RegExp source). */
export const textMatches = (selector: string, pattern: string): PageCondition => [
  (arg: string) => {
    const [sel, source] = JSON.parse(arg) as [string, string]
    const element = document.querySelector<HTMLElement>(sel)
    return element !== null && new RegExp(source).test(element.innerText.trim())
  },
  JSON.stringify([selector, pattern]),
]

export interface RequestTiming {
  path: string
  /** From when recording started. */
  startMs: number
  durationMs: number
}

/** Records the requests the page completes from now on; `stop()` returns them, the waterfall of what was timed. */
export function recordRequests(page: Page) {
  const since = Date.now()
  const finished: Request[] = []
  const onFinished = (request: Request) => void finished.push(request)
  page.on('requestfinished', onFinished)
  return (): RequestTiming[] => {
    page.off('requestfinished', onFinished)
    return finished
      .map((request) => {
        const timing = request.timing()
        const url = new URL(request.url())
        return {
          path: `${url.pathname}${url.search}`.slice(0, 160),
          startMs: Math.round(timing.startTime - since),
          durationMs: Math.round(timing.responseEnd),
        }
      })
      .sort((a, b) => a.startMs - b.startMs)
  }
}
