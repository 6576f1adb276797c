import type { SupabaseClient } from '@supabase/supabase-js'

type Row = Record<string, unknown>
type Result = { data: unknown; error: { message: string } | null }

/**
 * Just enough of supabase-js's query builder over an in-memory users table for the profile lookup: select with
 * eq/ilike, insert…select().single(), update…eq(), rpc. Every request is logged.
 */
export function createFakeSupabase(initialUsers: Row[], options: { failOn?: string } = {}) {
  const users = initialUsers.map((row) => ({ ...row }))
  const log: string[] = []
  // `failOn` names a step: 'insert', 'update', 'rpc', or a logged select such as 'select profile where id = x'.
  const fail = (step: string): Result | null => (options.failOn === step ? { data: null, error: { message: `${step} refused` } } : null)
  const withManager = (row: Row) => {
    const manager = users.find((candidate) => candidate.id === row.manager_id)
    return { ...row, manager: manager ? { first_name: manager.first_name, last_name: manager.last_name } : null }
  }
  const likeToRegExp = (pattern: string) =>
    new RegExp(`^${pattern.replace(/\\([\\%_])|([.*+?^${}()|[\]])|%|_/g, (match, escaped, special) => {
      if (escaped) return escaped.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      if (special) return `\\${special}`
      return match === '%' ? '.*' : '.'
    })}$`, 'i')

  function select(columns: string) {
    const filters: Array<(row: Row) => boolean> = []
    const builder = {
      eq(column: string, value: unknown) {
        log.push(`select ${columns === 'id' ? 'id' : 'profile'} where ${column} = ${String(value)}`)
        filters.push((row) => row[column] === value)
        return builder
      },
      ilike(column: string, pattern: string) {
        log.push(`select ${columns === 'id' ? 'id' : 'profile'} where ${column} ilike ${pattern}`)
        filters.push((row) => likeToRegExp(pattern).test(String(row[column])))
        return builder
      },
      async maybeSingle(): Promise<Result> {
        const failure = fail(log.at(-1) ?? '')
        if (failure) return failure
        const row = users.find((candidate) => filters.every((filter) => filter(candidate)))
        if (!row) return { data: null, error: null }
        return { data: columns === 'id' ? { id: row.id } : withManager(row), error: null }
      },
    }
    return builder
  }

  const client = {
    from(table: string) {
      if (table !== 'users') throw new Error(`unexpected table ${table}`)
      return {
        select,
        insert(row: Row) {
          log.push(`insert ${JSON.stringify(row)}`)
          return {
            select: () => ({
              async single(): Promise<Result> {
                const failure = fail('insert')
                if (failure) return failure
                const stored = { position: null, department: null, manager_id: null, last_login: null, created_at: 'now', updated_at: 'now', ...row }
                users.push(stored)
                return { data: withManager(stored), error: null }
              },
            }),
          }
        },
        update(values: Row) {
          return {
            async eq(column: string, value: unknown): Promise<Result> {
              log.push(`update ${Object.keys(values).join(',')} where ${column} = ${String(value)}`)
              const failure = fail('update')
              if (failure) return failure
              for (const row of users) if (row[column] === value) Object.assign(row, values)
              return { data: null, error: null }
            },
          }
        },
      }
    },
    async rpc(name: string, args: { old_user_id: string; new_user_id: string }): Promise<Result> {
      log.push(`rpc ${name} ${args.old_user_id} -> ${args.new_user_id}`)
      const failure = fail('rpc')
      if (failure) return failure
      const row = users.find((candidate) => candidate.id === args.old_user_id)
      if (row) row.id = args.new_user_id
      return { data: null, error: null }
    },
  }
  return { client: client as unknown as SupabaseClient, users, log }
}
