// Speed, sizes and scale, measured in one run against a baseline measured in the same run:
//
//   npm run bench                      the default catalog (npm start's)
//   npm run bench -- --large           and the 1M-provider catalog (seeded once, ~15 min)
//   npm run bench -- --duration 10     seconds of load per route (default 5)
//
// Builds the production bundle of scripts/bench/bench-worker.ts (the real worker plus the
// benchmark's own routes) with `wrangler deploy --dry-run`, serves it in workerd through
// Miniflare's API with the seeded D1 and KV and the Cache API, and loads each route with
// autocannon from this process (workerd runs in its own). Prints tables; asserts nothing.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import { explainPageReads, isScan } from '../test/support/page-reads'
import { buildHarness, CATALOGS, cpuMs, PHONE, serve, SITE, step } from './bench/harness'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
    large: { type: 'boolean', default: false },
  },
})
const DURATION = Number(values.duration)
const CONNECTIONS = Number(values.connections)
/** Requests, one at a time, behind each CPU median: BATCHES batches of BATCH. */
const BATCHES = 9
const BATCH = 25

await buildHarness()
if (values.large)
  await step('large catalog (seeded once)', 'npx', [
    'tsx',
    'scripts/seed.ts',
    '--large',
    '--persist-to',
    '.wrangler/bench-large',
  ])
await step('production bundle', 'node_modules/.bin/wrangler', [
  'deploy',
  '--dry-run',
  '--outdir',
  SITE,
])

interface Load {
  route: string
  rps: number
  p50: number
  p99: number
  errors: number
}

async function load(base: string, route: string, path: string): Promise<Load> {
  const options = {
    url: base + path,
    connections: CONNECTIONS,
    headers: { 'user-agent': PHONE },
  }
  await autocannon({ ...options, duration: 1 }) // warm-up: JIT, isolate caches, the stored copy
  const r = await autocannon({ ...options, duration: DURATION })
  return {
    route,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
  }
}

async function text(base: string, path: string): Promise<string> {
  const res = await fetch(base + path, { headers: { 'user-agent': PHONE } })
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
  return res.text()
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

/**
 * CPU per request of the workerd that runs the worker (D1 runs in another): one request at a
 * time, every one a cache miss, in batches of BATCH; /proc counts CPU in ticks of 10 ms, so
 * each batch gives a mean and the batches a median.
 */
async function cpuPerRequest(server: { base: string; pid: number }, path: string) {
  const send = async () => {
    const res = await fetch(server.base + path, { headers: { 'user-agent': PHONE } })
    await res.arrayBuffer()
  }
  for (let i = 0; i < BATCH; i++) await send() // warm-up
  const batches: number[] = []
  for (let b = 0; b < BATCHES; b++) {
    const before = await cpuMs(server.pid)
    for (let i = 0; i < BATCH; i++) await send()
    batches.push(((await cpuMs(server.pid)) - before) / BATCH)
  }
  return median(batches)
}

/** JavaScript a page ships: its module scripts and preloads, gzip. */
async function shippedJs(html: string): Promise<number> {
  const srcs = [
    ...html.matchAll(/<script type="module" src="\/([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload" href="\/([^"]+)"/g),
  ].map((m) => m[1] ?? '')
  let bytes = 0
  for (const src of new Set(srcs))
    bytes += gzipSync(await readFile(join('dist/client', src))).byteLength
  return bytes
}

async function benchCatalog(name: keyof typeof CATALOGS) {
  console.error(`bench: ${name} catalog`)
  const cached = await serve(CATALOGS[name], 'cached')
  const uncached = await serve(CATALOGS[name], 'uncached')
  // Miniflare types its bindings with its own copy of the Workers types.
  const d1 = (await uncached.mf.getD1Database('DB')) as unknown as D1Database
  const cpu = await serve(CATALOGS[name], 'cpu', d1)
  try {
    const directoryPath = '/babysitters/atlanta-ga'
    const directory = await text(uncached.base, directoryPath)
    const jobs = await text(uncached.base, '/babysitting-jobs/atlanta-ga')
    const pages = {
      directory: directoryPath,
      profile: /href="(\/p\/[^"]+)"/.exec(directory)?.[1] ?? '',
      'job detail': /href="(\/job\/[^"]+)"/.exec(jobs)?.[1] ?? '',
      'cost guide': '/cost/nannies/seattle-wa',
      activities: '/explore/d/robotics',
    }
    const notFound = '/babysitters/atlantis-zz'
    const bytes = new TextEncoder().encode(directory).byteLength
    const rows: Load[] = [
      await load(
        cached.base,
        `baseline (${(bytes / 1024).toFixed(0)} KB string)`,
        `/__bench/baseline?bytes=${bytes}`,
      ),
      await load(uncached.base, 'directory, cache bypassed', pages.directory),
      await load(cached.base, 'directory, from cache', pages.directory),
      await load(uncached.base, 'profile', pages.profile),
      await load(uncached.base, 'job detail', pages['job detail']),
      await load(uncached.base, 'cost guide', pages['cost guide']),
      await load(uncached.base, 'activity page', pages.activities),
      await load(cached.base, 'unknown-slug 404', notFound),
      await load(cached.base, 'trivial 404 (no D1)', '/__bench/not-found'),
    ]
    const baselinePath = `/__bench/baseline?bytes=${bytes}`
    const cpuMsByType: Record<string, number> = {}
    for (const [type, path] of Object.entries({
      ...pages,
      'unknown-slug 404': notFound,
      [`baseline (${(bytes / 1024).toFixed(0)} KB string)`]: baselinePath,
    }))
      cpuMsByType[type] = await cpuPerRequest(cpu, path)
    const plans = await explainPageReads(d1)
    const scans = plans.filter((p) => p.plan.some(isScan))
    const gateRuns: { ms: number; bytes: number }[] = []
    for (let i = 0; i < 20; i++)
      gateRuns.push(
        await (await fetch(`${cached.base}/__bench/gate`)).json<{ ms: number; bytes: number }>(),
      )
    const js: Record<string, number> = {}
    for (const [type, path] of Object.entries(pages))
      js[type] = await shippedJs(await text(uncached.base, path))
    const providers = await d1.prepare('SELECT COUNT(*) AS n FROM providers').first<{ n: number }>()
    return {
      name,
      providers: providers?.n ?? 0,
      rows,
      cpu: cpuMsByType,
      plans: plans.length,
      scans,
      gate: { ms: median(gateRuns.map((g) => g.ms)), bytes: gateRuns[0]?.bytes ?? 0 },
      js,
      pageBytes: bytes,
    }
  } finally {
    await Promise.all([cached.mf.dispose(), uncached.mf.dispose(), cpu.mf.dispose()])
  }
}

function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows].map((r) => r.map(String))
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)))
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`
  return [
    line(cells[0] ?? []),
    `|${widths.map((w, i) => (i === 0 ? '-' : '-').repeat(w + 1) + (i === 0 ? '-' : ':')).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n')
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

const bundle = await readdir(SITE)
let bundleGzip = 0
for (const f of bundle)
  if (f.endsWith('.js')) bundleGzip += gzipSync(await readFile(join(SITE, f))).byteLength

const results = []
for (const name of values.large ? (['default', 'large'] as const) : (['default'] as const))
  results.push(await benchCatalog(name))

console.log(
  `\nnpm run bench${values.large ? ' -- --large' : ''}: ${new Date().toISOString().slice(0, 10)}, ` +
    `${DURATION} s per route, ${CONNECTIONS} connections, Node ${process.version}\n`,
)
for (const r of results) {
  const baseline = r.rows[0]?.rps ?? NaN
  const trivial = r.rows.at(-1)?.rps ?? NaN
  console.log(`### ${r.name} catalog: ${r.providers.toLocaleString('en-US')} providers\n`)
  console.log(
    table(
      ['route', 'req/s', 'p50 ms', 'p99 ms', 'errors', '× baseline'],
      r.rows.map((row) => [
        row.route,
        row.rps.toFixed(0),
        row.p50.toFixed(1),
        row.p99.toFixed(1),
        row.errors,
        (row.rps / baseline).toFixed(2),
      ]),
    ),
  )
  console.log(
    `\nunknown-slug 404 / trivial 404: ${((r.rows.at(-2)?.rps ?? NaN) / trivial).toFixed(2)}×\n`,
  )
  console.log(
    table(
      ['page type (cache miss)', 'worker CPU ms, median', 'JavaScript gzip'],
      Object.entries(r.cpu).map(([type, ms]) => [
        type,
        ms.toFixed(2),
        type in r.js ? kb(r.js[type] ?? 0) : '–',
      ]),
    ),
  )
  console.log(
    `\nquery plans: ${r.plans} reads, ${r.scans.length} scanning a whole table or index` +
      `${r.scans.map((s) => `\n  ${s.sql}: ${s.plan.join(' | ')}`).join('')}`,
  )
  console.log(
    `gate: ${kb(r.gate.bytes)} of bloom filter, read and decoded in ${r.gate.ms.toFixed(2)} ms (median of 20)\n`,
  )
}
console.log(`worker bundle: ${kb(bundleGzip)} gzip (${SITE})`)
if (results.length === 2) {
  const [small, large] = results
  console.log('\nlarge / default p50:')
  for (const [i, row] of (large?.rows ?? []).entries())
    console.log(`  ${row.route}: ${(row.p50 / (small?.rows[i]?.p50 ?? NaN)).toFixed(2)}×`)
}
