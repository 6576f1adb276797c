import { DEFAULT_SMTP_PORT, DEFAULT_WEB_PORT, startMailCatcher } from './catcher'

/*
 * `tsx supabase/local/mail/main.ts`: the local mail catcher on the Supabase CLI's ports (SMTP 54325, page 54324),
 * or MAIL_SMTP_PORT / MAIL_WEB_PORT.
 */

function port(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`Invalid ${name}: ${process.env[name]}`)
  return value
}

async function main(): Promise<void> {
  const catcher = await startMailCatcher({ smtpPort: port('MAIL_SMTP_PORT', DEFAULT_SMTP_PORT), webPort: port('MAIL_WEB_PORT', DEFAULT_WEB_PORT) })
  console.info('Recertif local mail catcher')
  console.info(`  SMTP:     ${catcher.smtpUrl}`)
  console.info(`  Messages: ${catcher.webUrl}`)
  console.info('ready')

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.info(`\n${signal}: stopping`)
    await catcher.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
