import axe from 'axe-core'
import type { AxeResults } from 'axe-core'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { launchBrowser, newContext, signIn } from './support/browser'

/**
 * Axe-core on every page and the main dialogs, as every demo role, on a desktop and a phone width.
 * A serious or critical violation fails, and so do the moderate rules once found broken here (heading order, content
 * outside landmarks), so that they stay fixed. Each role has one browser context; its pages are visited in sequence.
 */

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
] as const

const FAILING_IMPACTS = new Set(['serious', 'critical'])
const ISSUE_RULES = new Set(['heading-order', 'region'])

/** A button that opens a dialog: its accessible name, and the dialog's. */
interface DialogCheck {
  opener: string | RegExp
  dialog: string | RegExp
  /** When the opener is an item of a row's menu: the menu's button, which gets focus back. */
  menu?: RegExp
}

interface PageCheck {
  path: string
  dialogs?: DialogCheck[]
}

const REVIEW_DIALOG: DialogCheck = { opener: /^(Valider|Marquer traité) (?!.*sélection)/, dialog: 'Revue du droit' }
const EXPORT_DIALOG: DialogCheck = { opener: /^Export Excel de /, dialog: 'Export Excel' }
// An administrator's row shows its lifecycle step; the export is in the row's menu.
const ADMIN_EXPORT_DIALOG: DialogCheck = { menu: /^Autres actions pour /, opener: 'Export Excel', dialog: 'Export Excel' }

const reviewerPages = (extra: PageCheck[] = []): PageCheck[] => [
  { path: '/app/dashboard' },
  { path: '/app/reviews', dialogs: [REVIEW_DIALOG] },
  ...extra,
  { path: '/app/campaigns', dialogs: [EXPORT_DIALOG] },
  { path: '/app/profile' },
]

const adminPages: PageCheck[] = [
  { path: '/app/dashboard' },
  { path: '/app/applications', dialogs: [{ opener: 'Nouvelle application', dialog: 'Nouvelle application' }] },
  {
    path: '/app/campaigns',
    dialogs: [ADMIN_EXPORT_DIALOG, { opener: 'Import CSV', dialog: 'Import CSV des droits' }, { opener: 'Nouvelle campagne', dialog: 'Nouvelle campagne' }],
  },
  { path: '/app/users', dialogs: [{ opener: 'Nouvel utilisateur', dialog: 'Nouvel utilisateur' }] },
  { path: '/app/controls', dialogs: [{ opener: 'Nouvelle règle', dialog: 'Nouvelle règle de contrôle' }] },
  { path: '/app/notifications' },
  { path: '/app/profile' },
]

const ROLES: { email: string; pages: PageCheck[] }[] = [
  { email: 'user@example.com', pages: reviewerPages() },
  {
    email: 'manager@example.com',
    pages: reviewerPages([{ path: '/app/team', dialogs: [{ opener: /^Voir les droits de /, dialog: /^Droits de / }] }]),
  },
  { email: 'bpo@example.com', pages: reviewerPages([{ path: '/app/applications' }]) },
  { email: 'bpo.groupe@example.com', pages: reviewerPages([{ path: '/app/applications' }]) },
  { email: 'ra@example.com', pages: reviewerPages([{ path: '/app/applications' }]) },
  { email: 'admin@example.com', pages: adminPages },
  {
    email: 'rssi@example.com',
    pages: [
      {
        path: '/app/dashboard',
        dialogs: [
          { opener: /^Filtres/, dialog: 'Filtres' },
          { opener: /^Comptes inactifs \d/, dialog: 'Comptes inactifs' },
          { opener: /^Rôles incompatibles \d/, dialog: 'Rôles incompatibles' },
        ],
      },
      ...adminPages.slice(1, -1),
      { path: '/app/compliance', dialogs: [{ opener: /^Filtres/, dialog: 'Filtres' }] },
      { path: '/app/audit', dialogs: [{ opener: /^Filtres/, dialog: 'Filtres' }] },
      { path: '/app/profile' },
    ],
  },
]

const PUBLIC_PAGES = ['/', '/login', '/faq', '/contact', '/legal', '/privacy', '/page-inconnue']

let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  context = await newContext(browser)
  page = await context.newPage()
})
afterEach(async () => {
  await context?.close()
})

/** Waits until the page has its title and nothing is loading any more. */
async function settle() {
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await page.waitForLoadState('networkidle')
  await page.waitForFunction(() => document.querySelector('.animate-spin') === null)
}

/** Runs axe-core on the page (or inside `scope`) and returns its failing violations as readable lines. */
async function audit(where: string, scope?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source })
  const results = await page.evaluate(
    // axe's experimental label-content-name-mismatch is off by default, and it once failed on /login.
    (include) => (window as unknown as { axe: typeof axe }).axe.run(include ? { include: [include] } : document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    }),
    scope ?? null,
  ) as AxeResults
  return results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? '') || ISSUE_RULES.has(violation.id))
    .map((violation) => {
      const targets = violation.nodes.slice(0, 5).map((node) => node.target.join(' '))
      const more = violation.nodes.length > 5 ? ` … and ${violation.nodes.length - 5} more` : ''
      return `${where}: ${violation.id} (${violation.impact}) ${violation.help} — ${violation.nodes.length} node(s): ${targets.join(', ')}${more}`
    })
}

/** The page must fit its viewport: nothing wider than the screen, so that nothing is reached by scrolling sideways. */
async function overflow(where: string): Promise<string[]> {
  const { scrollWidth, viewport, widest } = await page.evaluate(() => {
    const viewportWidth = document.documentElement.clientWidth
    // The element sticking out furthest, outside the scroll boxes meant to scroll (a table's region).
    let widestElement = ''
    let right = viewportWidth
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      if (element.closest('[tabindex="0"][role="region"]')) continue
      const box = element.getBoundingClientRect()
      if (box.right > right + 0.5) {
        right = box.right
        widestElement = `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ').slice(0, 3).join('.')}` : ''}`
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, viewport: viewportWidth, widest: widestElement }
  })
  return scrollWidth > viewport ? [`${where}: the page is ${scrollWidth} px wide for ${viewport} px (widest: ${widest || '?'})`] : []
}

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement)
}

/** Opens the dialog, audits it, closes it with Escape and checks that focus went back to its opener. */
async function auditDialog(where: string, check: DialogCheck): Promise<string[]> {
  const failures: string[] = []
  const opener = page.getByRole('button', { name: check.menu ?? check.opener }).filter({ visible: true }).first()
  // A queue another journey emptied has no row to open: the dialog is checked wherever there is one.
  if ((await opener.count()) === 0) return []
  await opener.click()
  if (check.menu) {
    await page.getByRole('menu').waitFor()
    failures.push(...(await audit(`${where} › menu ouvert`)))
    await page.getByRole('menuitem', { name: check.opener }).click()
  }
  const dialog = page.getByRole('dialog', { name: check.dialog })
  await dialog.waitFor()
  await page.waitForFunction(() => document.querySelector('dialog .animate-spin') === null)
  const name = `${where} › dialog « ${String(check.dialog)} »`
  failures.push(...(await audit(name, '[aria-modal="true"]')))
  if (!(await dialog.evaluate((element) => element.matches(':modal')))) failures.push(`${name}: not a modal <dialog>, the page behind stays live`)
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  if (!(await isFocused(opener))) failures.push(`${name}: focus did not go back to the button that opened it`)
  return failures
}

/** The header's menus, open: the navigation drawer below the desktop width and the user menu. */
async function auditMenus(where: string, width: number): Promise<string[]> {
  const failures: string[] = []
  if (width < 1024) {
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click()
    await page.getByRole('button', { name: 'Fermer le menu' }).waitFor()
    failures.push(...(await audit(`${where} › menu ouvert`)))
    await page.getByRole('button', { name: 'Fermer le menu' }).click()
  }
  const userMenu = page.locator('header button[aria-haspopup="menu"]')
  await userMenu.click()
  await page.getByRole('menu').waitFor()
  failures.push(...(await audit(`${where} › menu utilisateur ouvert`)))
  await page.keyboard.press('Escape')
  await page.getByRole('menu').waitFor({ state: 'detached' })
  return failures
}

async function auditSignedIn(email: string, pages: PageCheck[]): Promise<string[]> {
  const failures: string[] = []
  await signIn(page, email)
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    for (const { path, dialogs = [] } of pages) {
      const where = `${email} @ ${size.width}px ${path}`
      await page.goto(path)
      await settle()
      failures.push(...(await audit(where)), ...(await overflow(where)))
      if (path === '/app/dashboard') failures.push(...(await auditMenus(where, size.width)))
      for (const check of dialogs) failures.push(...(await auditDialog(where, check)))
    }
  }
  return failures
}

describe('Accessibility (axe-core, WCAG 2.1 AA)', () => {
  it('finds no serious violation on the public pages, at 1440 and 375 px', async () => {
    const failures: string[] = []
    for (const size of WIDTHS) {
      await page.setViewportSize(size)
      for (const path of PUBLIC_PAGES) {
        await page.goto(path)
        await settle()
        if (path === '/faq') await page.getByRole('button', { expanded: false }).first().click()
        failures.push(...(await audit(`public @ ${size.width}px ${path}`)), ...(await overflow(`public @ ${size.width}px ${path}`)))
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
  }, 120_000)

  it.each(ROLES)('finds no serious violation on the pages and dialogs of $email, at 1440 and 375 px', async ({ email, pages }) => {
    const failures = await auditSignedIn(email, pages)
    expect(failures, failures.join('\n')).toEqual([])
  }, 240_000)
})

describe('Dialogs', () => {
  it('closes the Excel dialog on Escape after a download, gives focus back to its opener and keeps the page inert', async () => {
    await signIn(page, 'admin@example.com')
    await page.goto('/app/campaigns')
    await settle()
    // An administrator opens the export from each row's menu; focus goes back to the menu's button.
    const openers = page.getByRole('button', { name: /^Autres actions pour / })
    const dialog = page.getByRole('dialog', { name: 'Export Excel' })
    const managerFile = dialog.getByRole('button', { name: 'Fichier Manager' })
    // The first campaign with rights pending a manager: its Fichier Manager button is enabled.
    let opener: Locator | null = null
    for (let index = 0; index < (await openers.count()) && !opener; index++) {
      await openers.nth(index).click()
      await page.getByRole('menuitem', { name: 'Export Excel' }).click()
      await dialog.waitFor()
      if (await managerFile.isEnabled()) opener = openers.nth(index)
      else {
        await page.keyboard.press('Escape')
        await dialog.waitFor({ state: 'detached' })
      }
    }
    expect(opener, 'a campaign with rights pending a manager').not.toBeNull()

    // The page behind is inert: what a click on the sticky header's corner reaches is the dialog's backdrop. (A point
    // of the viewport rather than the title's box: focus going back to an opener further down may have scrolled the
    // title out of view, where elementFromPoint finds nothing.)
    expect(await dialog.evaluate((element) => element.contains(document.elementFromPoint(4, 4)))).toBe(true)

    // The button disabled while its file is built drops focus out of the dialog; Escape must still close it.
    const [download] = await Promise.all([page.waitForEvent('download'), managerFile.click()])
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/)
    await managerFile.and(page.locator(':enabled')).waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await isFocused(opener!)).toBe(true)
  })
})

describe('Login page', () => {
  it('sizes the demo panel to its list instead of stretching it to the form', async () => {
    await page.setViewportSize(WIDTHS[0])
    await page.goto('/login')
    const panel = page.getByRole('region', { name: 'Comptes de démonstration' })
    const [panelBox, listBox] = await Promise.all([panel.boundingBox(), panel.getByRole('list').boundingBox()])
    expect(panelBox && listBox).toBeTruthy()
    // Below its last button the panel keeps only its own padding (p-4, 16 px).
    expect(panelBox!.y + panelBox!.height - (listBox!.y + listBox!.height)).toBeLessThanOrEqual(17)
  })
})
