import { randomUUID } from 'node:crypto'
import { vi } from 'vitest'
import { readSliceInPages, uuidSlices, withinSlice } from '@/lib/keyset'

// The supabase-js neighbour answers rpc('campaign_export_rows') as the SQL does: rows after p_after_id in right_id
// order, at most p_limit, each an array whose first element is the right id. What is under test is that reading four
// slices at once loses and repeats nothing.
const ids = Array.from({ length: 24_321 }, () => randomUUID()).sort()
const calls: (string | undefined)[] = []
vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    async rpc(_name: string, args: { p_after_id?: string; p_limit: number }) {
      calls.push(args.p_after_id)
      const after = ids.filter((id) => args.p_after_id === undefined || id > args.p_after_id)
      return { data: after.slice(0, args.p_limit).map((right_id) => [right_id]), error: null }
    },
  }),
}))
const { fetchExportRows } = await import('@/features/campaigns/api/read-export-rows')

describe('uuid slices', () => {
  it('cut the whole key space into contiguous slices, in order', () => {
    expect(uuidSlices(4)).toEqual([
      { after: null, last: '3fffffff-ffff-ffff-ffff-ffffffffffff' },
      { after: '3fffffff-ffff-ffff-ffff-ffffffffffff', last: '7fffffff-ffff-ffff-ffff-ffffffffffff' },
      { after: '7fffffff-ffff-ffff-ffff-ffffffffffff', last: 'bfffffff-ffff-ffff-ffff-ffffffffffff' },
      { after: 'bfffffff-ffff-ffff-ffff-ffffffffffff', last: 'ffffffff-ffff-ffff-ffff-ffffffffffff' },
    ])
    expect(uuidSlices(1)).toEqual([{ after: null, last: 'ffffffff-ffff-ffff-ffff-ffffffffffff' }])
  })

  it('keep what falls in the slice and tell when the slice is read to its end', () => {
    const [, second] = uuidSlices(4)
    const page = ['50000000-0000-4000-8000-000000000000', '7fffffff-ffff-ffff-ffff-ffffffffffff', '80000000-0000-4000-8000-000000000000']
    expect(withinSlice(page, (id) => id, second!, 3)).toEqual({ rows: page.slice(0, 2), done: true })
    expect(withinSlice(page.slice(0, 2), (id) => id, second!, 2)).toEqual({ rows: page.slice(0, 2), done: false })
    expect(withinSlice(page.slice(0, 1), (id) => id, second!, 2)).toEqual({ rows: page.slice(0, 1), done: true })
  })
})

describe('an export read as four slices at once', () => {
  it('returns every row once, in right_id order, past several pages', async () => {
    const progress: number[] = []
    const rows = await fetchExportRows('campaign', 'manager', (fetched) => progress.push(fetched))
    expect(rows.map((row) => row.right_id)).toEqual(ids)
    expect(progress.at(-1)).toBe(ids.length)
    // Four slices of about 6,080 rows: two pages of 5000 each, started from each slice's lower bound.
    expect(calls.filter((after) => after === undefined || after.endsWith('fffffff-ffff-ffff-ffff-ffffffffffff'))).toHaveLength(4)
    expect(calls.length).toBeLessThanOrEqual(12)
  })
})

describe('a slice read a page at a time', () => {
  it('hands over its pages in order, the last one said, having asked for the next page first', async () => {
    const [, second] = uuidSlices(4)
    const inSlice = ids.filter((id) => id > second!.after! && id <= second!.last)
    const asked: (string | null)[] = []
    const handed: { rows: string[]; last: boolean; askedBefore: number }[] = []
    const readPage = async (after: string | null) => {
      asked.push(after)
      return ids.filter((id) => id > (after ?? second!.after!)).slice(0, 1000)
    }
    await readSliceInPages(second!, 1000, readPage, (id) => id, (rows, last) => handed.push({ rows, last, askedBefore: asked.length }))
    expect(handed.flatMap((page) => page.rows)).toEqual(inSlice)
    expect(handed.map((page) => page.last)).toEqual(handed.map((_, index) => index === handed.length - 1))
    // Each page but the last was handed over once the next one had been asked for.
    handed.slice(0, -1).forEach((page, index) => expect(page.askedBefore).toBe(index + 2))
  })
})
