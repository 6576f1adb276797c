import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { noReactInWorkers } from '../../../eslint/no-react-in-workers.js'

// A small source tree: one worker entry and the modules it may reach, linted with the rule as eslint.config.js sets it.
let root: string
const src = () => path.join(root, 'src')

function write(file: string, text: string) {
  const full = path.join(src(), file)
  mkdirSync(path.dirname(full), { recursive: true })
  writeFileSync(full, text)
}

async function lintWorker(): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { recertif: { rules: { 'no-react-in-workers': noReactInWorkers } } },
        rules: { 'recertif/no-react-in-workers': ['error', { srcRoot: src() }] },
      },
    ],
  })
  const [result] = await eslint.lintFiles([path.join(src(), 'build.worker.ts')])
  return result!.messages.map((message) => message.message)
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'worker-lint-'))
  write('lib/messages.ts', "export const FALLBACK = 'Une erreur est survenue'\n")
  write('components/ErrorBox.tsx', "import { FALLBACK } from '../lib/messages'\nexport const ErrorBox = () => FALLBACK\n")
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('no-react-in-workers', () => {
  it('reports a component reached through a plain module, with the whole path', async () => {
    write('lib/api-error.ts', "import { ErrorBox } from '@/components/ErrorBox'\nexport const box = ErrorBox\n")
    write('build.worker.ts', "import { box } from './lib/api-error'\nself.postMessage(String(box))\n")
    const [message, ...rest] = await lintWorker()
    expect(rest).toEqual([])
    expect(message).toContain(['build.worker.ts', 'lib/api-error.ts', 'components/ErrorBox.tsx'].join(' → '))
  })

  it('reports a React package imported by a module the worker reaches', async () => {
    write('lib/query.ts', "export { useQuery } from '@tanstack/react-query'\n")
    write('build.worker.ts', "import { useQuery } from './lib/query'\nself.postMessage(typeof useQuery)\n")
    expect(await lintWorker()).toEqual([expect.stringContaining('lib/query.ts → @tanstack/react-query')])
  })

  it('lets a worker import plain modules, and types from anywhere', async () => {
    write('lib/api-error.ts', "import { FALLBACK } from './messages'\nexport const message = FALLBACK\n")
    write('build.worker.ts', "import type { ErrorBox } from './components/ErrorBox'\nimport { message } from './lib/api-error'\nexport type Box = typeof ErrorBox\nself.postMessage(message)\n")
    expect(await lintWorker()).toEqual([])
  })
})
