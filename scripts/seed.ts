// Seeds the local D1 (and the gate in local KV) for `npm start`, idempotently. Nothing happens
// when the catalog already matches the migrations, the generator and the options and was seeded
// within the last few days; a change to any of them, or an older catalog (its jobs closing, its
// activities ending), reseeds.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getPlatformProxy } from 'wrangler'
import { refreshStats } from '../src/data/refresh-stats'
import { buildGate } from '../src/gate/build-gate'
import { readGate, saveGate } from '../src/gate/gate-store'
import { fail, parseCommandLine, usageError, wholeNumber } from './cli'
import { progress } from './progress'
import { seedVerdict } from './seed/freshness'
import { TABLES } from './seed/city-rows'
import { generateCatalog, LARGE } from './seed/generate-catalog'
import { catalogPlaces } from './seed/places'
import { insertStatements } from './seed/sql'
import { zipRows } from './seed/zips'

const USAGE = `
npm run seed -- [--scale 1] [--cities 400] [--seed 1] [--persist-to DIR] [--force]
npm run seed -- --large --persist-to DIR      every US place (16,442), about a million providers

Applies the migrations to the local D1 (wrangler d1 migrations apply --local), then seeds it
with a generated catalog and builds the gate, unless the catalog is up to date. --persist-to
names the folder \`wrangler dev --persist-to\` uses (default: .wrangler/state).
`
const { values: args } = parseCommandLine(USAGE, {
  scale: { type: 'string', default: '1' },
  cities: { type: 'string', default: '400' },
  seed: { type: 'string', default: '1' },
  'persist-to': { type: 'string' },
  force: { type: 'boolean', default: false },
  large: { type: 'boolean', default: false },
})
const scale = Number(args.scale)
if (!(scale > 0 && scale <= 10))
  usageError(`--scale takes a number above 0, at most 10: got "${args.scale}"`)
const options = {
  scale: args.large ? LARGE.scale : scale,
  cities: args.large ? LARGE.cities : wholeNumber('cities', args.cities, { min: 20 }),
  seed: wholeNumber('seed', args.seed),
}

// The migrations, by wrangler itself (it records them in d1_migrations, as a remote apply does).
try {
  execFileSync(
    'node_modules/.bin/wrangler',
    [
      ...['d1', 'migrations', 'apply', 'DB', '--local'],
      ...(args['persist-to'] ? ['--persist-to', args['persist-to']] : []),
    ],
    {
      env: {
        ...process.env,
        CI: 'true', // no confirmation prompt
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_SEND_METRICS: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
} catch {
  fail('seed: the migrations could not be applied (wrangler says why above)')
}

// `wrangler dev --persist-to DIR` keeps its state in DIR/v3; the proxy takes that folder itself.
const persist = args['persist-to'] ? { path: join(args['persist-to'], 'v3') } : true
const { env, dispose } = await getPlatformProxy<Env>({ persist })
try {
  const version = await seedVersion(options)
  const meta = await env.DB.prepare(
    "SELECT key, value FROM catalog_meta WHERE key IN ('seed_version', 'seeded_at')",
  ).all<{ key: string; value: string }>()
  const stored = (key: string) => meta.results.find((r) => r.key === key)?.value ?? null
  const verdict = seedVerdict(
    { version: stored('seed_version'), seededAt: stored('seeded_at') },
    version,
    new Date(),
    args.force,
  )
  if (!verdict.seed) {
    console.log('catalog: up to date')
    if (!(await readGate(env.GATE))) await rebuildGate(env)
  } else {
    console.log(`catalog: seeding (${verdict.reason})`)
    await seed(env, options, version)
  }
} finally {
  await dispose()
}

async function seed(env: Env, opts: typeof options, version: string): Promise<void> {
  const started = Date.now()
  // Derived tables first, then the catalog's own, children before parents. The city log
  // restarts with the catalog (its numbers never do), and the gate is rebuilt after the seed.
  for (const table of [
    'catalog_meta',
    'city_additions',
    'service_city_stats',
    'job_city_stats',
    'rate_experience_stats',
    'zip_codes',
    ...[...TABLES].reverse(),
  ]) {
    await env.DB.exec(`DELETE FROM ${table}`)
  }
  const places = catalogPlaces(opts.cities)
  const now = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z')
  const totals = {
    cities: 0,
    providers: 0,
    provider_services: 0,
    reviews: 0,
    jobs: 0,
    activities: 0,
  }
  const shown = progress('seed')
  let batch: D1PreparedStatement[] = []
  const flush = async () => {
    if (batch.length) await env.DB.batch(batch)
    batch = []
  }
  for (const rows of generateCatalog(places, { scale: opts.scale, seed: opts.seed, now })) {
    for (const table of TABLES) {
      totals[table] += rows[table].length
      for (const sql of insertStatements(table, rows[table])) {
        batch.push(env.DB.prepare(sql))
        if (batch.length >= 25) await flush()
      }
    }
    const rowsSoFar = Object.values(totals).reduce((a, b) => a + b, 0)
    shown.update(totals.cities, places.length, `cities; ${rowsSoFar} rows`)
  }
  // Every US ZIP code, for the search form: not a city's rows, so not in the catalog's count.
  for (const sql of insertStatements('zip_codes', zipRows())) {
    batch.push(env.DB.prepare(sql))
    if (batch.length >= 25) await flush()
  }
  await flush()
  shown.end()
  // The catalog is dated from midnight, but its open jobs are counted as of this moment: job
  // listings decide thinness on their live count, and the stats that sitemaps and links read
  // must agree with it (the cron keeps them so in production).
  await refreshStats(env.DB, new Date())
  await env.DB.prepare(
    "INSERT INTO catalog_meta (key, value) VALUES ('seed_version', ?), ('seeded_at', ?)",
  )
    .bind(version, now.toISOString())
    .run()
  console.log(
    `seed: ${totals.cities} cities, ${totals.providers} providers, ${totals.provider_services} listings, ` +
      `${totals.reviews} reviews, ${totals.jobs} jobs, ${totals.activities} activities in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
  await rebuildGate(env)
}

async function rebuildGate(env: Env): Promise<void> {
  const gate = await buildGate(env.DB)
  await saveGate(env.GATE, gate)
  console.log(`gate: ${gate.meta.items} slugs, ${(gate.bytes().byteLength / 1024).toFixed(0)} KiB`)
}

/** A hash of everything that shapes the seeded data. */
async function seedVersion(opts: typeof options): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(opts))
  for (const dir of ['migrations', 'scripts/seed', 'src/catalog']) {
    for (const file of (await readdir(dir)).sort())
      hash.update(file).update(await readFile(join(dir, file)))
  }
  return hash.digest('hex').slice(0, 16)
}
