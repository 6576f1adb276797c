import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { z } from 'zod'
import { configSchema, HELP } from '../../scripts/sync/config'

// `npm run sync -- --help` documents the configuration: every key the connector's schema reads is in it.

/** Every key of an object schema, by its path (ldap.url, applications.groups.dn, people.disabled.values, …). */
function keyPaths(schema: z.ZodType, prefix = ''): string[] {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) return keyPaths(schema.unwrap() as z.ZodType, prefix)
  if (schema instanceof z.ZodArray) return keyPaths(schema.element as z.ZodType, prefix)
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap((option) => keyPaths(option, prefix))
  if (!(schema instanceof z.ZodObject)) return []
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, child]) => {
    const path = `${prefix}${key}`
    return [path, ...keyPaths(child, `${path}.`)]
  })
}

/** Whether the help's example shows a key under its parents: "ldap", then "url" after it. */
function shows(help: string, path: string): boolean {
  let at = 0
  for (const key of path.split('.')) {
    at = help.indexOf(`"${key}":`, at)
    if (at < 0) return false
  }
  return true
}

describe('npm run sync -- --help', () => {
  const paths = keyPaths(configSchema)

  it('walks the whole schema', () => {
    expect(paths).toEqual(expect.arrayContaining(['ldap.url', 'people.attributes.manager', 'people.disabled.userAccountControl', 'people.disabled.values', 'applications.groups.account_type', 'recertif.account']))
  })

  it.each(paths)('shows %s in its example', (path) => {
    expect(shows(HELP, path)).toBe(true)
  })

  it('names the variables that hold the secrets', () => {
    expect(HELP).toMatch(/LDAP_BIND_PASSWORD/)
    expect(HELP).toMatch(/RECERTIF_SECRET_KEY/)
  })

  it('is what the command prints', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/sync/main.ts', '--help'], { cwd: process.cwd() })
    expect(stdout.trim()).toBe(HELP)
  })
})
