import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'

const root = fileURLToPath(new URL('.', import.meta.url))
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

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
  // Boundaries: imports are resolved to files (the '@/…' alias and relative paths alike) and checked by folder.
  // No feature imports another: data several features show is a feature of its own, and the routes (src/app/routes)
  // compose features, passing one's component to another as a prop or slot (<ProfilePage rights={<PersonRights />} />).
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ alias: { '@': [`${root}src`] }, extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'A feature does not import another: compose them in src/app/routes (props or slots).',
            })),
            {
              target: ['./src/features', './src/components', './src/lib'],
              from: './src/app',
              message: 'src/app depends on features, components and lib, never the other way round.',
            },
            {
              target: './src',
              from: './supabase/local',
              message: 'The app talks to the local server through the Supabase API only, never by importing it.',
            },
          ],
        },
      ],
    },
  },
)
