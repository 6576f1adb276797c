import { readFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import { openPglite, openPostgres, type Database } from '../../supabase/local/database'
import { databaseUrlFor } from './global-setup'

/**
 * A fresh copy of the migrated, seeded database: PGlite loaded from the template dump, or a PostgreSQL
 * database created from the template database (dropped again on close) when DATABASE_URL is set.
 */
export async function freshDatabase(): Promise<Database> {
  const template = inject('databaseTemplate')
  if (template.kind === 'pglite') {
    const dump = await readFile(template.file)
    return openPglite({ loadDataDir: new Blob([dump]) })
  }

  const name = `recertif_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: template.url })
  await admin.connect()
  await admin.query(`create database ${name} template ${template.name}`)
  await admin.end()
  const db = openPostgres(databaseUrlFor(template.url, name))
  return {
    ...db,
    close: async () => {
      await db.close()
      const dropper = new pg.Client({ connectionString: template.url })
      await dropper.connect()
      await dropper.query(`drop database if exists ${name} with (force)`)
      await dropper.end()
    },
  }
}
