import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { openPglite, paths, prepareDatabase } from './database'
import { generateTypes } from './gen-types'

/** The generated file the SPA imports; `npm run db:types` rewrites it after a migration. */
export const typesFile = path.resolve(path.dirname(paths.seed), '..', 'src', 'lib', 'database.types.ts')

async function main(): Promise<void> {
  const db = await openPglite()
  try {
    await prepareDatabase(db, { seed: false })
    const generated = await generateTypes(db)
    if (process.argv.includes('--check')) {
      const current = await readFile(typesFile, 'utf8').catch(() => '')
      if (current !== generated) {
        console.error(`${path.relative(process.cwd(), typesFile)} is out of date: run npm run db:types`)
        process.exitCode = 1
      }
      return
    }
    await writeFile(typesFile, generated)
    console.info(`wrote ${path.relative(process.cwd(), typesFile)}`)
  } finally {
    await db.close()
  }
}

await main()
