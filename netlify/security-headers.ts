import type { Plugin } from 'vite'

/**
 * The Content-Security-Policy needs the Supabase project's URL, which only the build environment knows
 * (VITE_SUPABASE_URL, the variable the SPA itself is built with). netlify.toml cannot read variables in its
 * [[headers]], so this plugin writes the policy to dist/_headers at build time; Netlify merges that file with the
 * netlify.toml headers, which carry everything that does not depend on the deployment.
 */
function contentSecurityPolicy(supabaseUrl: string | undefined): string {
  const api = supabaseUrl ? new URL(supabaseUrl) : undefined
  const realtime = api ? `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}` : undefined
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Tailwind is compiled to a stylesheet; React sets style properties through the DOM, which CSP allows.
    "style-src 'self'",
    "img-src 'self' data:",
    ['connect-src', "'self'", api?.origin, realtime].filter(Boolean).join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    // Google sign-in is a top-level navigation to Supabase's /auth/v1/authorize, not a form post or a frame.
    "form-action 'self'",
    "frame-ancestors 'none'",
    'upgrade-insecure-requests',
  ].join('; ')
}

export function netlifySecurityHeaders(): Plugin {
  let supabaseUrl: string | undefined
  return {
    name: 'recertif:netlify-security-headers',
    apply: 'build',
    configResolved(config) {
      supabaseUrl = (config.env.VITE_SUPABASE_URL as string | undefined)?.trim() || undefined
    },
    generateBundle() {
      // Production builds without the URL are refused earlier (vite.config.ts); a local-server build may lack it.
      if (!supabaseUrl) this.warn('VITE_SUPABASE_URL is not set: the Content-Security-Policy in dist/_headers allows no Supabase project')
      this.emitFile({
        type: 'asset',
        fileName: '_headers',
        source: `# Written by netlify/security-headers.ts at build time; the other headers are in netlify.toml.\n/*\n  Content-Security-Policy: ${contentSecurityPolicy(supabaseUrl)}\n`,
      })
    },
  }
}
