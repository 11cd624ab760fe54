// Loads a whole catalog, in the change messages of docs/sync.md, into D1: the local one of
// `npm start` or an environment's (docs/sync.md, "Bulk load").
import { join } from 'node:path'
import { fail, parseCommandLine, runScript, usageError, wholeNumber } from './cli'
import type { ImportHost, Target } from './import/host'
import { openHost } from './import/host'
import { importFile } from './import/import-file'
import { BATCH_MESSAGES } from './import/import-lines'
import { environmentOption } from './wrangler-config'
import { layoutNamed } from '../src/catalog/placement'

/** A replay's batch: the queue consumer's largest (wrangler.toml's max_batch_size). */
const REPLAY_MESSAGES = 100

const USAGE = `
npm run import -- --file catalog.ndjson [--local [--persist-to DIR] [--layout NAME] | --env staging|production]
                  [--resume | --replay] [--rejects FILE] [--batch ${BATCH_MESSAGES}]

Reads the file a line at a time, one change message per line (docs/sync.md), and applies the
valid ones in D1 batches, each routed by the environment's layout to control and the shards
(docs/scale.md); a line that is not a valid message goes to the rejects file
(default: the file's name + .rejects.ndjson) with its number and reason. Then each database's
derived stats and the gate are rebuilt once. Running it twice leaves the same tables; --resume
skips the lines every database committed. --local (the default) writes the local D1 of
\`npm start\` (or of \`wrangler dev --persist-to DIR\`), routed by wrangler.toml's layout or the
one --layout names (src/catalog/placement.ts); --env writes the environment's real D1
databases and gate through remote bindings (after \`wrangler login\`). Exits 1 when a line was
rejected.

--replay applies the file's messages as the queue consumer does, ${REPLAY_MESSAGES} a batch (a
re-pack's changes since the export: docs/scale.md, "Adding a shard"): a provider or job that
changed city is moved, stats, directory and purges follow each batch, and a message whose
version the databases already hold changes nothing, so a replay is run again from the top
rather than resumed.
`
const { values } = parseCommandLine(USAGE, {
  file: { type: 'string' },
  local: { type: 'boolean', default: false },
  env: { type: 'string' },
  'persist-to': { type: 'string' },
  layout: { type: 'string' },
  resume: { type: 'boolean', default: false },
  replay: { type: 'boolean', default: false },
  rejects: { type: 'string' },
  batch: { type: 'string' },
})
if (!values.file) usageError('name the catalog with --file catalog.ndjson')
if (values.env && values.local) usageError('name either --local or --env, not both')
if (values.env && values['persist-to']) usageError('--persist-to is for --local imports')
if (values.env && values.layout)
  usageError(
    '--layout is for --local imports: an environment imports into the layout and databases its wrangler.toml section names (docs/scale.md, "Adding a shard")',
  )
if (values.replay && values.resume)
  usageError('--replay is not resumed: run it again from the top (versions make repeats no-ops)')
const file = values.file
const target: Target = values.env
  ? { local: false, env: environmentOption(values.env) }
  : {
      local: true,
      ...(values['persist-to'] ? { persistTo: values['persist-to'] } : {}),
      ...(values.layout ? { layout: localLayoutOption(values.layout) } : {}),
    }
const batchMessages = wholeNumber(
  'batch',
  values.batch ?? String(values.replay ? REPLAY_MESSAGES : BATCH_MESSAGES),
  { min: 1, max: values.replay ? REPLAY_MESSAGES : 1000 },
)
const rejectsPath = values.rejects ?? `${file}.rejects.ndjson`

/** The layout `name` for a local import (the host binds and migrates each of its shards). */
function localLayoutOption(name: string): string {
  if (!layoutNamed(name))
    usageError(`--layout names no layout of src/catalog/placement.ts: "${name}"`)
  return name
}

/** The file's batches applied as the consumer applies them, with no checkpoint and no end. */
function replayed(host: ImportHost): Parameters<typeof importFile>[0] {
  return {
    apply: (items) => host.replay(items),
    answers: () => host.answers(),
    checkpoint: () => Promise.resolve(null),
  }
}

await runScript(async () => {
  const host = await openHost(target)
  let rejected: number
  try {
    const where = target.local
      ? `local D1 (${join(target.persistTo ?? '.wrangler/state', 'v3')})`
      : `env ${target.env}`
    const options = { file, rejects: rejectsPath, resume: values.resume, batchMessages }
    if (values.replay) {
      console.log(`import: ${file} replayed into the ${where}`)
      rejected = (await importFile(replayed(host), { ...options, label: 'replay' })).rejected
    } else {
      console.log(`import: ${file} into the ${where}`)
      rejected = (await importFile(host, options)).rejected
      const { gateItems, gateBytes } = await host.finish(new Date())
      console.log(
        `import: stats derived, gate rebuilt (${gateItems} slugs, ${(gateBytes / 1024).toFixed(0)} KiB)`,
      )
    }
  } finally {
    await host.dispose()
  }
  if (rejected) fail(`import: ${rejected} lines rejected, each with its reason in ${rejectsPath}`)
})
