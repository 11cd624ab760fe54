// Feature flags and configuration in the FLAGS KV namespace, for ops. Wraps `wrangler kv`: the
// local store of `npm start` by default, production with --remote. Every write is validated
// with the worker's own schema first, so a typo never reaches the store.
//
//   npm run flags -- list [--remote]
//   npm run flags -- get NAME [--remote]
//   npm run flags -- set NAME '{"state":"ENABLED","rules":[{"percentage":20}]}' [--remote]
//   npm run flags -- enable NAME | disable NAME | unset NAME [--remote]
//     enable: on for everyone; disable: off for everyone (both whatever the documented default);
//     unset: back to the documented default
//   npm run flags -- config KEY 'json value' [--remote]
import { execFileSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { CONFIG_DEFAULTS, FLAG_NAMES, FLAGS } from '../src/flags/definitions'
import type { FlagStore, WriteCommand } from '../src/flags/flag-commands'
import { applyCommand, WRITE_COMMANDS } from '../src/flags/flag-commands'
import { FLAGS_KEY } from '../src/flags/schema'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { remote: { type: 'boolean', default: false } },
})
const where = values.remote ? '--remote' : '--local'
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const [command = 'list', name = '', value = ''] = positionals

function wrangler(...args: string[]): string {
  return execFileSync(
    'node_modules/.bin/wrangler',
    ['kv', 'key', ...args, '--binding', 'FLAGS', where],
    {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
}

function read(): FlagStore {
  const text = wrangler('get', FLAGS_KEY).trim()
  if (text === '' || text === 'Value not found') return { flags: {}, config: {} }
  const doc = JSON.parse(text) as Partial<FlagStore>
  return { flags: doc.flags ?? {}, config: doc.config ?? {} }
}

function write(next: FlagStore): void {
  wrangler('put', FLAGS_KEY, JSON.stringify(next))
  console.log(
    `written to ${values.remote ? 'production' : 'local'} KV; pages show it within a minute`,
  )
}

const store = read()
if (command === 'list') {
  for (const flag of FLAG_NAMES) {
    const doc = store.flags[flag]
    console.log(
      `${flag.padEnd(28)} ${doc ? JSON.stringify(doc) : `(documented default: ${FLAGS[flag].default})`}`,
    )
  }
  console.log(`config ${JSON.stringify({ ...CONFIG_DEFAULTS, ...store.config })}`)
} else if (command === 'get' && (FLAG_NAMES as string[]).includes(name)) {
  console.log(JSON.stringify(store.flags[name] ?? null, null, 2))
} else if ((WRITE_COMMANDS as string[]).includes(command)) {
  const result = applyCommand(store, command as WriteCommand, name, value)
  if ('error' in result) {
    console.error(`refused, nothing written: ${result.error}`)
    process.exit(1)
  }
  write(result.store)
} else {
  console.error(
    'commands: list, get NAME, set NAME JSON, enable NAME, disable NAME, unset NAME, config KEY JSON',
  )
  process.exit(1)
}
