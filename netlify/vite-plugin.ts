import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin } from 'vite'
import { createFunctionsMiddleware } from './dev/functions-middleware.js'

export interface NetlifyFunctionsOptions {
  /** The functions folder, relative to Vite's root (default netlify/functions, as in netlify.toml). */
  directory?: string
  /** Defaults for the functions' environment (for example the local SMTP server); a real variable wins. */
  env?: Record<string, string>
}

/**
 * Serves netlify/functions at /.netlify/functions/<name> on `vite` and `vite preview`, so the SPA calls the same
 * URL as in production. Only the default-export (v2) form is supported, without custom `config.path` routes.
 */
export function netlifyFunctions(options: NetlifyFunctionsOptions = {}): Plugin {
  let directory = ''
  return {
    name: 'recertif:netlify-functions',
    configResolved(config) {
      directory = path.resolve(config.root, options.directory ?? 'netlify/functions')
    },
    configureServer(server) {
      // Through Vite's module graph, so an edited function is picked up on the next request.
      server.middlewares.use(createFunctionsMiddleware({ directory, env: options.env, load: (file) => server.ssrLoadModule(file) }))
    },
    configurePreviewServer(server) {
      // The preview server has no TypeScript pipeline of its own: tsx compiles each function once.
      const loaded = new Map<string, Promise<Record<string, unknown>>>()
      const load = (file: string) => {
        let module = loaded.get(file)
        if (!module) {
          module = import('tsx/esm/api').then(({ tsImport }) => tsImport(pathToFileURL(file).href, import.meta.url) as Promise<Record<string, unknown>>)
          loaded.set(file, module)
        }
        return module
      }
      server.middlewares.use(createFunctionsMiddleware({ directory, env: options.env, load }))
    },
  }
}
