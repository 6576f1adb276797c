import { writeFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openPglite, openPostgres, prepareDatabase } from '../../supabase/local/database'

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a dump of the migrated, seeded database. PostgreSQL: the template database's name. */
    databaseTemplate: { kind: 'pglite'; file: string } | { kind: 'postgres'; url: string; name: string }
  }
}

export const POSTGRES_TEMPLATE = 'recertif_test_template'

export function databaseUrlFor(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL
  if (url) {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`drop database if exists ${POSTGRES_TEMPLATE} with (force)`)
    await admin.query(`create database ${POSTGRES_TEMPLATE}`)
    await admin.end()
    const template = openPostgres(databaseUrlFor(url, POSTGRES_TEMPLATE), 1)
    await prepareDatabase(template)
    await template.close()
    project.provide('databaseTemplate', { kind: 'postgres', url, name: POSTGRES_TEMPLATE })
    return
  }

  const db = await openPglite()
  await prepareDatabase(db)
  const file = path.join(os.tmpdir(), `recertif-template-${process.pid}.tar`)
  await writeFile(file, Buffer.from(await (await db.dump()).arrayBuffer()))
  await db.close()
  project.provide('databaseTemplate', { kind: 'pglite', file })
  return async () => {
    await rm(file, { force: true })
  }
}
