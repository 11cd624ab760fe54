// Feature flags and configuration in the FLAGS KV namespace, for ops. Wraps `wrangler kv`: the
// local store of `npm start` by default, an environment of wrangler.toml with --env. Every write
// is validated with the worker's own schema first, so a typo never reaches the store.
import { execFileSync } from 'node:child_process'
import type { FlagName } from '../src/flags/definitions'
import { CONFIG_DEFAULTS, FLAG_NAMES, FLAGS } from '../src/flags/definitions'
import type { FlagStore, WriteCommand } from '../src/flags/flag-commands'
import { applyCommand, describeSetting, WRITE_COMMANDS } from '../src/flags/flag-commands'
import type { ChosenVisitor } from '../src/flags/explain-flag'
import { flagForVisitor } from '../src/flags/explain-flag'
import { FLAGS_KEY } from '../src/flags/schema'
import { pageContextOf } from '../src/pages'
import { isDeviceId } from '../src/request/visitor-cookies'
import { normalisedPath } from '../src/urls/normalised-path'
import { fail, parseCommandLine, runScript, usageError } from './cli'
import { environmentOption } from './wrangler-config'

const USAGE = `
npm run flags -- list                      every flag and the configuration, stored or default
npm run flags -- get NAME                  a flag's or configuration key's effective value and its source
npm run flags -- get NAME --url URL [--visitor new|returning --device ID] [--bot]
                                           and the value that visitor gets on that page
npm run flags -- set NAME 'JSON'           a flag document: '{"state":"ENABLED","rules":[{"percentage":20}]}'
npm run flags -- enable NAME | disable NAME    on, or off, for everyone
npm run flags -- unset NAME                back to the documented default
npm run flags -- config KEY 'JSON'         a configuration key

Add --env staging|production for that environment's store (default: the local one of npm start).
Flags: ${FLAG_NAMES.join(', ')}
Configuration keys: ${Object.keys(CONFIG_DEFAULTS).join(', ')}
`
const { values, positionals } = parseCommandLine(
  USAGE,
  {
    env: { type: 'string' },
    url: { type: 'string' },
    visitor: { type: 'string', default: 'new' },
    device: { type: 'string' },
    bot: { type: 'boolean', default: false },
  },
  { positionals: true },
)
const environment = values.env ? environmentOption(values.env) : null
const where = environment ? `${environment} KV` : 'local KV'
const [command = 'list', name = '', value = ''] = positionals
const READ_COMMANDS = ['list', 'get']
if (![...READ_COMMANDS, ...WRITE_COMMANDS].includes(command))
  usageError(`unknown command "${command}"`)
if (command === 'get' && !(FLAG_NAMES as string[]).includes(name) && !(name in CONFIG_DEFAULTS))
  usageError(`"${name}" is neither a flag nor a configuration key`)

/** The page and visitor `get` explains the flag for, when --url is given. */
function askedVisitor(): { path: string; visitor: ChosenVisitor } | null {
  if (values.url === undefined) return null
  if (!(FLAG_NAMES as string[]).includes(name))
    usageError('--url explains a flag: configuration keys are the same for every visitor')
  let path: string
  try {
    path = normalisedPath(new URL(values.url, 'https://any.example').pathname)
  } catch {
    return usageError(`--url "${values.url}" is not a URL or path`)
  }
  if (values.visitor === 'new') return { path, visitor: { kind: 'new', bot: values.bot } }
  if (values.visitor !== 'returning') usageError('--visitor is new or returning')
  const deviceId = (values.device ?? '').toLowerCase()
  if (!isDeviceId(deviceId))
    usageError('--visitor returning needs --device, the care_did cookie of their browser')
  return { path, visitor: { kind: 'returning', deviceId, bot: values.bot } }
}
const asked = command === 'get' ? askedVisitor() : null

function wrangler(...args: string[]): string {
  const target = environment ? ['--env', environment, '--remote'] : ['--local']
  return execFileSync(
    'node_modules/.bin/wrangler',
    ['kv', 'key', ...args, '--binding', 'FLAGS', ...target],
    {
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
}

function read(): FlagStore {
  const text = wrangler('get', FLAGS_KEY).trim()
  if (text === '' || text === 'Value not found') return { flags: {}, config: {} }
  let doc: Partial<FlagStore>
  try {
    doc = JSON.parse(text) as Partial<FlagStore>
  } catch {
    return fail(
      `the flag document in ${where} is not JSON: the worker serves the documented defaults; fix it with "set"`,
    )
  }
  return { flags: doc.flags ?? {}, config: doc.config ?? {} }
}

await runScript(() => {
  const store = read()
  if (command === 'list') {
    for (const flag of FLAG_NAMES) {
      const doc = store.flags[flag]
      console.log(
        `${flag.padEnd(28)} ${doc ? JSON.stringify(doc) : `(documented default: ${FLAGS[flag].default})`}`,
      )
    }
    console.log(`config ${JSON.stringify({ ...CONFIG_DEFAULTS, ...store.config })}`)
  } else if (command === 'get') {
    const setting = describeSetting(store, name)
    if (!setting) return
    console.log(`${name}: ${setting.value}\n  from ${where}: ${setting.source}`)
    if (asked) {
      const { target } = pageContextOf('GET', asked.path)
      const who = `${asked.visitor.kind} ${asked.visitor.bot ? 'crawler' : 'visitor'}`
      const got = flagForVisitor(store, name as FlagName, asked.visitor, target)
      console.log(`  for a ${who} on ${asked.path}: ${got.value} (${got.why})`)
    }
  } else {
    const result = applyCommand(store, command as WriteCommand, name, value)
    if ('error' in result) fail(`refused, nothing written: ${result.error}`)
    wrangler('put', FLAGS_KEY, JSON.stringify(result.store))
    console.log(`written to ${where}; pages show it within a minute`)
  }
})
