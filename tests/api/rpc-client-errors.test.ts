// A request the database refuses because of what the client sent is a 4xx through the REST API, as PostgREST maps
// SQLSTATEs: the evidence pack of a campaign still open and a file of more than 2,000 decisions were raised with
// 55000 and 54000, which PostgREST answers 500; they are 22023 (invalid parameter value), a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { campaignIds } from '../db/support/actors'
import { startRestBackend, type RestBackend } from './support/rest'

let backend: RestBackend
beforeAll(async () => {
  backend = await startRestBackend()
})
afterAll(() => backend.close())

async function rpc(role: 'admin' | 'manager', name: string, args: unknown): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const response = await backend.rest(`/rpc/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await backend.token(role)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  })
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } }
}

describe('client mistakes answered 400', () => {
  it.each(['campaign_evidence', 'campaign_evidence_items', 'campaign_evidence_journal'])(
    '%s on a campaign still open or in draft',
    async (name) => {
      for (const campaign of [campaignIds.active, campaignIds.draft]) {
        const { status, body } = await rpc('admin', name, { p_campaign_id: campaign })
        expect(status).toBe(400)
        expect(body).toMatchObject({ code: '22023', message: expect.stringMatching(/terminée ou archivée/) })
      }
    },
  )

  it('apply_review_decisions with more than 2,000 lines', async () => {
    const lines = Array.from({ length: 2001 }, (_, index) => ({ line: index + 2, right_id: crypto.randomUUID(), decision: 'approved' }))
    const { status, body } = await rpc('manager', 'apply_review_decisions', { p_stage: 'manager', p_decisions: lines })
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: '22023', message: expect.stringMatching(/au plus 2000/) })
  })
})
