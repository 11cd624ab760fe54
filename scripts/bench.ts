// Speed, sizes and scale of every page type, measured under load against baselines measured in
// the same run:
//
//   npm run bench                      the default catalog (npm start's)
//   npm run bench -- --large           and the 1M-provider catalog (seeded once, ~15 min)
//   npm run bench -- --duration 10     seconds of load per route (default 5)
//   npm run bench -- --connections 16  concurrent connections (default 8)
//   npm run bench -- --only directory  one page's rows, by its name in src/pages.ts (repeat for more; 'gate 404')
//   npm run bench -- --distance 50     time to first byte of each page's miss, every D1 round
//                                      trip 50 ms away, and the round trips that implies
//   npm run bench -- --layout eight    the rows (or --distance's) on the one-shard layout and on
//                                      eight shards, side by side in one run (--large: the 1M
//                                      providers); --import: the import's rows/s into each
//   npm run bench -- --profile PATH    a CPU profile of PATH's miss instead (--hit: its hit;
//                                      --large: on the 1M-provider catalog; --tail: the
//                                      directory of every other city of PATH's service in turn)
//   npm run bench -- --instructions PATH  instructions a request of PATH's miss, counted by
//                                      valgrind's callgrind (--hit, repeatable; --floor:
//                                      /adult-care is then a page with nothing of its own,
//                                      for --profile too; --tail: each city of PATH's tail
//                                      once, its first render)
//   npm run bench -- --cache-here      a miss's Cache API answered in the site's own workerd, as
//                                      before the bench answered it in another (bench/harness.ts)
//   npm run bench -- --purges          purge knowledge at 50 changes a second of 10 tags, 9 days
//   npm run bench -- --peers           and Next.js's pages router on a comparable 20-card page
//                                      (installed once outside the project: bench/peers.ts)
//   npm run bench -- --sync            catalog sync instead: freshness of changes under the
//                                      real wrangler dev with the page mix running, the
//                                      consumer's changes/s, the import's rows/s (--waves 22)
//   npm run bench -- --stream          a steady stream of changes (--rate 50 a second, --seconds 60)
//                                      with the page mix: freshness, aggregate pages' hit ratio,
//                                      D1 rows per change and per kind, cost per day, and a
//                                      crawler's long-tail misses by D1 session (primary 80 ms,
//                                      replica 5 ms away); --large: on the 1M-provider catalog
//
// Builds the production bundle of scripts/bench/bench-worker.ts (the real worker plus the
// benchmark's own routes) with `wrangler deploy --dry-run` and serves it in workerd through
// Miniflare's API over the seeded KV, with the catalog's D1 in a workerd of its own and the
// misses' Cache API in another (as in production, neither's work is the worker's CPU), each
// called through a socket of the worker's own. Each route is loaded by autocannon from a process of its own; its CPU per request is the site workerd's CPU time over the whole run divided by the
// requests it completed. Each page is measured beside a static string of its own size from the
// same worker, and the gate's 404 beside a bare one. Prints tables and the targets, met or not,
// with a short CPU profile of the request behind each one missed; asserts nothing.
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { BenchedCatalog, Row } from './bench/bench-catalog'
import { benchCatalog, catalogNamed, label } from './bench/bench-catalog'
import { parseCommandLine, usageError, wholeNumber } from './cli'
import { layoutNamed } from '../src/catalog/placement'
import type { DistanceRow } from './bench/distance'
import { benchDistance } from './bench/distance'
import { buildHarness, layoutCatalog, SITE, step } from './bench/harness'
import { markdownTable } from './bench/markdown-table'
import { countInstructions } from './bench/instructions'
import { gapProfile, profileRoute } from './bench/profile'
import {
  benchPurgeStore,
  CHANGES_PER_SECOND,
  DAYS_KEPT,
  FEED_HOURS,
  PROVIDERS,
  TAGS_PER_CHANGE,
} from './bench/purge-store'
import { measureRoute } from './bench/measure-route'
import { serveNext } from './bench/peers'
import { benchSync, importSpeed, MIX_RATE, percentile } from './bench/sync'
import { benchStream } from './bench/stream'
import { FOLD } from '../src/cache/purge-snapshot'
import { reportStream } from './bench/stream-report'
import type { Peer, Target } from './bench/targets'
import { layoutTargets, scaleTargets, targets, TRIED } from './bench/targets'

const USAGE = `
  npm run bench                      the default catalog (npm start's)
  npm run bench -- --large           and the 1M-provider catalog (seeded once, ~15 min)
  npm run bench -- --duration 10     seconds of load per route (default 5)
  npm run bench -- --connections 16  concurrent connections (default 8)
  npm run bench -- --only directory  one page's rows, by its name in src/pages.ts (repeat for more; 'gate 404')
  npm run bench -- --distance 50     time to first byte of each page's miss, every D1 round
                                     trip 50 ms away, and the round trips that implies
  npm run bench -- --layout eight    the catalog seeded apart on the one-shard layout and on the
                                     layout named (src/catalog/placement.ts), each row measured on
                                     both in the same run, the sharded p50 against one shard's
                                     (with --large: the 1M providers; with --distance: its rows)
  npm run bench -- --layout eight --import   the import's rows/s into one shard and into the
                                     layout's, the default catalog seeded afresh (--rounds 2)
  npm run bench -- --profile PATH    a CPU profile of PATH's miss instead (--hit: its hit;
                                     --large: on the 1M-provider catalog; --tail: the
                                     directory of every other city of PATH's service in turn)
  npm run bench -- --instructions PATH  instructions a request of PATH's miss, counted by
                                     valgrind's callgrind (--hit, repeatable; --floor:
                                     /adult-care is then a page with nothing of its own,
                                     for --profile too; --warmup N --requests N: a shorter
                                     count than 500 after 2,000, for comparing on and off;
                                     --tail: each city of PATH's tail once, its first render)
  npm run bench -- --cache-here      a miss's Cache API answered in the site's own workerd, as
                                     before the bench answered it in another (with the rows,
                                     --profile and --instructions)
  npm run bench -- --purges          purge knowledge at 50 changes a second of 10 tags, 9 days
  npm run bench -- --peers           and Next.js's pages router on a comparable 20-card page,
                                     installed once from the npm registry into the system's
                                     temporary directory (never into this project)
  npm run bench -- --sync            catalog sync instead: freshness of changes (accepted → served
                                     with the new data) under the real wrangler dev while the page
                                     mix runs, the consumer's changes/s, the import's rows/s
  npm run bench -- --sync --waves 40 waves of ten changes of every kind (default 22: 200 or more
                                     of each kind, 2,360 changes)
  npm run bench -- --stream          a steady stream of changes under the real wrangler dev while
                                     the page mix runs: freshness of changed profiles, the hit
                                     ratio of national, state and sitemap pages, D1 rows per
                                     change and per kind, cost per day, and a crawler's
                                     long-tail misses by D1 session (the primary 80 ms away, a
                                     replica 5 ms away lagging 2 s) with their TTFB (--rate 50
                                     changes a second, --seconds 60; --large: 1M providers)

Builds the benchmark worker, serves it in workerd and loads each page type; prints tables and
the targets, met or not, each one missed with a short CPU profile (docs/performance.md).
`
const { values } = parseCommandLine(USAGE, {
  duration: { type: 'string', default: '5' },
  connections: { type: 'string', default: '8' },
  large: { type: 'boolean', default: false },
  profile: { type: 'string' },
  hit: { type: 'boolean', default: false },
  tail: { type: 'boolean', default: false },
  instructions: { type: 'string', multiple: true, default: [] },
  warmup: { type: 'string', default: '2000' },
  requests: { type: 'string', default: '500' },
  floor: { type: 'boolean', default: false },
  'cache-here': { type: 'boolean', default: false },
  only: { type: 'string', multiple: true, default: [] },
  distance: { type: 'string' },
  purges: { type: 'boolean', default: false },
  peers: { type: 'boolean', default: false },
  sync: { type: 'boolean', default: false },
  waves: { type: 'string', default: '22' },
  stream: { type: 'boolean', default: false },
  rate: { type: 'string', default: '50' },
  seconds: { type: 'string', default: '60' },
  layout: { type: 'string' },
  import: { type: 'boolean', default: false },
  rounds: { type: 'string', default: '2' },
})
const LOAD = {
  duration: wholeNumber('duration', values.duration, { min: 1, max: 600 }),
  connections: wholeNumber('connections', values.connections, { min: 1, max: 1000 }),
}
const distance =
  values.distance === undefined ? null : wholeNumber('distance', values.distance, { max: 10_000 })
if (values.profile !== undefined && !values.profile.startsWith('/'))
  usageError(`--profile takes a path such as /babysitters/atlanta-ga: got "${values.profile}"`)
const sharded = values.layout ?? null
if (sharded !== null && (!layoutNamed(sharded) || sharded === 'one'))
  usageError(`--layout takes a layout of src/catalog/placement.ts other than one: got "${sharded}"`)
if (values.import && sharded === null)
  usageError('--import goes with --layout: --layout eight --import')
if (values.tail && values.profile === undefined && !values.instructions.length)
  usageError(
    '--tail goes with --profile or --instructions: --instructions /babysitters/atlanta-ga --tail',
  )

if (values.stream) {
  await step('client assets', 'npx', ['tsx', 'scripts/build-assets.ts'])
  await step('default catalog (seeded once)', 'npx', ['tsx', 'scripts/seed.ts'], {
    progress: true,
  })
  const rate = wholeNumber('rate', values.rate, { min: 1, max: 1000 })
  const seconds = wholeNumber('seconds', values.seconds, { min: 10, max: 86_400 })
  const catalog = values.large ? 'large' : 'default'
  if (values.large) await seedLarge()
  reportStream(await benchStream({ rate, seconds, connections: LOAD.connections, catalog }), rate)
  process.exit(0)
}

if (values.sync) {
  await step('client assets', 'npx', ['tsx', 'scripts/build-assets.ts'])
  await step('default catalog (seeded once)', 'npx', ['tsx', 'scripts/seed.ts'], {
    progress: true,
  })
  const waves = wholeNumber('waves', values.waves, { min: 3, max: 10_000 })
  const f = await benchSync({ waves, width: 10, connections: LOAD.connections })
  const all = Object.values(f.freshness).flat()
  const shown = all.filter((t): t is number => t !== null)
  const row = (kind: string, times: (number | null)[]) => {
    const ok = times.filter((t): t is number => t !== null)
    return [
      kind,
      String(times.length),
      String(times.length - ok.length),
      (percentile(ok, 50) / 1000).toFixed(2),
      (percentile(ok, 99) / 1000).toFixed(2),
    ]
  }
  console.log(
    `\nnpm run bench -- --sync: ${new Date().toISOString().slice(0, 10)}, ${waves} waves of 10 changes of every kind, ` +
      `page mix at ${MIX_RATE} req/s on ${LOAD.connections} connections, Node ${process.version}\n`,
  )
  console.log(
    markdownTable(
      ['change', 'changes', 'never shown', 'p50 s', 'p99 s'],
      [...Object.entries(f.freshness).map(([kind, times]) => row(kind, times)), row('all', all)],
    ),
  )
  // Full batches go to the consumer at once; the rest of a wave waits max_batch_timeout first.
  const applied = (full: boolean) => {
    const ms = f.batches.filter((b) => (b.size === 100) === full).map((b) => b.ms)
    return `${ms.length} batches, p50 ${(percentile(ms, 50) / 1000).toFixed(2)} s, p99 ${(percentile(ms, 99) / 1000).toFixed(2)} s`
  }
  console.log(
    `\napplied after the 202: full batches of 100 ${applied(true)}; ` +
      `the rest (waiting max_batch_timeout) ${applied(false)}`,
  )
  const perSecond = f.throughput.changes / f.throughput.seconds
  console.log(
    `\npage mix meanwhile: ${f.mix.requests} requests, ${f.mix.rps.toFixed(0)} req/s, ` +
      `p99 ${f.mix.p99.toFixed(0)} ms, ${f.mix.errors} errors or non-2xx` +
      `\nconsumer: ${f.throughput.changes} changes in batches of 100 in ` +
      `${f.throughput.seconds.toFixed(1)} s = ${perSecond.toFixed(0)} changes/s ` +
      `(${(f.throughput.changes / f.throughput.cpuSeconds).toFixed(0)} per second of its workerd's CPU)` +
      `\nimport: ${f.importRowsPerSecond.toFixed(0)} rows/s (the default catalog)\n`,
  )
  const p99 = percentile(shown, 99)
  console.log(
    markdownTable(
      ['target', 'measured', 'met'],
      [
        [
          'freshness p99 ≤ 10 s',
          `${(p99 / 1000).toFixed(2)} s`,
          p99 <= 10_000 && shown.length === all.length ? 'met' : 'not met',
        ],
        [
          '≥ 2,000 changes/s applied',
          `${perSecond.toFixed(0)}`,
          perSecond >= 2000 ? 'met' : 'not met',
        ],
      ],
    ),
  )
  process.exit(0)
}
if (values.import && sharded !== null) {
  await step('client assets', 'npx', ['tsx', 'scripts/build-assets.ts'])
  const rounds = wholeNumber('rounds', values.rounds, { min: 1, max: 10 })
  const rates: Record<string, number[]> = { one: [], [sharded]: [] }
  for (let round = 0; round < rounds; round++)
    for (const layout of ['one', sharded]) rates[layout]?.push(await importSpeed(layout))
  console.log(
    `\nnpm run bench -- --layout ${sharded} --import: ${new Date().toISOString().slice(0, 10)}, ` +
      `the default catalog seeded afresh, ${rounds} rounds in turn, Node ${process.version}\n`,
  )
  console.log(
    markdownTable(
      ['layout', 'rows/s, each round', 'median'],
      Object.entries(rates).map(([layout, r]) => [
        layout,
        r.map((x) => x.toFixed(0)).join(', '),
        percentile(r, 50).toFixed(0),
      ]),
    ),
  )
  process.exit(0)
}

/** The catalogs measured: wrangler.toml's layout, or one shard beside the layout `--layout` names. */
const measured: BenchedCatalog[] =
  sharded === null
    ? values.large
      ? [catalogNamed('default'), catalogNamed('large')]
      : [catalogNamed('default')]
    : ['one', sharded].map((layout) => {
        const size = values.large ? 'large' : 'default'
        return { name: `${size}, ${layout}`, state: layoutCatalog(size, layout), layout }
      })

await buildHarness({ seed: sharded === null })
if (sharded !== null) for (const c of measured) await seedLayout(c.layout ?? 'one')
if (distance !== null) {
  const delay = distance
  const catalogs = sharded === null ? [catalogNamed('default')] : measured
  const runs: DistanceRow[][] = []
  for (const catalog of catalogs) runs.push(await benchDistance(delay, catalog))
  console.log(
    `\nnpm run bench -- --distance ${delay}${sharded ? ` --layout ${sharded}` : ''}` +
      `${values.large ? ' --large' : ''}: one request at a time, median of 5\n`,
  )
  const [first] = runs
  console.log(
    markdownTable(
      [
        'page',
        'path',
        ...catalogs.flatMap((c) =>
          catalogs.length > 1
            ? [`TTFB ms, ${c.name}`, `round trips, ${c.name}`]
            : ['TTFB ms', 'round trips'],
        ),
      ],
      (first ?? []).map((r, i) => [
        r.route,
        r.path,
        ...runs.flatMap((run) => {
          const row = run[i]
          return row ? [row.ttfb.toFixed(0), String(row.roundTrips)] : ['–', '–']
        }),
      ]),
    ),
  )
  process.exit(0)
}
if (values.purges) {
  const f = await benchPurgeStore()
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  const percent = (share: number) => `${(share * 100).toFixed(share < 0.01 ? 3 : 1)} %`
  console.log(
    `\nnpm run bench -- --purges: ${CHANGES_PER_SECOND} changes a second, ${TAGS_PER_CHANGE} tags ` +
      `each (${DAYS_KEPT} days kept) over ${PROVIDERS.toLocaleString('en-US')} providers: the last ` +
      `${FEED_HOURS} h, ${f.tagPurges.toLocaleString('en-US')} tag purges, fed in ${f.feedSeconds.toFixed(0)} s\n`,
  )
  console.log(
    markdownTable(
      ['measure', 'figure'],
      [
        ['isolate memory for purges (V8 heap after GC)', mb(f.heapBytes)],
        ['of which typed arrays (sketch cells, recent window)', mb(f.typedBytes)],
        ['snapshot (one byte a cell; base64 in D1)', mb(f.snapshotBytes)],
        [`the same folded ${FOLD} times (what a cold isolate reads first)`, mb(f.foldedBytes)],
        [
          `a cold isolate's read: folded snapshot + ${f.rowsAfter.toLocaleString('en-US')} rows after it, median / worst of 5`,
          `${f.coldMs.toFixed(0)} / ${f.coldMaxMs.toFixed(0)} ms`,
        ],
        ['then the whole snapshot in the background, median of 5', `${f.wholeMs.toFixed(0)} ms`],
        ['"what changed since N", nothing new, median of 20', `${f.nothingNewMs.toFixed(2)} ms`],
        ['"what changed since N", one new purge, median of 20', `${f.onePurgeMs.toFixed(2)} ms`],
        [
          'D1 rows read by "what changed since N": nothing new / one purge',
          `${f.rowsReadNothingNew} / ${f.rowsReadOnePurge}`,
        ],
      ],
    ),
  )
  console.log('\nFalse positives (a tag never purged reads as purged since the page was stored):\n')
  console.log(
    markdownTable(
      ['page stored', 'per tag', `per page of 25 tags`, 'folded, per tag', 'folded, per page'],
      f.falsePositives.map((r, i) => {
        const folded = f.foldedFalsePositives[i]
        return [
          `${r.age} ago`,
          percent(r.perTag),
          percent(r.perPage),
          folded ? percent(folded.perTag) : '',
          folded ? percent(folded.perPage) : '',
        ]
      }),
    ),
  )
  process.exit(0)
}
/**
 * The catalog of `--layout`'s run placed by `layout`, in a folder of its own, seeded once (the
 * 1M providers with --large).
 */
function seedLayout(layout: string) {
  const size = values.large ? 'large' : 'default'
  return step(
    `${size} catalog on the ${layout} layout (seeded once)`,
    'npx',
    [
      'tsx',
      'scripts/seed.ts',
      ...(values.large ? ['--large'] : []),
      '--layout',
      layout,
      '--persist-to',
      dirname(layoutCatalog(size, layout)),
    ],
    { progress: true },
  )
}

/** The 1M-provider catalog, seeded once (the seed skips a catalog already there). */
function seedLarge() {
  return step(
    'large catalog (seeded once)',
    'npx',
    ['tsx', 'scripts/seed.ts', '--large', '--persist-to', '.wrangler/bench-large'],
    { progress: true },
  )
}
if (values.large && sharded === null) await seedLarge()
if (values.profile) {
  const catalog = values.large ? 'large' : 'default'
  await profileRoute(
    values.profile,
    values.hit,
    LOAD,
    catalog,
    values.tail,
    values.floor,
    values['cache-here'],
  )
  process.exit(0)
}
if (values.instructions.length) {
  const warmup = wholeNumber('warmup', values.warmup, { min: 1, max: 100_000 })
  const requests = wholeNumber('requests', values.requests, { min: 1, max: 100_000 })
  const counted = await countInstructions(values.instructions, {
    hit: values.hit,
    floor: values.floor,
    cacheHere: values['cache-here'],
    warmup,
    requests,
    tail: values.tail,
  })
  console.log(
    `\nnpm run bench -- --instructions: ${values.hit ? 'hits' : 'misses'}, ` +
      `${requests.toLocaleString('en')} after ${warmup.toLocaleString('en')}\n`,
  )
  console.log(
    markdownTable(
      ['path', 'answered', 'thousand instructions a request', 'rest', 'callgrind_annotate it'],
      counted.map((c) => [c.path, c.answer, c.perRequest.toFixed(1), c.rest.toFixed(1), c.file]),
    ),
  )
  process.exit(0)
}
await step('production bundle', 'node_modules/.bin/wrangler', [
  'deploy',
  '--dry-run',
  '--outdir',
  SITE,
])
let bundleGzip = 0
for (const f of await readdir(SITE))
  if (f.endsWith('.js')) bundleGzip += gzipSync(await readFile(join(SITE, f))).byteLength

const peer = values.peers ? await benchPeer() : null
const results: Awaited<ReturnType<typeof benchCatalog>>[] = []
for (const catalog of measured)
  results.push(
    await benchCatalog(catalog, LOAD, values.only, results[0]?.tail, values['cache-here']),
  )

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
const ms = (n: number) => n.toFixed(2)
const share = (row: Row) =>
  row.reference ? `${(row.measured.rps / row.reference.measured.rps).toFixed(2)}×` : '–'

/** The responses' `x-cache` states: one word when all agree, else each with its count. */
function cacheStates(row: Row): string {
  const states = Object.entries(row.measured.cache)
  if (states.length === 1) return states[0]?.[0] ?? ''
  return states.map(([state, n]) => `${state} ${n}`).join(', ')
}

const targetTable = (ts: Target[]) =>
  markdownTable(
    ['target', 'measured', 'met'],
    ts.map((t) => [t.target, t.measured, t.met ? 'met' : 'not met']),
  )

console.log(
  `\nnpm run bench${values.large ? ' -- --large' : ''}${sharded ? ` --layout ${sharded}` : ''}: ` +
    `${new Date().toISOString().slice(0, 10)}, ` +
    `${LOAD.duration} s per route, ${LOAD.connections} connections, Node ${process.version}\n`,
)
for (const r of results) {
  console.log(
    `### ${r.name} catalog: ${r.providers.toLocaleString('en-US')} providers, layout ${r.layout}\n`,
  )
  console.log(
    markdownTable(
      ['route', 'x-cache', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'D1 CPU ms/req', '× ref'],
      r.rows.map((row) => [
        label(row),
        cacheStates(row),
        row.measured.rps.toFixed(0),
        row.measured.p50.toFixed(1),
        row.measured.p99.toFixed(1),
        ms(row.measured.cpu),
        ms(row.measured.d1Cpu),
        share(row),
      ]),
    ),
  )
  console.log(
    "\nx-cache: the responses' header over the run (a miss row renders every request: its pages" +
      "\nare purged in the far future). CPU ms/req: CPU time of the worker's workerd over the run" +
      '\n÷ requests completed (the static strings below show what any request costs here); D1' +
      "\nCPU: the same of the workerd answering D1. × ref: req/s ÷ the reference's, measured just" +
      "\nbefore on the same server: a static string of the page's size, or the bare 404.\n",
  )
  console.log(
    markdownTable(
      ['route', 'reference', 'HTML', 'JS gzip', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req'],
      r.rows.flatMap((row) =>
        row.reference
          ? [
              [
                label(row),
                row.reference.route,
                row.reference.bytes === null ? '–' : kb(row.reference.bytes),
                row.js === null ? '–' : kb(row.js),
                row.reference.measured.rps.toFixed(0),
                row.reference.measured.p50.toFixed(1),
                row.reference.measured.p99.toFixed(1),
                ms(row.reference.measured.cpu),
              ],
            ]
          : [],
      ),
    ),
  )
  const failed = r.rows.filter((row) => row.measured.errors > 0)
  if (failed.length)
    console.log(
      `\nerrors, timeouts and unexpected statuses: ` +
        failed.map((row) => `${label(row)} ${row.measured.errors}`).join(', '),
    )
  console.log(
    `\nquery plans: ${r.plans} reads, ${r.scans.length} scanning a whole table or index` +
      `${r.scans.map((s) => `\n  ${s.sql}: ${s.plan.join(' | ')}`).join('')}`,
  )
  console.log(
    `gate: ${kb(r.gate.bytes)} of bloom filter, read and decoded in ${r.gate.ms.toFixed(2)} ms (median of 20)\n`,
  )
  console.log(`targets, ${r.name} catalog:\n`)
  const ts = targets(r.rows, r.name === 'default' ? peer : null)
  console.log(`${targetTable(ts)}\n`)
  if (r.name === 'default') await showGaps(ts)
}
const [small, large] = results
if (small && large && sharded !== null) {
  console.log(
    `targets, ${sharded} shards against one shard (p50 in whole ms: one step above is within what it tells apart):\n`,
  )
  console.log(`${targetTable(layoutTargets(small.rows, large.rows, sharded))}\n`)
} else if (small && large) {
  console.log(
    'targets, large catalog against the default (p50 in whole ms: one step above the default is within what it tells apart):\n',
  )
  const ts = scaleTargets(small.rows, large.rows)
  console.log(`${targetTable(ts)}\n`)
  if (ts.some((t) => !t.met)) console.log(`what was tried for the rows not met: ${TRIED}\n`)
}
if (peer)
  console.log(
    `${peer.name} (${peer.path}, ${kb(peer.bytes)}): ${peer.measured.rps.toFixed(0)} req/s, ` +
      `p50 ${peer.measured.p50.toFixed(1)} ms, CPU ${ms(peer.measured.cpu)} ms/req ` +
      `(every process of next start)\n`,
  )
console.log(`worker bundle: ${kb(bundleGzip)} gzip (${SITE})`)

/**
 * Each missed target with the profile of the request it measures (one profile for targets that
 * share a request), and where what was tried against it is written down.
 */
async function showGaps(ts: readonly Target[]): Promise<void> {
  const byRequest = new Map<
    string,
    { path: string; hit: boolean; tail?: readonly string[]; names: string[] }
  >()
  for (const t of ts) {
    if (t.met || !t.profile) continue
    const key = `${t.profile.path} ${t.profile.hit} ${t.profile.tail?.length ?? 0}`
    const entry = byRequest.get(key) ?? { ...t.profile, names: [] }
    entry.names.push(t.target)
    byRequest.set(key, entry)
  }
  if (!byRequest.size) return
  console.log(`the gaps, each with where its CPU goes (what was tried: ${TRIED}):\n`)
  for (const { path, hit, tail, names } of byRequest.values()) {
    console.error(
      `bench: profiling ${tail ? `${tail.length} pages from ` : ''}${path}${hit ? ' (hit)' : ''}`,
    )
    const profile = await gapProfile(tail ?? path, hit, LOAD, values['cache-here'])
    console.log(`${names.join('; ')}\n${profile}\n`)
  }
}

/** Next.js's pages router on its 20-card page, loaded as the project's rows are. */
async function benchPeer(): Promise<Peer> {
  const next = await serveNext()
  try {
    const path = '/?city=Atlanta%2C%20GA'
    console.error(`bench: Next.js pages router: ${path}`)
    const html = await (await fetch(next.base + path)).text()
    return {
      name: "Next.js 16's pages router, 20 cards",
      path,
      bytes: new TextEncoder().encode(html).byteLength,
      measured: await measureRoute(next, null, path, 200, LOAD),
    }
  } finally {
    next.stop()
  }
}
