// The catalog sync's dead letters (docs/sync.md): the messages the queue gave up on, with why,
// and sending them back once their cause is fixed.
import { OPS_CATALOG } from '../src/urls/paths'
import { MAX_MESSAGES } from '../src/sync/messages'
import { fail, originOption, parseCommandLine, runScript, usageError, wholeNumber } from './cli'
import type { ImportHost, Target } from './import/host'
import { openHost } from './import/host'
import { deployTarget, environmentOption } from './wrangler-config'

const USAGE = `
npm run sync -- dead [--limit 50] [--env staging|production | --persist-to DIR]
npm run sync -- replay [--id N]... [--env staging|production | --origin URL] [--persist-to DIR]

dead: the messages the catalog queue dead-lettered after their retries, oldest first, each with
its reason. replay: sends them (those not yet replayed, or the --id ones) back through
POST ${OPS_CATALOG} of the local server (http://localhost:8787), of an environment (--env,
with SYNC_TOKEN set) or of --origin, then marks them replayed. A replayed message is applied
only if it is still the newest version of its entity.
`
const DEV_ORIGIN = 'http://localhost:8787'
const DEV_TOKEN = 'dev-sync-token'

const { values, positionals } = parseCommandLine(
  USAGE,
  {
    limit: { type: 'string', default: '50' },
    id: { type: 'string', multiple: true, default: [] },
    env: { type: 'string' },
    origin: { type: 'string' },
    'persist-to': { type: 'string' },
  },
  { positionals: true },
)
const [command, ...rest] = positionals
if (command !== 'dead' && command !== 'replay')
  usageError(`name a command, dead or replay: got "${command ?? ''}"`)
if (rest.length) usageError(`unexpected argument "${rest[0]}"`)
if (values.env && (values.origin || values['persist-to']))
  usageError('--env names the environment: no --origin or --persist-to with it')
const environment = values.env ? environmentOption(values.env) : null
const target: Target = environment
  ? { local: false, env: environment }
  : { local: true, ...(values['persist-to'] ? { persistTo: values['persist-to'] } : {}) }
const origin = environment
  ? deployTarget(environment).origin
  : originOption('origin', values.origin ?? DEV_ORIGIN)
const ids = values.id.map((id) => wholeNumber('id', id, { min: 1 }))
const limit = wholeNumber('limit', values.limit, { min: 1, max: 10_000 })

interface Dead {
  id: number
  at: number
  message: string
  reason: string
  replayed_at: number | null
}

await runScript(async () => {
  const host = await openHost(target)
  try {
    if (command === 'dead') await listDead(host)
    else await replay(host)
  } finally {
    await host.dispose()
  }
}, origin)

async function listDead(host: ImportHost): Promise<void> {
  const results = await host.query<Dead>(
    'SELECT * FROM sync_dead WHERE replayed_at IS NULL ORDER BY id LIMIT ?',
    limit,
  )
  if (!results.length) {
    console.log('no dead-lettered messages')
    return
  }
  for (const dead of results) {
    const {
      kind = '?',
      id = '?',
      version = '?',
    } = JSON.parse(dead.message) as Record<string, unknown>
    console.log(
      `#${dead.id} ${new Date(dead.at).toISOString()} ${String(kind)} ${String(id)} ` +
        `v${String(version)}: ${dead.reason}`,
    )
  }
  console.log(`${results.length} dead-lettered; \`npm run sync -- replay\` sends them back`)
}

async function replay(host: ImportHost): Promise<void> {
  const token = process.env.SYNC_TOKEN ?? (origin === DEV_ORIGIN ? DEV_TOKEN : undefined)
  if (!token) fail(`set SYNC_TOKEN to send messages to ${origin}`)
  const results = ids.length
    ? await host.query<Dead>(
        'SELECT * FROM sync_dead WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
        JSON.stringify(ids),
      )
    : await host.query<Dead>('SELECT * FROM sync_dead WHERE replayed_at IS NULL ORDER BY id')
  const missing = ids.filter((id) => !results.some((r) => r.id === id))
  if (missing.length) fail(`no dead-lettered message #${missing.join(', #')}`)
  if (!results.length) {
    console.log('nothing to replay')
    return
  }
  for (let i = 0; i < results.length; i += MAX_MESSAGES) {
    const chunk = results.slice(i, i + MAX_MESSAGES)
    const res = await fetch(new URL(OPS_CATALOG, origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `[${chunk.map((d) => d.message).join(',')}]`,
    })
    if (res.status !== 202)
      fail(`${origin} refused the replay: ${res.status} ${(await res.text()).slice(0, 300)}`)
    await host.query(
      'UPDATE sync_dead SET replayed_at = ? WHERE id IN (SELECT value FROM json_each(?))',
      Date.now(),
      JSON.stringify(chunk.map((d) => d.id)),
    )
  }
  console.log(`replayed ${results.length} messages through ${origin}`)
}
