import type { Locator, Page } from 'playwright-core'

/**
 * Chooses `item` in the « Autres actions » menu of a campaign's row (the row shows one action, the others are in the
 * menu).
 */
export async function chooseRowAction(page: Page, row: Locator, campaign: string, item: string) {
  await row.getByRole('button', { name: `Autres actions pour ${campaign}` }).click()
  await page.getByRole('menu', { name: `Autres actions pour ${campaign}` }).getByRole('menuitem', { name: item, exact: true }).click()
}
