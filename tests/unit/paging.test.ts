import { ApiError } from '@/lib/api-error'
import { API_PAGE_SIZE, pageRange, pageText, readAllPages, searchFilter, totalText } from '@/lib/paging'

const fail = (error: { message: string }): never => {
  throw new Error(`échec : ${error.message}`)
}

describe('readAllPages', () => {
  it('reads past the API’s 1000 rows, one range after the other, and stops on a short page', async () => {
    const table = Array.from({ length: 2 * API_PAGE_SIZE + 17 }, (_, index) => index)
    const ranges: [number, number][] = []
    const rows = await readAllPages(async (from, to) => {
      ranges.push([from, to])
      return { data: table.slice(from, to + 1), error: null }
    }, fail)
    expect(rows).toEqual(table)
    expect(ranges).toEqual([
      [0, 999],
      [1000, 1999],
      [2000, 2999],
    ])
  })

  it('asks once more when the last page is exactly full, and gets nothing', async () => {
    const calls: number[] = []
    const rows = await readAllPages(async (from, to) => {
      calls.push(from)
      return { data: from === 0 ? Array.from({ length: to - from + 1 }, () => 'x') : [], error: null }
    }, fail)
    expect(rows).toHaveLength(API_PAGE_SIZE)
    expect(calls).toEqual([0, 1000])
  })

  it('hands an API error to the feature, whatever was read before', async () => {
    await expect(
      readAllPages(async (from) => (from === 0 ? { data: Array(API_PAGE_SIZE).fill(1), error: null } : { data: null, error: { message: 'JWT expired' } }), fail),
    ).rejects.toThrow('échec : JWT expired')
  })
})

describe('readAllPages without a fail of its own', () => {
  it('throws the server’s message with its code, or the French fallback when the message is empty', async () => {
    const refusal = readAllPages(async () => ({ data: null, error: { message: 'permission refusée', code: '42501' } }))
    await expect(refusal).rejects.toBeInstanceOf(ApiError)
    await expect(refusal).rejects.toMatchObject({ message: 'permission refusée', code: '42501' })
    await expect(readAllPages(async () => ({ data: null, error: { message: ' ' } }))).rejects.toThrow('Une erreur est survenue')
  })
})

describe('totalText', () => {
  it('says a list’s total in French, with a space between thousands and the plural from 2', () => {
    expect(totalText(1500, 'utilisateur', 'utilisateurs')).toBe('1\u202f500 utilisateurs')
    expect(totalText(1, 'application', 'applications')).toBe('1 application')
    expect(totalText(0, 'campagne', 'campagnes')).toBe('0 campagne')
  })
})

describe('server paging', () => {
  it('says where the page stands, in French, with the noun agreed', () => {
    expect(pageText({ page: 0, size: 50 }, 10_000, 'utilisateur', 'utilisateurs')).toBe('1–50 sur 10\u202f000 utilisateurs')
    expect(pageText({ page: 2, size: 25 }, 60, 'utilisateur', 'utilisateurs')).toBe('51–60 sur 60 utilisateurs')
    expect(pageText({ page: 0, size: 25 }, 1, 'utilisateur', 'utilisateurs')).toBe('1–1 sur 1 utilisateur')
    expect(pageText({ page: 0, size: 25 }, 0, 'utilisateur', 'utilisateurs')).toBe('0 utilisateur')
    expect(pageRange({ page: 3, size: 100 })).toEqual([300, 399])
  })

  it('searches each word in any column, quoting what PostgREST and LIKE would read as syntax', () => {
    expect(searchFilter('  ', ['a', 'b'])).toBeNull()
    expect(searchFilter('jean', ['a', 'b'])).toBe('a.ilike."%jean%",b.ilike."%jean%"')
    expect(searchFilter('jean dupont', ['a'])).toBe('and(or(a.ilike."%jean%"),or(a.ilike."%dupont%"))')
    expect(searchFilter('x,(y)', ['a'])).toBe('a.ilike."%x,(y)%"')
    expect(searchFilter('50%_"\\', ['a'])).toBe('a.ilike."%50\\\\%\\\\_\\"\\\\\\\\%"')
    expect(searchFilter('a*b', ['a'])).toBe('a.ilike."%a_b%"')
  })
})
