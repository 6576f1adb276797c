import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import { noReactInWorkers } from './eslint/no-react-in-workers.js'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const FEATURE_MESSAGE = 'A feature does not import another: compose them in src/app/routes (props or slots).'
const APP_PATTERN = {
  regex: '^(@/|(\\.\\./)+)app(/|$)',
  message: 'src/app depends on features, components and lib, never the other way round.',
}
const LOCAL_SERVER_PATTERN = {
  regex: 'supabase/local(/|$)',
  message: 'The app talks to the local server through the Supabase API only, never by importing it.',
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage', '.netlify', '.tmp'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx,js,mjs,mts}'],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  // Boundaries. No feature imports another: data several features show is a feature of its own, and the routes
  // (src/app/routes) compose features, passing one's component to another as a prop or slot
  // (<ProfilePage rights={<PersonRights />} />). src/app depends on features, components and lib, never the reverse,
  // and the app reaches the local server only through the Supabase API.
  // ESLint's own no-restricted-imports sees import strings, not resolved files, so a feature's files may leave their
  // feature only through the '@/' alias (a relative path climbing out of it is refused), which the patterns check.
  ...features.flatMap((feature) =>
    [0, 1, 2, 3].map((depth) => ({
      files: [`src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { regex: `^@/features/(?!${feature}(/|$))`, message: FEATURE_MESSAGE },
              { regex: `^(\\.\\./){${depth + 1},}`, message: 'Leave the feature through @/ only (@/lib/…, @/components/…): a relative path out of it hides a cross-feature import.' },
              APP_PATTERN,
              LOCAL_SERVER_PATTERN,
            ],
          },
        ],
      },
    })),
  ),
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(@/|(\\.\\./)+)features(/|$)', message: 'Shared code does not depend on a feature.' },
            APP_PATTERN,
            LOCAL_SERVER_PATTERN,
          ],
        },
      ],
    },
  },
  // src/domain holds the pure rules every feature shares (statuses and their words, stage files, plurals): it imports
  // only itself, never a feature, React, a widget or the Supabase client, so a worker or a test may load it alone.
  {
    files: ['src/domain/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'react-dom', '@tanstack/react-query', '@supabase/supabase-js'].map((name) => ({
            name,
            message: 'src/domain is pure: no React, no query cache, no Supabase.',
          })),
          patterns: [
            { regex: '^(@/|(\\.\\./)+)(features|components|lib|auth|pages)(/|$)', message: 'src/domain imports only src/domain.' },
            APP_PATTERN,
            LOCAL_SERVER_PATTERN,
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'src/auth/**/*.{ts,tsx}', 'src/pages/**/*.{ts,tsx}', 'src/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [LOCAL_SERVER_PATTERN] }] },
  },
  // Workers run without a window: nothing they import, however indirectly, may be React code.
  {
    files: ['src/**/*.worker.ts'],
    plugins: { recertif: { rules: { 'no-react-in-workers': noReactInWorkers } } },
    rules: { 'recertif/no-react-in-workers': ['error', { srcRoot: fileURLToPath(new URL('./src', import.meta.url)) }] },
  },
)
