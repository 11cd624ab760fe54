// Speed, sizes and scale of every page type, measured under load against baselines measured in
// the same run:
//
//   npm run bench                      the default catalog (npm start's)
//   npm run bench -- --large           and the 1M-provider catalog (seeded once, ~15 min)
//   npm run bench -- --duration 10     seconds of load per route (default 5)
//   npm run bench -- --connections 16  concurrent connections (default 8)
//
// Builds the production bundle of scripts/bench/bench-worker.ts (the real worker plus the
// benchmark's own routes) with `wrangler deploy --dry-run` and serves it in workerd through
// Miniflare's API over the seeded KV, with the catalog's D1 in a workerd of its own (as in
// production, D1's work is not the worker's CPU). Each route is loaded by autocannon from this
// process; its CPU per request is the site workerd's CPU time over the whole run divided by the
// requests it completed. Each page is measured beside a static string of its own size from the
// same worker, and the gate's 404 beside a bare one. Prints tables and the targets, met or not;
// asserts nothing.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { explainPageReads, isScan } from '../test/support/page-reads'
import type { PageType } from './bench/find-pages'
import { findPages } from './bench/find-pages'
import type { Server } from './bench/harness'
import { buildHarness, CATALOGS, PHONE, serve, serveD1, SITE, step } from './bench/harness'
import { markdownTable } from './bench/markdown-table'
import type { Measured } from './bench/measure-route'
import { measureRoute } from './bench/measure-route'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
    large: { type: 'boolean', default: false },
  },
})
const LOAD = { duration: Number(values.duration), connections: Number(values.connections) }
/** A city the gate rejects: its 404 is decided before any read. */
const UNKNOWN_CITY = '/babysitters/nowhere-zz'

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

interface Row {
  page: PageType | 'bare 404' | 'gate 404'
  cache: 'MISS' | 'HIT' | null
  path: string
  measured: Measured
  /** What the row's throughput is compared with: a static string of the page's size. */
  reference: { label: string; bytes: number | null; measured: Measured } | null
  /** Gzipped JavaScript the page ships. */
  js: number | null
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

/** A page under load, and just before it, a static string of its size from the same server. */
async function pageRow(
  server: Server,
  d1: Server,
  page: PageType,
  path: string,
  cache: 'MISS' | 'HIT',
): Promise<Row> {
  console.error(`bench: ${page}, ${cache}: ${path}`)
  const html = await (await fetch(server.base + path, { headers: { 'user-agent': PHONE } })).text()
  const bytes = new TextEncoder().encode(html).byteLength
  const baseline = await measureRoute(server, d1, `/__bench/baseline?bytes=${bytes}`, 200, LOAD)
  return {
    page,
    cache,
    path,
    measured: await measureRoute(server, d1, path, 200, LOAD),
    reference: { label: 'static', bytes, measured: baseline },
    js: await shippedJs(html),
  }
}

async function benchCatalog(name: keyof typeof CATALOGS) {
  console.error(`bench: ${name} catalog`)
  const state = CATALOGS[name]
  const d1 = await serveD1(state)
  const servers = [d1]
  try {
    const cached = await serve(state, 'cached', d1)
    servers.push(cached)
    const pages = await findPages(cached.base)
    // Every request to these pages renders: see `Caching` in scripts/bench/harness.ts.
    const missing = await serve(state, { missing: Object.values(pages) }, d1)
    servers.push(missing)

    const rows: Row[] = []
    for (const [page, path] of Object.entries(pages) as [PageType, string][]) {
      rows.push(await pageRow(missing, d1, page, path, 'MISS'))
      if (page === 'directory') rows.push(await pageRow(cached, d1, page, path, 'HIT'))
    }
    console.error('bench: 404s')
    const bare = await measureRoute(cached, d1, '/__bench/not-found', 404, LOAD)
    rows.push({
      page: 'bare 404',
      cache: null,
      path: '/__bench/not-found',
      measured: bare,
      reference: null,
      js: null,
    })
    rows.push({
      page: 'gate 404',
      cache: null,
      path: UNKNOWN_CITY,
      measured: await measureRoute(cached, d1, UNKNOWN_CITY, 404, LOAD),
      reference: { label: 'bare 404', bytes: null, measured: bare },
      js: null,
    })

    // Miniflare types its bindings with its own copy of the Workers types.
    const db = (await d1.mf.getD1Database('DB')) as unknown as D1Database
    const plans = await explainPageReads(db)
    const gateRuns: { ms: number; bytes: number }[] = []
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${cached.base}/__bench/gate`)
      gateRuns.push(await res.json<{ ms: number; bytes: number }>())
    }
    const providers = await db.prepare('SELECT COUNT(*) AS n FROM providers').first<{ n: number }>()
    return {
      name,
      providers: providers?.n ?? 0,
      rows,
      plans: plans.length,
      scans: plans.filter((p) => p.plan.some(isScan)),
      gate: { ms: median(gateRuns.map((g) => g.ms)), bytes: gateRuns[0]?.bytes ?? 0 },
    }
  } finally {
    await Promise.all(servers.map((s) => s.mf.dispose()))
  }
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
const ms = (n: number) => n.toFixed(2)
const times = (n: number) => `${n.toFixed(2)}×`
const label = (row: Row) => (row.cache ? `${row.page}, ${row.cache.toLowerCase()}` : row.page)

/** The responses' `x-cache` states: one word when all agree, else each with its count. */
function cacheStates(row: Row): string {
  const states = Object.entries(row.measured.cache)
  if (states.length === 1) return states[0]?.[0] ?? ''
  return states.map(([state, n]) => `${state} ${n}`).join(', ')
}

let bundleGzip = 0
for (const f of await readdir(SITE))
  if (f.endsWith('.js')) bundleGzip += gzipSync(await readFile(join(SITE, f))).byteLength

const results = []
for (const name of values.large ? (['default', 'large'] as const) : (['default'] as const))
  results.push(await benchCatalog(name))

console.log(
  `\nnpm run bench${values.large ? ' -- --large' : ''}: ${new Date().toISOString().slice(0, 10)}, ` +
    `${LOAD.duration} s per route, ${LOAD.connections} connections, Node ${process.version}\n`,
)
for (const r of results) {
  console.log(`### ${r.name} catalog: ${r.providers.toLocaleString('en-US')} providers\n`)
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
        row.reference ? times(row.measured.rps / row.reference.measured.rps) : '–',
      ]),
    ),
  )
  console.log(
    '\nCPU: the site workerd over the whole run ÷ requests completed; D1 CPU: the workerd' +
      '\nanswering D1 over the same run. × ref: throughput ÷ the reference below, measured' +
      '\njust before on the same worker (pages: a static string of the page’s size).\n',
  )
  console.log(
    markdownTable(
      ['route', 'reference', 'HTML', 'JS gzip', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req'],
      r.rows.flatMap((row) =>
        row.reference
          ? [
              [
                label(row),
                row.reference.bytes === null ? row.reference.label : 'static',
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
  const errors = r.rows.filter((row) => row.measured.errors > 0)
  if (errors.length)
    console.log(
      `\nerrors (failures, timeouts, unexpected status): ` +
        errors.map((row) => `${label(row)} ${row.measured.errors}`).join(', '),
    )
  console.log(
    `\nquery plans: ${r.plans} reads, ${r.scans.length} scanning a whole table or index` +
      `${r.scans.map((s) => `\n  ${s.sql}: ${s.plan.join(' | ')}`).join('')}`,
  )
  console.log(
    `gate: ${kb(r.gate.bytes)} of bloom filter, read and decoded in ${r.gate.ms.toFixed(2)} ms (median of 20)\n`,
  )
}
console.log(`worker bundle: ${kb(bundleGzip)} gzip (${SITE})\n`)
