import { readFile } from 'node:fs/promises'
import type { Browser, BrowserContext } from 'playwright-core'
import * as XLSX from 'xlsx'
import { signedInClient } from './support/api'
import { launchBrowser, newContext, signIn } from './support/browser'

// The RSSI downloads the evidence pack of the seed's completed campaign from the Campagnes page and reads it back: its
// sheets, as many Décisions rows as the campaign list counts rights, and the seal. The list and the pack's Synthèse give
// the same review figures: 3 of 17 rights reviewed (18 %), 14 sent to the RA undecided at the closure.
const CAMPAIGN = 'Revue annuelle 2025'

let browser: Browser
let context: BrowserContext | undefined

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await context?.close()
  await browser?.close()
})

it('downloads the Rapport de campagne of the completed campaign and reads it back', async () => {
  const rssi = await signedInClient('rssi@example.com')
  const { data: campaign, error } = await rssi.from('campaigns').select('id').eq('name', CAMPAIGN).single()
  if (error) throw error
  const { data: figures, error: figuresError } = await rssi
    .from('campaign_progress')
    .select('rights_count, reviewed_count, undecided_count, progress')
    .eq('campaign_id', campaign.id)
    .single()
  if (figuresError) throw figuresError
  expect(figures).toEqual({ rights_count: 17, reviewed_count: 3, undecided_count: 14, progress: 18 })

  context = await newContext(browser)
  const page = await context.newPage()
  await signIn(page, 'rssi@example.com')
  await page.goto('/app/campaigns')
  const row = page.getByRole('row').filter({ hasText: CAMPAIGN })
  expect(await row.getByRole('progressbar', { name: `Progression de ${CAMPAIGN}` }).getAttribute('aria-valuenow')).toBe('18')
  await row.getByText('3 droits revus sur 17').waitFor()
  await row.getByText('14 non décidés à la clôture (transmis au RA)').waitFor()
  const button = row.getByRole('button', { name: `Rapport de campagne de ${CAMPAIGN}` })
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
  expect(download.suggestedFilename()).toMatch(/^rapport-campagne-revue-annuelle-2025-\d{4}-\d{2}-\d{2}\.xlsx$/)

  const workbook = XLSX.read(await readFile((await download.path())!), { type: 'buffer' })
  expect(workbook.SheetNames).toEqual(['Synthèse', 'Signatures', 'Décisions', 'Traitements RA', 'Journal'])
  const rows = (sheet: string) => XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[sheet]!, { header: 1, defval: '' })
  const synthesis = rows('Synthèse')
  const besides = (label: string) => synthesis.find((row) => row[0] === label)?.[1]
  expect(besides('Campagne')).toBe(CAMPAIGN)
  expect(besides('Droits de la campagne')).toBe(String(figures.rights_count))
  expect(besides('Droits revus')).toBe(String(figures.reviewed_count))
  expect(besides('Non décidés à la clôture (transmis au RA)')).toBe(String(figures.undecided_count))
  expect(besides('Progression')).toBe(`${figures.progress} %`)
  expect(besides('Sceau du journal')).toBe('Intact')
  expect(besides('Empreinte de tête (SHA-256)')).toMatch(/^[0-9a-f]{64}$/)
  expect(rows('Décisions').length - 1).toBe(figures.rights_count)
  // Traitements RA names each of those Terminer sent on undecided.
  expect(rows('Traitements RA').filter((line) => line[5] === 'Non décidé à la clôture')).toHaveLength(figures.undecided_count!)
  const journal = rows('Journal').slice(1).map((row) => row[3])
  expect(journal).toContain('Lancement de campagne')
  expect(journal).toContain('Clôture de campagne')
})
