/** Measure 4: the manager Excel file of the largest active campaign, from the export dialog's button to the download. */
import { stat } from 'node:fs/promises'
import type { Browser } from 'playwright-core'
import type { Api } from '../support/api'
import { newContext, recordRequests, signIn } from '../support/browser'
import { round } from '../support/stats'

export interface ExportResult {
  campaign: string
  campaignRights: number
  /** The dialog's "En attente" count: the rows of the manager file. */
  rows: number
  durationMs: number
  fileBytes: number
  /**
   * Highest JS heap in use while exporting, the page's and its workers' together (the file is read and written in a
   * worker): sampled through CDP every 100 ms, so a short peak can be missed.
   */
  peakHeapBytes: number
  heapBeforeBytes: number
  /** Where the time goes: the row pages fetched (campaign_export_rows), then building the file until the download. */
  phases: { requests: number; fetchMs: number; slowestRequestMs: number; buildMs: number }
}

/**
 * The JS heap in use in the browser's dedicated workers. A worker is a target of its own, which the page's CDP session
 * does not measure: each is attached through the browser's session (not flattened, so that its replies come back as
 * messages on that session) and asked Runtime.getHeapUsage. A worker gone meanwhile counts for nothing.
 */
async function workerHeaps(browser: Browser) {
  const cdp = await browser.newBrowserCDPSession()
  const sessions = new Map<string, string>()
  const pending = new Map<number, { sessionId: string; resolve: (used: number) => void }>()
  let nextId = 0
  cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
    const reply = JSON.parse(message) as { id?: number; result?: { usedSize?: number } }
    if (reply.id === undefined) return
    pending.get(reply.id)?.resolve(reply.result?.usedSize ?? 0)
    pending.delete(reply.id)
  })
  cdp.on('Target.detachedFromTarget', ({ sessionId }) => {
    for (const [id, request] of pending) {
      if (request.sessionId !== sessionId) continue
      request.resolve(0)
      pending.delete(id)
    }
  })
  const usedBy = async (sessionId: string): Promise<number> => {
    const id = ++nextId
    const used = new Promise<number>((resolve) => pending.set(id, { sessionId, resolve }))
    try {
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) })
    } catch {
      pending.delete(id)
      return 0
    }
    return used
  }
  return {
    async used(): Promise<number> {
      const { targetInfos } = await cdp.send('Target.getTargets')
      let total = 0
      for (const target of targetInfos.filter((info) => info.type === 'worker')) {
        let sessionId = sessions.get(target.targetId)
        if (!sessionId) {
          sessionId = await cdp
            .send('Target.attachToTarget', { targetId: target.targetId, flatten: false })
            .then((attached) => attached.sessionId)
            .catch(() => undefined)
          if (!sessionId) continue
          sessions.set(target.targetId, sessionId)
        }
        total += await usedBy(sessionId)
      }
      return total
    },
    detach: () => cdp.detach(),
  }
}

export async function largestActiveCampaign(service: Api): Promise<{ id: string; name: string; rights: number }> {
  const { data, error } = await service.from('campaigns').select('id, name').eq('status', 'active')
  if (error) throw new Error(error.message)
  const sized = await Promise.all(
    (data ?? []).map(async (campaign) => {
      const { count, error: countError } = await service.from('user_rights').select('id', { count: 'exact', head: true }).eq('campaign_id', campaign.id)
      if (countError) throw new Error(countError.message)
      return { ...campaign, rights: count ?? 0 }
    }),
  )
  const largest = sized.sort((a, b) => b.rights - a.rights)[0]
  if (!largest) throw new Error('No active campaign to export')
  return largest
}

export async function measureManagerExport(browser: Browser, appUrl: string, campaign: { name: string; rights: number }): Promise<ExportResult> {
  const context = await newContext(browser, appUrl)
  try {
    const page = await context.newPage()
    await signIn(page, 'admin@example.com')
    await page.goto('/app/campaigns')
    // An administrator's row keeps its lifecycle action in view and the export in its menu.
    await page.getByRole('button', { name: `Autres actions pour ${campaign.name}`, exact: true }).click()
    await page.getByRole('menu', { name: `Autres actions pour ${campaign.name}` }).getByRole('menuitem', { name: 'Export Excel', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Export Excel' })
    const rows = Number((await dialog.getByTestId('export-count-manager').innerText()).replace(/\D/g, ''))

    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    const workers = await workerHeaps(browser)
    const heapUsed = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics')
      return (metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0) + (await workers.used())
    }
    await cdp.send('HeapProfiler.collectGarbage')
    const heapBeforeBytes = await heapUsed()
    let peakHeapBytes = heapBeforeBytes
    let sampling = true
    // A sample that fails (the page closed under it when the export failed) ends the sampling: the export's own
    // failure is the one reported.
    const sampler = (async () => {
      while (sampling) {
        peakHeapBytes = Math.max(peakHeapBytes, await heapUsed())
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })().catch(() => {
      sampling = false
    })

    const requests = recordRequests(page)
    const started = performance.now()
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 300_000 }),
      dialog.getByRole('button', { name: 'Fichier Manager' }).click(),
    ]).finally(() => {
      sampling = false
    })
    const durationMs = performance.now() - started
    const rowPages = requests().filter((request) => request.path.includes('campaign_export_rows'))
    const fetchEnd = Math.max(0, ...rowPages.map((request) => request.startMs + request.durationMs))
    await sampler
    await workers.detach()
    const file = await download.path()
    const { size } = await stat(file)
    return {
      campaign: campaign.name,
      campaignRights: campaign.rights,
      rows,
      durationMs: round(durationMs),
      fileBytes: size,
      peakHeapBytes,
      heapBeforeBytes,
      phases: {
        requests: rowPages.length,
        fetchMs: fetchEnd,
        slowestRequestMs: Math.max(0, ...rowPages.map((request) => request.durationMs)),
        buildMs: round(durationMs - fetchEnd),
      },
    }
  } finally {
    await context.close()
  }
}
