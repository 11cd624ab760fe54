// Feature flags and configuration in the FLAGS KV namespace, for ops. Wraps `wrangler kv`: the
// local store of `npm start` by default, production with --remote. Every write is validated
// with the worker's own schema first, so a typo never reaches the store.
//
//   npm run flags -- list [--remote]
//   npm run flags -- get NAME [--remote]
//   npm run flags -- set NAME '{"state":"ENABLED","rules":[{"percentage":20}]}' [--remote]
//   npm run flags -- enable NAME | disable NAME | unset NAME [--remote]
//   npm run flags -- config KEY 'json value' [--remote]
import { execFileSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import type { FlagName } from '../src/flags/definitions'
import { CONFIG_DEFAULTS, FLAG_NAMES, FLAGS } from '../src/flags/definitions'
import { parseFlagSet } from '../src/flags/flag-set'
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

interface Store {
  flags: Record<string, unknown>
  config: Record<string, unknown>
}

function read(): Store {
  const text = wrangler('get', FLAGS_KEY).trim()
  if (text === '' || text === 'Value not found') return { flags: {}, config: {} }
  const doc = JSON.parse(text) as Partial<Store>
  return { flags: doc.flags ?? {}, config: doc.config ?? {} }
}

function write(store: Store): void {
  const { problems } = parseFlagSet(store)
  if (problems.length) {
    console.error(`refused, nothing written:\n- ${problems.join('\n- ')}`)
    process.exit(1)
  }
  wrangler('put', FLAGS_KEY, JSON.stringify(store))
  console.log(
    `written to ${values.remote ? 'production' : 'local'} KV; pages show it within a minute`,
  )
}

function flagName(): FlagName {
  if (!(FLAG_NAMES as string[]).includes(name)) {
    console.error(`unknown flag "${name}"; flags: ${FLAG_NAMES.join(', ')}`)
    process.exit(1)
  }
  return name as FlagName
}

const store = read()
switch (command) {
  case 'list':
    for (const flag of FLAG_NAMES) {
      const doc = store.flags[flag]
      console.log(
        `${flag.padEnd(28)} ${doc ? JSON.stringify(doc) : `(documented default: ${FLAGS[flag].default})`}`,
      )
    }
    console.log(`config ${JSON.stringify({ ...CONFIG_DEFAULTS, ...store.config })}`)
    break
  case 'get':
    console.log(JSON.stringify(store.flags[flagName()] ?? null, null, 2))
    break
  case 'set':
    store.flags[flagName()] = JSON.parse(value) as unknown
    write(store)
    break
  case 'enable':
  case 'disable':
    store.flags[flagName()] = { state: command === 'enable' ? 'ENABLED' : 'DISABLED' }
    write(store)
    break
  case 'unset':
    delete store.flags[flagName()]
    write(store)
    break
  case 'config':
    store.config[name] = JSON.parse(value) as unknown
    write(store)
    break
  default:
    console.error(
      'commands: list, get NAME, set NAME JSON, enable NAME, disable NAME, unset NAME, config KEY JSON',
    )
    process.exit(1)
}
