import { parseArgs } from 'node:util'
import { HELP, loadConfig } from './config'
import { runSync } from './run'

/** `npm run sync -- --config sync.json [--apply]`: one run of the directory connector (docs/ldap-connector.md). */
async function main(): Promise<number> {
  let args
  try {
    args = parseArgs({ options: { config: { type: 'string' }, apply: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } })
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`)
    return 2
  }
  if (args.values.help) {
    console.info(HELP)
    return 0
  }
  if (!args.values.config) {
    console.error(`Indiquez le fichier de configuration : --config sync.json\n\n${HELP}`)
    return 2
  }
  const config = await loadConfig(args.values.config)
  const result = await runSync(config, { apply: args.values.apply, env: process.env, log: (line) => console.info(line) })
  return result.removals.some((removal) => removal.outcome === 'failed') ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  },
)
