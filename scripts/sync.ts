// The catalog sync's dead letters (docs/sync.md): the messages the queue gave up on, with why,
// and sending them back once their cause is fixed.
import { OPS_CATALOG_REPLAY } from '../src/urls/paths'
import type { DeadRow } from '../src/sync/dead-letters'
import { deadLetter, OPEN_DEAD_SQL } from '../src/sync/dead-letters'
import { fail, originOption, parseCommandLine, runScript, usageError, wholeNumber } from './cli'
import type { ImportHost, Target } from './import/host'
import { openHost } from './import/host'
import { deployTarget, environmentOption } from './wrangler-config'

const USAGE = `
npm run sync -- dead [--limit 50] [--env staging|production | --persist-to DIR]
npm run sync -- replay [--id N]... [--env staging|production | --origin URL] [--persist-to DIR]

dead: the messages the catalog queue dead-lettered after their retries, oldest first, each with
its reason. replay: asks the worker (POST ${OPS_CATALOG_REPLAY} of the local server,
http://localhost:8787, of an environment with --env and SYNC_TOKEN set, or of --origin) to send
them (those not yet replayed, or the --id ones) back to its queue and mark them replayed. A
replayed message is applied only if it is still the newest version of its entity.
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

await runScript(async () => {
  if (command === 'replay') return replay()
  const host = await openHost(target)
  try {
    await listDead(host)
  } finally {
    await host.dispose()
  }
}, origin)

async function listDead(host: ImportHost): Promise<void> {
  const results = await host.queryOn<DeadRow>('CONTROL', OPEN_DEAD_SQL, limit)
  if (!results.length) {
    console.log('no dead-lettered messages')
    return
  }
  for (const dead of results.map(deadLetter))
    console.log(
      `#${dead.id} ${dead.at} ${dead.kind} ${dead.entity} v${dead.version}: ${dead.reason}`,
    )
  console.log(`${results.length} dead-lettered; \`npm run sync -- replay\` sends them back`)
}

interface ReplayAnswer {
  replayed?: number[]
  refused?: { id: number; reasons: string[] }[]
  remaining?: number
  missing?: number[]
  error?: string
}

/** Asks the worker to replay (POST OPS_CATALOG_REPLAY), the open ones until none is left. */
async function replay(): Promise<void> {
  const token = process.env.SYNC_TOKEN ?? (origin === DEV_ORIGIN ? DEV_TOKEN : undefined)
  if (!token) fail(`set SYNC_TOKEN to send messages to ${origin}`)
  let replayed = 0
  const invalid: string[] = []
  for (;;) {
    const res = await fetch(new URL(OPS_CATALOG_REPLAY, origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(ids.length ? { ids } : {}),
    })
    const answer = (await res.json().catch(() => ({}))) as ReplayAnswer
    if (answer.missing) fail(`no dead-lettered message #${answer.missing.join(', #')}`)
    if (res.status !== 200)
      fail(`${origin} refused the replay: ${res.status} ${answer.error ?? ''}`.trim())
    replayed += answer.replayed?.length ?? 0
    for (const r of answer.refused ?? []) invalid.push(`#${r.id}: ${r.reasons.join('; ')}`)
    // One request for named ids; the open ones in rounds while a round sends something back.
    if (ids.length || !answer.replayed?.length || !answer.remaining) break
  }
  for (const line of invalid) console.log(`still invalid, left dead: ${line}`)
  console.log(replayed ? `replayed ${replayed} messages through ${origin}` : 'nothing to replay')
}
