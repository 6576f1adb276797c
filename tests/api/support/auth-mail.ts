import { afterAll, beforeAll } from 'vitest'
import type { ServerConfig } from '../../../supabase/local/context'
import { startMailCatcher, type MailCatcher } from '../../../supabase/local/mail/catcher'
import { startRestBackend, type RestBackend } from './rest'

/**
 * A test file's own backend whose auth API mails a real mail catcher and reads a clock the file moves, so that links
 * expire without waiting; started and stopped by the file's hooks. `address` gives a fresh address per call, so one
 * test's mails and e-mail limits never meet another's.
 */
export function authBackendWithMail(domain: string, config: Partial<ServerConfig>) {
  let now = new Date()
  let nextAddress = 0
  let backend: RestBackend | undefined
  let catcher: MailCatcher | undefined
  beforeAll(async () => {
    catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 })
    // Far more than a project's 2 e-mails an hour go out here: that limit has tests of its own (auth-limits.test.ts).
    backend = await startRestBackend(undefined, { smtpUrl: catcher.smtpUrl, now: () => now, authRateLimits: { emailSent: 0 }, ...config })
  })
  afterAll(async () => {
    await backend?.close()
    await catcher?.close()
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The backend is started by the hooks of the test file.')
    return value
  }
  return {
    get backend() {
      return started(backend)
    },
    get catcher() {
      return started(catcher)
    },
    get now() {
      return now
    },
    address: (label: string) => `${label}.${++nextAddress}@${domain}`,
    advance: (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000)
    },
  }
}
