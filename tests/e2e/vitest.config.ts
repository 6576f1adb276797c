import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * Browser tests, apart from `npm test`: `npm run test:e2e`. Each project's global setup starts a local backend of its
 * own and serves the app against it; the tests drive Debian's Chromium through playwright-core.
 *   * e2e: every journey, on a production build served by `vite preview`;
 *   * e2e-dev: the journeys that matter most, on Vite's dev server as `npm start` serves it (sign-in, decisions, the
 *     three stage files, the Rapport de campagne, the offline upload).
 */
export const DEV_SERVER_JOURNEYS = [
  'tests/e2e/reviews.e2e.ts',
  'tests/e2e/stage-files.e2e.ts',
  'tests/e2e/evidence.e2e.ts',
  'tests/e2e/offline-decisions.e2e.ts',
]

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    globals: true,
    environment: 'node',
    // One backend serves every file of a project; running files one at a time keeps its data predictable.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: { name: 'e2e', include: ['tests/e2e/**/*.e2e.ts'], globalSetup: ['tests/e2e/support/global-setup.ts'] },
      },
      {
        extends: true,
        test: { name: 'e2e-dev', include: DEV_SERVER_JOURNEYS, globalSetup: ['tests/e2e/support/global-setup-dev.ts'] },
      },
    ],
  },
})
