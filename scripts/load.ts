// A bounded loopback load on the benchmark worker (scripts/bench/harness.ts: the production
// bundle in workerd, the default catalog, the Cache API), three streams at once:
//
//   npm run load                       20 s, then 45 s again with KV answering slowly
//   npm run load -- --duration 60 --rate 50
//   npm run load -- --kv-delay 0       the first run only
//
// - a realistic mix at the nominal rate: directories of the seed cities (the head of the
//   traffic), their profiles and jobs, cost guides and activity pages, with filters and paging,
//   and 5 % of long tail: other cities' directories, never warmed;
// - a flood of random slugs (404s) at the nominal rate;
// - a prefetch storm (`Purpose: prefetch` on listing pages and their /_data JSON) at ten times
//   the nominal rate.
// After a warm-up that requests each of those URLs once, prints requests, rate, latency, errors (5xx, timeouts, resets) and the realistic mix's edge
// cache hit ratio; targets: < 0.1 % errors, hit ratio >= 90 %. Asserts nothing.
//
// The second run is the same on a fresh worker whose every read of the flags and the gate from
// KV takes `--kv-delay` ms (3,000 by default), long enough to meet two refreshes of the flags: no page may wait longer than the deadlines allow
// (docs/request-flow.md#deadlines). It also times the fresh isolate's first page, which meets
// both reads cold.
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { SEED_CITIES } from '../src/catalog/cities'
import { FLAGS_MAX_AGE_MS } from '../src/flags/read-flags'
import { DATA_PREFIX, isDataPath } from '../src/urls/data-prefix'
import { activitiesPath, costPath } from '../src/urls/paths'
import { FLAGS_KEY } from '../src/flags/schema'
import { buildHarness, CATALOGS, PHONE, serve } from './bench/harness'
import type { FloodReport } from './bench/message-flood'
import { flood, MESSAGING_ON } from './bench/message-flood'
import { parseCommandLine, wholeNumber } from './cli'
import { progress } from './progress'

const USAGE = `
  npm run load                       20 s, then 45 s again with KV answering slowly
  npm run load -- --duration 60 --rate 50
  npm run load -- --kv-delay 0       the first run only

A bounded load on the benchmark worker: a realistic mix, a flood of 404s and a prefetch storm,
then the same with KV answering slowly; prints latency, errors and the hit ratio.
`
const { values } = parseCommandLine(USAGE, {
  duration: { type: 'string', default: '20' },
  rate: { type: 'string', default: '30' },
  'kv-delay': { type: 'string', default: '3000' },
  flood: { type: 'string', default: '1' },
})
const DURATION = wholeNumber('duration', values.duration, { min: 1, max: 3600 })
const NOMINAL = wholeNumber('rate', values.rate, { min: 1, max: 10_000 })
const KV_DELAY = wholeNumber('kv-delay', values['kv-delay'], { max: 60_000 })
const FLOOD = wholeNumber('flood', values.flood, { max: 1 }) === 1
// Long enough to span two refreshes of the flag set, each of which meets the slow KV.
const SLOW_DURATION = Math.max(DURATION, (2 * FLAGS_MAX_AGE_MS) / 1000 + 5)

await buildHarness()
let server = await serve(CATALOGS.default, 'cached')

/** Deterministic choices, so two runs send the same mix (`measure` starts each at 42). */
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

/** The warm-up, then `running` streams at once on `base`, and `alongside` with them. */
async function measure(
  base: string,
  label: string,
  duration: number,
  running = streams,
  alongside: () => Promise<unknown> = () => Promise.resolve(),
) {
  // Each run sends the same mix.
  seed = 42
  console.error(`load: ${label}, warming ${everything.length} URLs`)
  for (let i = 0; i < everything.length; i += 8) {
    await Promise.all(
      everything.slice(i, i + 8).map(async (path) => {
        const data: Record<string, string> = isDataPath(path) ? { 'x-data-request': '1' } : {}
        const res = await fetch(base + path, { headers: { 'user-agent': PHONE, ...data } })
        await res.arrayBuffer()
      }),
    )
  }

  console.error(`load: ${label}, ${duration} s, nominal ${NOMINAL} req/s`)
  // One line of progress across the three streams: requests answered, of the nominal total.
  const shown = progress(`load: ${label}`)
  const nominalTotal = running.reduce((sum, s) => sum + s.rate, 0) * duration
  let answered = 0
  let wrong = 0
  const [results] = await Promise.all([
    Promise.all(
      running.map(async (stream) => {
        const counts = { wrong: 0, hit: 0, cached: 0 }
        const result = await autocannon({
          url: base,
          connections: Math.max(4, Math.ceil(stream.rate / 50)),
          overallRate: stream.rate,
          duration,
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                path: stream.next(),
                headers: { ...req.headers, 'user-agent': PHONE, ...stream.headers },
              }),
              onResponse: (status, _body, _context, headers) => {
                shown.update(++answered, nominalTotal, `${wrong} unexpected statuses`)
                if (!stream.ok(status)) {
                  counts.wrong++
                  wrong++
                }
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
    ),
    alongside(),
  ])
  shown.end()
  return results
}

const runs = [{ label: 'at once', results: await measure(server.base, 'KV at once', DURATION) }]
await server.mf.dispose()
let coldFirstPage: number | null = null
if (KV_DELAY > 0) {
  server = await serve(CATALOGS.default, 'cached', undefined, { kvDelayMs: KV_DELAY })
  // A fresh isolate's first page: the flag set and the gate both read from the slow KV.
  const started = performance.now()
  await (
    await fetch(server.base + '/babysitters/atlanta-ga', { headers: { 'user-agent': PHONE } })
  ).text()
  coldFirstPage = performance.now() - started
  runs.push({
    label: `${KV_DELAY} ms late, ${SLOW_DURATION} s`,
    results: await measure(server.base, `KV ${KV_DELAY} ms late`, SLOW_DURATION),
  })
  await server.mf.dispose()
}

// The message flood, beside the realistic mix, on a copy of the catalog (its rows and purges stay
// out of `npm start`'s) with the form on, the purge token and the form's rate limit.
let flooded: FloodReport | null = null
if (FLOOD) {
  const state = await mkdtemp(join(tmpdir(), 'care-load-'))
  await cp(CATALOGS.default, state, { recursive: true })
  server = await serve(state, 'cached', undefined, { production: true })
  const kv = (await server.mf.getKVNamespace('FLAGS')) as unknown as Pick<KVNamespace, 'put'>
  await kv.put(FLAGS_KEY, JSON.stringify(MESSAGING_ON))
  const mix = streams.filter((s) => s.name === 'realistic mix')
  const base = server.base
  const mf = server.mf
  runs.push({
    label: 'message flood',
    results: await measure(base, 'message flood', DURATION, mix, async () => {
      flooded = await flood(base, mf, DURATION)
    }),
  })
  await server.mf.dispose()
  await rm(state, { recursive: true, force: true })
}

const pct = (n: number, of: number) => `${((100 * n) / Math.max(of, 1)).toFixed(2)} %`
console.log(
  `\nnpm run load: ${new Date().toISOString().slice(0, 10)}, ${DURATION} s, nominal ${NOMINAL} req/s\n`,
)
console.log(
  '| KV | stream | requests | req/s | p50 ms | p99 ms | max ms | errors | unexpected status | cache hits |',
)
console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|')
for (const { label, results } of runs) {
  for (const { stream, result, counts, errors } of results) {
    const total = result.requests.total
    console.log(
      `| ${label} | ${stream.name} | ${total} | ${result.requests.average.toFixed(0)} | ` +
        `${result.latency.p50} | ${result.latency.p99} | ${result.latency.max} | ` +
        `${pct(errors, total)} | ${pct(counts.wrong, total)} | ${pct(counts.hit, counts.cached)} |`,
    )
  }
}
if (coldFirstPage !== null)
  console.log(
    `\nA fresh isolate's first page with KV ${KV_DELAY} ms late: ${coldFirstPage.toFixed(0)} ms`,
  )
if (flooded) {
  const f: FloodReport = flooded
  console.log(
    `\nMessage flood, ${DURATION} s beside the realistic mix: ${f.spamPosts} posts with made-up ids ` +
      `from 8 addresses (${JSON.stringify(f.spamStatuses)}), ${f.spamStored} stored ` +
      `(the limits allow ${f.bound} an hour); guest_messages ${f.rowsBefore} → ${f.rowsAfter} rows, ` +
      `${(f.bytesAfter / 1024).toFixed(0)} KiB of text; real visitors ${f.visitorsSent} of ` +
      `${f.visitors} sent (${JSON.stringify(f.visitorStatuses)}); purges ${f.purges} answered 200, ` +
      `${f.purgesRecorded} rows recorded`,
  )
}
