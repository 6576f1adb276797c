/**
 * A web worker has no window and no DOM, and the dev server instruments every React component with Fast Refresh code
 * that reads `window`: a worker that reaches a component, however indirectly, dies under `npm start` alone. This rule,
 * on a worker's entry file, follows its value imports (relative and `@/`) through the sources and reports the first
 * React module or component file on each path.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const REACT_PACKAGE = /^(react|react-dom|react-router-dom|lucide-react|recharts|@tanstack\/react-query)(\/|$)/
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx']

/** The value imports and re-exports of a file (type-only ones vanish from the bundle and are left out). */
function valueImports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  const specifiers = []
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue
      specifiers.push(statement.moduleSpecifier.text)
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push(statement.moduleSpecifier.text)
    }
  }
  return specifiers
}

function resolveSource(specifier, fromFile, srcRoot) {
  const base = specifier.startsWith('@/')
    ? path.join(srcRoot, specifier.slice(2))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(fromFile), specifier)
      : null
  if (!base) return null
  if (/\.tsx?$/.test(base) && existsSync(base)) return base
  return EXTENSIONS.map((extension) => base + extension).find((candidate) => existsSync(candidate)) ?? null
}

/** The chain of files from the entry to the first React dependency, or null when there is none. */
export function reactChain(entry, srcRoot) {
  const seen = new Set([entry])
  const queue = [[entry]]
  while (queue.length > 0) {
    const chain = queue.shift()
    const file = chain[chain.length - 1]
    if (file.endsWith('.tsx')) return chain
    for (const specifier of valueImports(file)) {
      if (REACT_PACKAGE.test(specifier)) return [...chain, specifier]
      const next = resolveSource(specifier, file, srcRoot)
      if (next && !seen.has(next)) {
        seen.add(next)
        queue.push([...chain, next])
      }
    }
  }
  return null
}

export const noReactInWorkers = {
  meta: {
    type: 'problem',
    docs: { description: 'A web worker entry imports no React code, directly or through what it imports.' },
    schema: [{ type: 'object', properties: { srcRoot: { type: 'string' } }, required: ['srcRoot'], additionalProperties: false }],
  },
  create(context) {
    const { srcRoot } = context.options[0]
    return {
      Program(node) {
        const chain = reactChain(context.filename, srcRoot)
        if (!chain) return
        const shown = chain.map((step) => (path.isAbsolute(step) ? path.relative(srcRoot, step) : step)).join(' → ')
        context.report({
          node,
          message: `A worker must not reach React code (the dev server's Fast Refresh needs a window): ${shown}`,
        })
      },
    }
  },
}
