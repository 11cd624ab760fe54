// Loads a whole catalog, in the change messages of docs/sync.md, into D1: the local one of
// `npm start` or an environment's (docs/sync.md, "Bulk load").
import { join } from 'node:path'
import { fail, parseCommandLine, runScript, usageError, wholeNumber } from './cli'
import type { Target } from './import/host'
import { openHost } from './import/host'
import { importFile } from './import/import-file'
import { BATCH_MESSAGES } from './import/import-lines'
import { environmentOption } from './wrangler-config'

const USAGE = `
npm run import -- --file catalog.ndjson [--local [--persist-to DIR] | --env staging|production]
                  [--resume] [--rejects FILE] [--batch ${BATCH_MESSAGES}]

Reads the file a line at a time, one change message per line (docs/sync.md), and applies the
valid ones in D1 batches, each routed by the environment's layout to control and the shards
(docs/scale.md); a line that is not a valid message goes to the rejects file
(default: the file's name + .rejects.ndjson) with its number and reason. Then each database's
derived stats and the gate are rebuilt once. Running it twice leaves the same tables; --resume
skips the lines every database committed. --local (the default) writes the local D1 of
\`npm start\` (or of \`wrangler dev --persist-to DIR\`); --env writes the environment's real D1
databases and gate through remote bindings (after \`wrangler login\`). Exits 1 when a line was
rejected.
`
const { values } = parseCommandLine(USAGE, {
  file: { type: 'string' },
  local: { type: 'boolean', default: false },
  env: { type: 'string' },
  'persist-to': { type: 'string' },
  resume: { type: 'boolean', default: false },
  rejects: { type: 'string' },
  batch: { type: 'string', default: String(BATCH_MESSAGES) },
})
if (!values.file) usageError('name the catalog with --file catalog.ndjson')
if (values.env && values.local) usageError('name either --local or --env, not both')
if (values.env && values['persist-to']) usageError('--persist-to is for --local imports')
const file = values.file
const target: Target = values.env
  ? { local: false, env: environmentOption(values.env) }
  : {
      local: true,
      ...(values['persist-to'] ? { persistTo: values['persist-to'] } : {}),
    }
const batchMessages = wholeNumber('batch', values.batch, { min: 1, max: 1000 })
const rejectsPath = values.rejects ?? `${file}.rejects.ndjson`

await runScript(async () => {
  const host = await openHost(target)
  let rejected: number
  try {
    const where = target.local
      ? `local D1 (${join(target.persistTo ?? '.wrangler/state', 'v3')})`
      : `env ${target.env}`
    console.log(`import: ${file} into the ${where}`)
    const result = await importFile(host, {
      file,
      rejects: rejectsPath,
      resume: values.resume,
      batchMessages,
    })
    rejected = result.rejected
    const { gateItems, gateBytes } = await host.finish(new Date())
    console.log(
      `import: stats derived, gate rebuilt (${gateItems} slugs, ${(gateBytes / 1024).toFixed(0)} KiB)`,
    )
  } finally {
    await host.dispose()
  }
  if (rejected) fail(`import: ${rejected} lines rejected, each with its reason in ${rejectsPath}`)
})
