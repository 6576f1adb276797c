import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { generateTypes } from '../../supabase/local/gen-types'
import { typesFile } from '../../supabase/local/db-types'
import { freshDatabase } from '../support/database'

let db: Database
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

it('keeps src/lib/database.types.ts in step with the migrations (npm run db:types)', async () => {
  expect(await readFile(typesFile, 'utf8')).toBe(await generateTypes(db))
})
