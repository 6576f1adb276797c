import { defineConfig } from 'vitest/config'
import type { Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from 'tailwindcss'
import autoprefixer from 'autoprefixer'
import { fileURLToPath } from 'node:url'
import { buildRefusal } from './netlify/build-target.js'
import { netlifyFunctions } from './netlify/vite-plugin.js'
import { netlifySecurityHeaders } from './netlify/security-headers.js'
import { DEV_SECRET_KEY } from './supabase/local/keys.js'

const src = fileURLToPath(new URL('./src', import.meta.url))

/** Stops `vite build` before it starts when the bundle would talk to the local development server or to nothing. */
function refuseUndeployableBuild(): Plugin {
  return {
    name: 'recertif:refuse-undeployable-build',
    apply: 'build',
    configResolved(config) {
      const env = config.env as Record<string, string | undefined>
      const refusal = buildRefusal({ mode: config.mode, url: env.VITE_SUPABASE_URL, anonKey: env.VITE_SUPABASE_PUBLISHABLE_KEY || env.VITE_SUPABASE_ANON_KEY })
      // The message is the whole story; a stack trace into Vite's internals would only bury it.
      if (refusal) throw Object.assign(new Error(refusal), { stack: refusal })
    },
  }
}

// Where the contact function delivers under `vite` and `vite preview`: the local mail catcher that `npm start` runs
// (the same values as netlify.toml's dev context). A real SMTP_* or CONTACT_* variable wins.
const LOCAL_MAIL_ENV = {
  SMTP_URL: 'smtp://127.0.0.1:54325',
  CONTACT_TO: 'contact@recertif.local',
  CONTACT_FROM: 'Recertif <no-reply@recertif.local>',
}

// The functions' secret key under `vite` and `vite preview`: the local backend's public development key (`npm run
// build` refuses to ship it). Their URL and publishable key are the app's own (VITE_SUPABASE_*).
const LOCAL_FUNCTION_ENV: Record<string, string> = process.env.SUPABASE_SERVICE_ROLE_KEY ? {} : { SUPABASE_SECRET_KEY: DEV_SECRET_KEY }

export default defineConfig({
  plugins: [react(), refuseUndeployableBuild(), netlifyFunctions({ env: { ...LOCAL_MAIL_ENV, ...LOCAL_FUNCTION_ENV } }), netlifySecurityHeaders()],
  resolve: { alias: { '@': src } },
  css: { postcss: { plugins: [tailwindcss(), autoprefixer()] } },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // Build outputs and scratch files are not the app's sources: changes there must not reload the page.
    watch: { ignored: ['**/.tmp/**', '**/dist/**', '**/coverage/**', '**/test-results/**'] },
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  // Every browser the app supports preloads modules natively: the polyfill would only weigh on the first page.
  build: { modulePreload: { polyfill: false } },
  test: {
    globals: true,
    // For every project: on a shared 2-core machine a jsdom file's first render (transforming lazy pages) or a
    // database file's fresh copy of the template can take many times Vitest's 5 s default without being stuck.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        // Each file starts from its own copy of the migrated, seeded template that the global setup builds once.
        test: {
          name: 'db',
          include: ['tests/db/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/support/dom-setup.ts'],
        },
      },
    ],
  },
})
