// `npm run bench -- --sync`: how fast a catalog change reaches the pages (docs/performance.md,
// "Catalog sync"). Freshness under the real `wrangler dev` (its local queue, consumer and
// `max_batch_timeout`), while a realistic page mix loads it; the consumer's throughput and the
// import's rows/s through the import worker on the same local D1.
import { execFile, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { cp, rm } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { promisify, stripVTControlCharacters } from 'node:util'
import autocannon from 'autocannon'
import { citySlug } from '../../src/catalog/cities'
import { slugOf } from '../../src/catalog/options'
import { findService } from '../../src/catalog/services'
import type { CatalogMessage } from '../../src/sync/messages'
import { parseMessage } from '../../src/sync/messages'
import { activitiesPath, cityHubPath } from '../../src/urls/paths'
import example from '../../docs/sync-examples/provider.upserted.json'
import activityExample from '../../docs/sync-examples/activity.upserted.json'
import cityExample from '../../docs/sync-examples/city.added.json'
import jobExample from '../../docs/sync-examples/job.upserted.json'
import listingExample from '../../docs/sync-examples/provider-service.offered.json'
import reviewExample from '../../docs/sync-examples/review.added.json'
import { freePort, openHost } from '../import/host'
import { childWorkerds, cpuTime } from './cpu-time'
import { ROW_SAMPLES } from '../sample-pages'
import { CATALOGS, PHONE } from './harness'

const STATE = 'dist/bench/sync-state'
const TOKEN = 'bench-sync-token'
const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
/** How long a change may take to show before it counts as never shown. */
const GIVE_UP_MS = 60_000
const POLL_MS = 100
/** Requests a second of the page mix while changes are timed. */
export const MIX_RATE = 30

export interface SyncFigures {
  /** Freshness in ms of each change, by kind; null: not shown within GIVE_UP_MS. */
  freshness: Record<string, (number | null)[]>
  /** Each batch the consumer applied: its size and ms from its wave's 202 to the batch's end. */
  batches: { size: number; ms: number }[]
  mix: { requests: number; rps: number; p99: number; errors: number }
  throughput: Throughput
  importRowsPerSecond: number
}

/** A page to poll, and what it answers once it shows what is awaited. */
interface Awaited {
  path: string
  shows: (status: number, html: string) => boolean
}

/** A change and how to see it served: `path` answers `shows` once the change is on the page. */
interface Change extends Awaited {
  message: CatalogMessage
}

export const parsed = (input: unknown): CatalogMessage => {
  const result = parseMessage(input)
  if (!result.ok) throw new Error(`bench: a generated message is invalid: ${result.reasons[0]}`)
  return result.message
}

/** The messages of the run, ids far above the catalog's (and the gate's margin) and its own. */
function changes(base: number) {
  let counter = 0
  const version = () => Date.now() * 1000 + (counter++ % 1000)
  const title = findService('babysitters')?.title ?? 'Babysitter'
  const provider = (id: number) => `/p/${slugOf('Maria G')}-${id}`
  const host = base
  const hostPage = provider(host)
  // Names of one width: no name is the start of another on a page that shows many.
  const nth = (i: number) => String(i).padStart(5, '0')
  const job = (i: number) => base + 100_000 + i
  const jobTitle = (i: number) => `Bench job ${nth(i)}`
  const jobPage = (i: number) => `/job/${slugOf(jobTitle(i))}-${job(i)}`
  const review = (i: number) => base + 200_000 + i
  const reviewText = (i: number) => `Bench review ${base}-${nth(i)}.`
  const activityName = (i: number) => `Bench drums ${base}-${nth(i)}`
  const drums = activitiesPath('drums')
  const newProvider = (i: number) => base + 1 + i
  const activity = (i: number) => base + 400_000 + i
  const city = (i: number) => ({
    id: base + 300_000 + i,
    name: `Benchville ${Math.floor(base / 1_000_000) % 1_000_000} ${i}`,
  })

  const upsert = (id: number, headline: string) =>
    parsed({ ...example, id, version: version(), entity: { ...example.entity, headline } })
  const listing = (id: number) =>
    parsed({ ...listingExample, id, version: version(), entity: listingExample.entity })

  /** What index `n` adds: a provider with a listing, a city, a review, a job, an activity. */
  const additions = (n: number): Change[] => {
    const id = newProvider(n)
    return [
      {
        message: upsert(id, `Bench provider ${nth(n)}`),
        path: provider(id),
        shows: (s, html) => s === 200 && html.includes(`Bench provider ${nth(n)}`),
      },
      {
        message: listing(id),
        path: provider(id),
        shows: (s, html) => s === 200 && html.includes(`${title}:`),
      },
      {
        message: parsed({
          ...cityExample,
          id: city(n).id,
          version: version(),
          entity: { ...cityExample.entity, name: city(n).name },
        }),
        path: cityHubPath(citySlug(city(n).name, cityExample.entity.stateCode)),
        shows: (s) => s === 200,
      },
      {
        message: parsed({
          ...reviewExample,
          id: review(n),
          version: version(),
          entity: {
            ...reviewExample.entity,
            providerId: host,
            body: reviewText(n),
            createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          },
        }),
        path: hostPage,
        shows: (s, html) => s === 200 && html.includes(reviewText(n)),
      },
      {
        message: parsed({
          ...jobExample,
          id: job(n),
          version: version(),
          entity: {
            ...jobExample.entity,
            title: jobTitle(n),
            validThrough: '2099-01-01T00:00:00Z',
          },
        }),
        path: jobPage(n),
        shows: (s, html) => s === 200 && html.includes(jobTitle(n)),
      },
      {
        message: parsed({
          ...activityExample,
          id: activity(n),
          version: version(),
          entity: {
            ...activityExample.entity,
            name: activityName(n),
            startDate: null,
            endDate: null,
            isCamp: false,
            rankScore: 99,
          },
        }),
        path: drums,
        shows: (s, html) => s === 200 && html.includes(activityName(n)),
      },
    ]
  }

  /** What index `n` takes back of what it added: the listing, review, job and activity. */
  const withdrawals = (n: number): Change[] => [
    {
      message: parsed({
        kind: 'provider-service.withdrawn',
        id: newProvider(n),
        service: 'babysitters',
        version: version(),
      }),
      path: provider(newProvider(n)),
      shows: (s, html) => s === 200 && !html.includes(`${title}:`),
    },
    {
      message: parsed({ kind: 'review.removed', id: review(n), version: version() }),
      path: hostPage,
      shows: (s, html) => s === 200 && !html.includes(reviewText(n)),
    },
    {
      message: parsed({
        kind: 'job.closed',
        id: job(n),
        version: version(),
        closedAt: new Date(Date.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
        entity: { ...jobExample.entity, title: jobTitle(n), validThrough: '2099-01-01T00:00:00Z' },
      }),
      path: jobPage(n),
      shows: (s) => s === 410,
    },
    {
      message: parsed({ kind: 'activity.removed', id: activity(n), version: version() }),
      path: drums,
      shows: (s, html) => s === 200 && !html.includes(activityName(n)),
    },
  ]

  const removal = (n: number): Change => ({
    message: parsed({ kind: 'provider.removed', id: newProvider(n), version: version() }),
    path: provider(newProvider(n)),
    shows: (s) => s === 410,
  })

  return {
    /** The provider reviews are added to and removed from, before the run. */
    setup: [upsert(host, 'Bench host'), listing(host)],
    hostPage,
    /**
     * Wave `i` of `width`: `width` changes of every kind. It takes back what wave i-1 added and
     * removes the providers of wave i-2 first, so the host's page (ten reviews) and the drums
     * page (twenty activities) never hold more of the bench's than they show.
     */
    wave(i: number, width: number): Change[] {
      const indexes = (wave: number) =>
        wave < 0 ? [] : Array.from({ length: width }, (_, j) => wave * width + j)
      return [
        ...indexes(i - 2).map(removal),
        ...indexes(i - 1).flatMap(withdrawals),
        ...indexes(i).flatMap(additions),
      ]
    },
  }
}

/** A batch of CATALOG_CHANGES applied, as `wrangler dev` logs it, and when. */
interface Applied {
  at: number
  size: number
}

/**
 * `wrangler dev` over a copy of the default catalog, on a free port. Its log's
 * `QUEUE catalog-changes 100/100 (85ms)` lines, written as the consumer's batch ends, are handed
 * to `onApplied`.
 */
export async function startDev(
  onApplied: (batch: Applied) => void,
  onLine: (line: string) => void = () => undefined,
  {
    catalog = CATALOGS.default,
    entry,
  }: {
    /** The catalog's local state, copied: the default seed's or the 1M-provider one's. */
    catalog?: string
    /** Another entry than src/worker.ts (such as replica-model.ts), with its own vars. */
    entry?: { script: string; vars: Record<string, string> }
  } = {},
): Promise<{ origin: string; dev: ChildProcess }> {
  await rm(STATE, { recursive: true, force: true })
  await cp(catalog, `${STATE}/v3`, { recursive: true })
  const port = await freePort()
  const dev = spawn(
    'node_modules/.bin/wrangler',
    [
      ...['dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', '0'],
      ...[
        '--persist-to',
        STATE,
        '--var',
        'ENVIRONMENT:development',
        '--var',
        `SYNC_TOKEN:${TOKEN}`,
      ],
      ...(entry
        ? [entry.script, ...Object.entries(entry.vars).flatMap(([k, v]) => ['--var', `${k}:${v}`])]
        : []),
    ],
    { env: ENV, detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  createInterface({ input: dev.stdout }).on('line', (line) => {
    onLine(line)
    const m = QUEUE_LINE.exec(stripVTControlCharacters(line))
    if (m) onApplied({ at: Date.now(), size: Number(m[1]) })
  })
  const origin = `http://127.0.0.1:${port}`
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${origin}/babysitters`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { origin, dev }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error('bench: wrangler dev did not start within 2 minutes')
}

const QUEUE_LINE = /QUEUE catalog-changes (\d+)\/\d+ \(\d+ms\)/

/**
 * The bench's page mix (every sample page) at the rate `npm run load` calls nominal: a site in
 * use, not one driven to its limit, where every change would wait for the backlog of pages before
 * its own. It runs until stopped; `done` has its figures.
 */
export function startPageMix(origin: string, connections: number) {
  const paths = Object.values(ROW_SAMPLES).flatMap((samples) =>
    samples.filter((s): s is string => typeof s === 'string'),
  )
  let loaded: (result: autocannon.Result) => void = () => undefined
  const done = new Promise<autocannon.Result>((resolve) => (loaded = resolve))
  const load = autocannon(
    {
      url: origin,
      connections,
      overallRate: MIX_RATE,
      duration: 3600,
      headers: { 'user-agent': PHONE },
      requests: paths.map((path) => ({ method: 'GET', path })),
    },
    (_, result) => loaded(result),
  )
  return { load, done }
}

export async function post(origin: string, messages: CatalogMessage[]): Promise<void> {
  const res = await fetch(`${origin}/__ops/catalog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(messages),
  })
  if (res.status !== 202)
    throw new Error(`bench: /__ops/catalog ${res.status}: ${await res.text()}`)
}

/**
 * Milliseconds from `since` until each change shows at the edge, or null past GIVE_UP_MS. Each
 * page is polled once per round for every change it is to show, so a page many changes land on
 * (the host's reviews, the drums activities) is not asked more often than another.
 */
async function shownAfter(
  origin: string,
  wave: readonly Awaited[],
  since: number,
): Promise<(number | null)[]> {
  const times: (number | null)[] = wave.map(() => null)
  const byPath = new Map<string, number[]>()
  wave.forEach(({ path }, i) => byPath.set(path, [...(byPath.get(path) ?? []), i]))
  await Promise.all(
    [...byPath].map(async ([path, indexes]) => {
      let waiting = indexes
      while (waiting.length > 0 && Date.now() - since < GIVE_UP_MS) {
        const page = await fetch(origin + path, {
          headers: { 'user-agent': PHONE },
          redirect: 'manual',
          signal: AbortSignal.timeout(GIVE_UP_MS),
        }).then(
          async (res) => ({ status: res.status, html: await res.text() }),
          () => null,
        )
        const at = Date.now() - since
        waiting = waiting.filter((i) => {
          const shown = page !== null && wave[i]?.shows(page.status, page.html)
          if (shown) times[i] = at
          return !shown
        })
        if (waiting.length > 0) await new Promise((r) => setTimeout(r, POLL_MS))
      }
    }),
  )
  return times
}

export async function benchSync({
  waves,
  width,
  connections,
}: {
  waves: number
  width: number
  connections: number
}): Promise<SyncFigures> {
  const base = 1_000_000_000 + (Math.floor(Date.now() / 1000) % 100_000) * 1_000_000
  const run = changes(base)
  const batches: SyncFigures['batches'] = []
  let accepted = Date.now()
  const { origin, dev } = await startDev(({ at, size }) =>
    batches.push({ size, ms: at - accepted }),
  )
  const freshness: Record<string, (number | null)[]> = {}
  let mix: SyncFigures['mix']
  try {
    await post(origin, run.setup)
    const [hostShown] = await shownAfter(
      origin,
      [{ path: run.hostPage, shows: (s) => s === 200 }],
      Date.now(),
    )
    if (hostShown === null) throw new Error('bench: the setup provider never showed')
    batches.length = 0
    const { load, done } = startPageMix(origin, connections)
    for (let i = 0; i < waves; i++) {
      const wave = run.wave(i, width)
      await post(
        origin,
        wave.map((c) => c.message),
      )
      accepted = Date.now()
      const times = await shownAfter(origin, wave, accepted)
      wave.forEach((c, j) => (freshness[c.message.kind] ??= []).push(times[j] ?? null))
      process.stderr.write(`\rbench: sync wave ${i + 1}/${waves}`)
    }
    process.stderr.write('\n')
    load.stop()
    const r = await done
    mix = {
      requests: r.requests.total,
      rps: r.requests.average,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts + r.non2xx,
    }
  } finally {
    if (dev.pid) process.kill(-dev.pid, 'SIGTERM')
  }
  await new Promise((r) => setTimeout(r, 2000))
  return {
    freshness,
    batches,
    mix,
    throughput: await consumerThroughput(base + 50_000_000),
    importRowsPerSecond: await importSpeed(),
  }
}

/**
 * The import's rows/s: the default catalog generated and imported again into a fresh D1, placed
 * by `layout` (wrangler.toml's unless named).
 */
export async function importSpeed(layout?: string): Promise<number> {
  const dir = 'dist/bench/sync-import'
  await rm(dir, { recursive: true, force: true })
  console.error(`bench: the import's rows/s${layout ? `, layout ${layout}` : ''}`)
  const { stdout, stderr } = await promisify(execFile)(
    'node_modules/.bin/tsx',
    ['scripts/seed.ts', '--force', ...(layout ? ['--layout', layout] : []), '--persist-to', dir],
    { env: ENV, maxBuffer: 64 * 1024 * 1024 },
  )
  const rate = /applied.* \((\d+) rows\/s\)/.exec(stdout + stderr)?.[1]
  await rm(dir, { recursive: true, force: true })
  return Number(rate ?? NaN)
}

interface Throughput {
  changes: number
  seconds: number
  /** The CPU time of the workerd applying them (its D1 included): what the load disturbs least. */
  cpuSeconds: number
}

/**
 * Changes applied per second by one consumer: batches of 100 (max_batch_size) applied one after
 * another as the queue consumer applies them, derivation and purges included, on the same D1.
 */
export async function consumerThroughput(base: number): Promise<Throughput> {
  const host = await openHost({ local: true, persistTo: STATE })
  try {
    const run = changes(base)
    await host.changes(run.setup)
    const batches: CatalogMessage[][] = []
    const batch: CatalogMessage[] = []
    for (let i = 0; i < 500; i++)
      for (const { message } of run.wave(i, 1)) {
        batch.push(message)
        if (batch.length === 100) batches.push(batch.splice(0))
      }
    if (batch.length) batches.push(batch)
    const workerds = await childWorkerds()
    const cpu = await cpuTime(workerds)
    const started = performance.now()
    for (const b of batches) await host.changes(b)
    return {
      changes: batches.reduce((n, b) => n + b.length, 0),
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: ((await cpuTime(workerds)) - cpu) / 1000,
    }
  } finally {
    await host.dispose()
  }
}

/** The p-th percentile of `values` (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}
