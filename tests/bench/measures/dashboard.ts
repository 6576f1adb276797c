/** Measure 1: from the login form's submit to the RSSI dashboard with its four counters showing figures. */
import type { Browser } from 'playwright-core'
import { clickAndTime, fillLogin, newContext, recordRequests, textMatches, type PageCondition, type RequestTiming } from '../support/browser'
import { median, repeat, round } from '../support/stats'

const counter = (label: string) => `[data-testid="counter-${label}"]`

export const RSSI_DASHBOARD_RENDERED: Record<string, PageCondition> = {
  rate: textMatches(counter('Taux de conformité'), '^(\\d+([.,]\\d+)?\\s?%|-)$'),
  atRisk: textMatches(counter('Comptes à risque'), '^\\d[\\d\\s\u202f]*$'),
  inProgress: textMatches(counter('Revues en cours'), '^\\d[\\d\\s\u202f]*$'),
  completed: textMatches(counter('Revues complétées'), '^\\d[\\d\\s\u202f]*$'),
}

export interface SignInResult {
  samplesMs: number[]
  medianMs: number
  /** The requests of the last sample, from the submit, for reading where the time goes. */
  waterfall: RequestTiming[]
}

export async function measureRssiSignIn(browser: Browser, appUrl: string, runs = 3): Promise<SignInResult> {
  let waterfall: RequestTiming[] = []
  const samples = await repeat(runs, async () => {
    const context = await newContext(browser, appUrl)
    try {
      const page = await context.newPage()
      await page.goto('/login')
      await fillLogin(page, 'rssi@example.com')
      const requests = recordRequests(page)
      const marks = await clickAndTime(page, 'form button[type="submit"]', RSSI_DASHBOARD_RENDERED)
      waterfall = requests()
      return Math.max(...Object.values(marks))
    } finally {
      await context.close()
    }
  })
  return { samplesMs: samples.map((value) => round(value)), medianMs: round(median(samples)), waterfall }
}
