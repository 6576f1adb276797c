import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The directory connector against a real OpenLDAP, apart from `npm test` because it needs Debian's slapd:
 * `npm run test:ldap` (through .ci/with-slapd, which installs it when missing). Each file starts its own slapd on
 * free ports and its own local backend over a copy of the seeded database built once by the global setup.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'ldap',
    globals: true,
    environment: 'node',
    include: ['tests/ldap/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
