// Seeds the local D1 (and the gate in local KV) for `npm start`, idempotently. Nothing happens
// when the catalog already matches the migrations, the generator and the options and was seeded
// within the last few days; a change to any of them, or an older catalog (its jobs closing, its
// activities ending), reseeds.
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fail, parseCommandLine, usageError, wholeNumber } from './cli'
import type { ImportHost } from './import/host'
import { openHost } from './import/host'
import { importStream } from './import/import-file'
import { openRejects } from './import/rejects'
import { seedVerdict } from './seed/freshness'
import { LARGE } from './seed/generate-catalog'
import { generateInThread } from './seed/generate-thread'
import { insertStatements } from './seed/sql'
import { zipRows } from './seed/zips'
import { LAYOUTS, layoutNamed } from '../src/catalog/placement'

const USAGE = `
npm run seed -- [--scale 1] [--cities 400] [--seed 1] [--persist-to DIR] [--force]
npm run seed -- --large --persist-to DIR      every US place (16,442), about a million providers
npm run seed -- --layout eight --persist-to DIR   control and the shards of another layout

Applies the migrations to the local D1 (wrangler d1 migrations apply --local), then, unless the
catalog is up to date, writes a generated catalog as change messages (DIR/catalog.ndjson) and
loads it with the import of \`npm run import\`, which derives the stats and builds the gate.
--persist-to names the folder \`wrangler dev --persist-to\` uses (default: .wrangler/state).
--layout places the catalog by a layout of src/catalog/placement.ts other than wrangler.toml's
(the bench's one- and eight-shard catalogs), every shard it names bound and migrated.
`
const { values: args } = parseCommandLine(USAGE, {
  scale: { type: 'string', default: '1' },
  cities: { type: 'string', default: '400' },
  seed: { type: 'string', default: '1' },
  'persist-to': { type: 'string' },
  force: { type: 'boolean', default: false },
  large: { type: 'boolean', default: false },
  layout: { type: 'string' },
})
if (args.layout !== undefined && !layoutNamed(args.layout))
  usageError(`--layout takes one of ${Object.keys(LAYOUTS).join(', ')}: got "${args.layout}"`)
const scale = Number(args.scale)
if (!(scale > 0 && scale <= 10))
  usageError(`--scale takes a number above 0, at most 10: got "${args.scale}"`)
const options = {
  scale: args.large ? LARGE.scale : scale,
  cities: args.large ? LARGE.cities : wholeNumber('cities', args.cities, { min: 20 }),
  seed: wholeNumber('seed', args.seed),
}

const persistTo = args['persist-to'] ?? '.wrangler/state'
const host = await openHost({
  local: true,
  persistTo,
  ...(args.layout ? { layout: args.layout } : {}),
})
try {
  // A catalog placed by another layout is another catalog: a change of layout seeds again.
  const version = await seedVersion({ ...options, ...(args.layout ? { layout: args.layout } : {}) })
  const meta = await host.query<{ key: string; value: string }>(
    "SELECT key, value FROM catalog_meta WHERE key IN ('seed_version', 'seeded_at')",
  )
  const stored = (key: string) => meta.find((r) => r.key === key)?.value ?? null
  const verdict = seedVerdict(
    { version: stored('seed_version'), seededAt: stored('seeded_at') },
    version,
    new Date(),
    args.force,
  )
  if (!verdict.seed) {
    console.log('catalog: up to date')
    const rebuilt = await host.gate(new Date(), { ifMissing: true })
    if (rebuilt) showGate(rebuilt)
  } else {
    console.log(`catalog: seeding (${verdict.reason})`)
    await seed(host, options, version)
  }
} finally {
  await host.dispose()
}

async function seed(host: ImportHost, opts: typeof options, version: string): Promise<void> {
  const started = Date.now()
  // The seed replaces the catalog: control's catalog tables and every shard emptied, their
  // schema kept (the city log restarts with the catalog, its numbers never do); the gate is
  // rebuilt after the import.
  await host.wipeSharded()
  const now = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z')
  // Every US ZIP code, for the search form: not catalog data, so not a change message; control's
  // table (docs/scale.md).
  for (const sql of insertStatements('zip_codes', zipRows())) await host.query(sql)
  const file = join(persistTo, 'catalog.ndjson')
  await mkdir(persistTo, { recursive: true })
  // The import takes each line as it is generated and written: D1 applies one batch while the
  // next is validated here and the one after generated in a thread of its own, instead of
  // waiting for the whole file. Nothing resumes a seed, so no checkpoint.
  const catalog = generateInThread({ ...opts, now: now.toISOString(), file })
  const result = await importStream(host, {
    lines: catalog.lines,
    file: null,
    rejects: openRejects(`${file}.rejects.ndjson`),
    total: catalog.total,
    label: 'seed: import',
  })
  if (result.rejected)
    fail(`seed: the import rejected ${result.rejected} generated messages (${file}.rejects.ndjson)`)
  console.log(`seed: ${result.read} messages written to ${file}`)
  // The catalog is dated from midnight, but its open jobs are counted as of this moment: job
  // listings decide thinness on their live count, and the stats that sitemaps and links read
  // must agree with it (the cron keeps them so in production).
  showGate(await host.finish(new Date()))
  await host.query(
    "INSERT INTO catalog_meta (key, value) VALUES ('seed_version', ?), ('seeded_at', ?)",
    version,
    now.toISOString(),
  )
  console.log(
    `seed: ${result.applied} messages imported in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
}

function showGate({ gateItems, gateBytes }: { gateItems: number; gateBytes: number }): void {
  console.log(`gate: ${gateItems} slugs, ${(gateBytes / 1024).toFixed(0)} KiB`)
}

/** A hash of everything that shapes the seeded data. */
async function seedVersion(opts: typeof options & { layout?: string }): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(opts))
  // Every file under them, the migrations' folders (control, catalog) and the import included.
  for (const dir of ['migrations', 'scripts/seed', 'scripts/import', 'src/catalog']) {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true })
    const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
    for (const file of files.sort()) hash.update(file).update(await readFile(file))
  }
  return hash.digest('hex').slice(0, 16)
}
