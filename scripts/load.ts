// A bounded loopback load on the benchmark worker (scripts/bench/harness.ts: the production
// bundle in workerd, the default catalog, the Cache API), three streams at once:
//
//   npm run load                       20 s
//   npm run load -- --duration 60 --rate 50
//
// - a realistic mix at the nominal rate: directories of the seed cities (the head of the
//   traffic), their profiles and jobs, cost guides and activity pages, with filters and paging,
//   and 5 % of long tail: other cities' directories, never warmed;
// - a flood of random slugs (404s) at the nominal rate;
// - a prefetch storm (`Purpose: prefetch` on listing pages and their /_data JSON) at ten times
//   the nominal rate.
// After a warm-up that requests each of those URLs once, prints requests, rate, latency, errors (5xx, timeouts, resets) and the realistic mix's edge
// cache hit ratio; targets: < 0.1 % errors, hit ratio >= 90 %. Asserts nothing.
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { SEED_CITIES } from '../src/catalog/cities'
import { DATA_PREFIX, isDataPath } from '../src/urls/data-prefix'
import { activitiesPath, costPath } from '../src/urls/paths'
import { buildHarness, CATALOGS, PHONE, serve } from './bench/harness'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    rate: { type: 'string', default: '30' },
  },
})
const DURATION = Number(values.duration)
const NOMINAL = Number(values.rate)

await buildHarness()
const server = await serve(CATALOGS.default, 'cached')

/** Deterministic choices, so two runs send the same mix. */
let seed = 42
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T

const SERVICES = ['babysitters', 'nannies', 'child-care', 'senior-care', 'tutors', 'pet-care']
const QUERIES = ['', '', '', '', '?page=2', '?sort=newest', '?distance=10', '?rate=15-20']
const directories = SEED_CITIES.flatMap((city) => SERVICES.map((s) => `/${s}/${city}`))
const entities: string[] = []
for (const path of directories.slice(0, 20)) {
  const html = await (await fetch(server.base + path, { headers: { 'user-agent': PHONE } })).text()
  entities.push(...[...html.matchAll(/href="(\/(?:p|job)\/[^"]+)"/g)].map((m) => m[1] ?? ''))
}
// The long tail: directories of other cities, never warmed (a state page's city links).
const tail: string[] = []
for (const state of ['/babysitters/ca', '/nannies/tx', '/senior-care/fl', '/tutors/ny']) {
  const html = await (await fetch(server.base + state, { headers: { 'user-agent': PHONE } })).text()
  tail.push(...[...html.matchAll(/href="(\/[a-z-]+\/[a-z-]+-[a-z]{2})"/g)].map((m) => m[1] ?? ''))
}
const realistic = () => {
  const r = random()
  if (r < 0.05) return pick(tail)
  if (r < 0.5) return pick(directories) + pick(QUERIES)
  if (r < 0.8) return pick(entities)
  if (r < 0.9) return costPath(pick(['nannies', 'babysitters', 'senior-care']), pick(SEED_CITIES))
  return activitiesPath(pick(['robotics', 'stem', 'music', 'sports', 'hip-hop']))
}
const randomSlug = () =>
  `/${pick(SERVICES)}/${Math.floor(random() * 1e12).toString(36)}-${pick(['zz', 'ga', 'tx'])}`
const prefetch = () =>
  random() < 0.5
    ? pick(directories) + pick(QUERIES)
    : `${DATA_PREFIX}${pick(directories)}${pick(QUERIES)}`

// Warm-up: every URL the mix and the storm can ask for, once, as a running site has them cached.
const everything = [
  ...directories.flatMap((d) =>
    [...new Set(QUERIES)].flatMap((q) => [d + q, `${DATA_PREFIX}${d}${q}`]),
  ),
  ...entities,
  ...['nannies', 'babysitters', 'senior-care'].flatMap((s) =>
    SEED_CITIES.map((c) => costPath(s, c)),
  ),
  ...['robotics', 'stem', 'music', 'sports', 'hip-hop'].map(activitiesPath),
]
console.error(`load: warming ${everything.length} URLs`)
for (let i = 0; i < everything.length; i += 8) {
  await Promise.all(
    everything.slice(i, i + 8).map(async (path) => {
      const data: Record<string, string> = isDataPath(path) ? { 'x-data-request': '1' } : {}
      const res = await fetch(server.base + path, { headers: { 'user-agent': PHONE, ...data } })
      await res.arrayBuffer()
    }),
  )
}

interface Stream {
  name: string
  rate: number
  next: () => string
  headers: Record<string, string>
  /** Statuses that are the right answer for this stream. */
  ok: (status: number) => boolean
}

const streams: Stream[] = [
  {
    name: 'realistic mix',
    rate: NOMINAL,
    next: realistic,
    headers: {},
    ok: (s) => s === 200,
  },
  { name: 'random-slug 404s', rate: NOMINAL, next: randomSlug, headers: {}, ok: (s) => s === 404 },
  {
    name: 'prefetch storm (10×)',
    rate: NOMINAL * 10,
    next: prefetch,
    headers: { purpose: 'prefetch', 'x-data-request': '1' },
    ok: (s) => s === 200,
  },
]

console.error(`load: ${DURATION} s, nominal ${NOMINAL} req/s`)
const results = await Promise.all(
  streams.map(async (stream) => {
    const counts = { wrong: 0, hit: 0, cached: 0 }
    const result = await autocannon({
      url: server.base,
      connections: Math.max(4, Math.ceil(stream.rate / 50)),
      overallRate: stream.rate,
      duration: DURATION,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: stream.next(),
            headers: { ...req.headers, 'user-agent': PHONE, ...stream.headers },
          }),
          onResponse: (status, _body, _context, headers) => {
            if (!stream.ok(status)) counts.wrong++
            const cache = (headers as Record<string, string | undefined>)['x-cache']
            if (cache) counts.cached++
            if (cache === 'HIT' || cache === 'STALE') counts.hit++
          },
        },
      ],
    })
    const errors = result.errors + result.timeouts + result['5xx']
    return { stream, result, counts, errors }
  }),
)
await server.mf.dispose()

const pct = (n: number, of: number) => `${((100 * n) / Math.max(of, 1)).toFixed(2)} %`
console.log(
  `\nnpm run load: ${new Date().toISOString().slice(0, 10)}, ${DURATION} s, nominal ${NOMINAL} req/s\n`,
)
console.log(
  '| stream | requests | req/s | p50 ms | p99 ms | errors | unexpected status | cache hits |',
)
console.log('|---|--:|--:|--:|--:|--:|--:|--:|')
for (const { stream, result, counts, errors } of results) {
  const total = result.requests.total
  console.log(
    `| ${stream.name} | ${total} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ` +
      `${result.latency.p99} | ${pct(errors, total)} | ${pct(counts.wrong, total)} | ` +
      `${pct(counts.hit, counts.cached)} |`,
  )
}
