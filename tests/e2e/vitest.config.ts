import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * Browser tests, apart from `npm test`: `npm run test:e2e`. The global setup builds the app for the local backend,
 * starts that backend and serves the build; the tests drive Debian's Chromium through playwright-core.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'e2e',
    globals: true,
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/support/global-setup.ts'],
    // One backend serves every file; running them one at a time keeps its data predictable.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
