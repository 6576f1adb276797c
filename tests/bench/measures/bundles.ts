/** Measure 7: the JavaScript the browser actually loaded for a page, gzipped, and which libraries it contained. */
import { gzipSync } from 'node:zlib'
import type { Browser, BrowserContext, Response } from 'playwright-core'
import { loadAndTime, newContext, signIn, visible, type PageCondition, type StorageState } from '../support/browser'
import { RSSI_DASHBOARD_RENDERED } from './dashboard'

export interface ScriptFile {
  path: string
  bytes: number
  gzipBytes: number
}

export interface PageScripts {
  page: string
  gzipBytes: number
  bytes: number
  files: ScriptFile[]
  /** Libraries that must load only on demand, found in these scripts. */
  onDemandLibrariesLoaded: string[]
}

// Strings that survive minification in each library's code (checked against the built chunks).
const LIBRARY_SIGNATURES: Record<string, string[]> = {
  xlsx: ['SheetJS', '[Content_Types].xml'],
  papaparse: ['UndetectableDelimiter'],
}

function librariesIn(source: string): string[] {
  return Object.entries(LIBRARY_SIGNATURES)
    .filter(([, signatures]) => signatures.some((signature) => source.includes(signature)))
    .map(([name]) => name)
}

/**
 * Records the body of every script the context receives from now on. The sizes are those of the bodies gzipped
 * here (level 6, what a CDN sends), since Vite's preview server does not compress.
 */
function recordScripts(context: BrowserContext) {
  const bodies: Promise<{ path: string; body: Buffer } | null>[] = []
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return
    const path = new URL(response.url()).pathname
    bodies.push(response.body().then((body) => ({ path, body }), () => null))
  }
  context.on('response', onResponse)
  return async (label: string): Promise<PageScripts> => {
    context.off('response', onResponse)
    const loaded = (await Promise.all(bodies)).filter((entry) => entry !== null)
    // A chunk fetched twice (a modulepreload, then the import) is one file: count each path once.
    const unique = new Map(loaded.map((entry) => [entry.path, entry.body]))
    const files = [...unique].map(([path, body]) => ({ path, bytes: body.length, gzipBytes: gzipSync(body).length }))
    return {
      page: label,
      bytes: files.reduce((sum, file) => sum + file.bytes, 0),
      gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
      files: files.sort((a, b) => b.gzipBytes - a.gzipBytes),
      onDemandLibrariesLoaded: [...new Set([...unique.values()].flatMap((body) => librariesIn(body.toString('utf8'))))].sort(),
    }
  }
}

/** Loads `url` in a fresh context (empty cache), waits until `ready` holds and the network is idle, and sums its scripts. */
async function scriptsOf(
  browser: Browser,
  appUrl: string,
  label: string,
  url: string,
  ready: Record<string, PageCondition>,
  storageState?: StorageState,
): Promise<PageScripts> {
  const context = await newContext(browser, appUrl, storageState)
  try {
    const collect = recordScripts(context)
    const { page } = await loadAndTime(context, url, ready)
    await page.waitForLoadState('networkidle')
    return await collect(label)
  } finally {
    await context.close()
  }
}

async function sessionOf(browser: Browser, appUrl: string, email: string): Promise<StorageState> {
  const context = await newContext(browser, appUrl)
  try {
    const page = await context.newPage()
    await signIn(page, email)
    return await context.storageState()
  } finally {
    await context.close()
  }
}

/** The public pages without a session, then each role's first /app page from a stored session. */
export async function measureBundles(browser: Browser, appUrl: string): Promise<PageScripts[]> {
  const pages: PageScripts[] = []
  pages.push(await scriptsOf(browser, appUrl, '/', '/', { main: visible('main') }))
  pages.push(await scriptsOf(browser, appUrl, '/login', '/login', { form: visible('form button[type="submit"]') }))
  const appPages: [string, Record<string, PageCondition>][] = [
    ['rssi@example.com', RSSI_DASHBOARD_RENDERED],
    ['admin@example.com', { heading: visible('main h1') }],
    ['manager@example.com', { heading: visible('main h1') }],
  ]
  for (const [email, ready] of appPages) {
    const state = await sessionOf(browser, appUrl, email)
    pages.push(await scriptsOf(browser, appUrl, `/app/dashboard (${email})`, '/app/dashboard', ready, state))
  }
  return pages
}
