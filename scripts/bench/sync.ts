// `npm run bench -- --sync`: how fast a catalog change reaches the pages (docs/performance.md,
// "Catalog sync"). Freshness under the real `wrangler dev` (its local queue, consumer and
// `max_batch_timeout`), while a realistic page mix loads it; the consumer's throughput and the
// import's rows/s through the import worker on the same local D1.
import { execFile, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { cp, rm } from 'node:fs/promises'
import { promisify } from 'node:util'
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
import { PHONE } from './harness'

const STATE = 'dist/bench/sync-state'
const TOKEN = 'bench-sync-token'
const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
/** How long a change may take to show before it counts as never shown. */
const GIVE_UP_MS = 60_000
const POLL_MS = 100

export interface SyncFigures {
  /** Freshness in ms of each change, by kind; null: not shown within GIVE_UP_MS. */
  freshness: Record<string, (number | null)[]>
  mix: { requests: number; rps: number; p99: number; errors: number }
  throughput: Throughput
  importRowsPerSecond: number
}

/** A change and how to see it served: `path` answers `shows` once the change is on the page. */
interface Change {
  message: CatalogMessage
  path: string
  shows: (status: number, html: string) => boolean
}

const parsed = (input: unknown): CatalogMessage => {
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
  const job = (i: number) => base + 100_000 + i
  const jobPage = (i: number) => `/job/${slugOf(`Bench job ${i}`)}-${job(i)}`
  const review = (i: number) => base + 200_000 + i
  const reviewText = (i: number) => `Bench review ${base}-${i}.`
  const activityName = (i: number) => `Bench drums ${base}-${i}`
  const drums = activitiesPath('drums')
  const newProvider = (i: number) => base + 1 + i
  const city = (i: number) => ({
    id: base + 300_000 + i,
    name: `Benchville ${Math.floor(base / 1_000_000) % 1_000_000} ${i}`,
  })

  const upsert = (id: number, headline: string) =>
    parsed({ ...example, id, version: version(), entity: { ...example.entity, headline } })
  const listing = (id: number) =>
    parsed({ ...listingExample, id, version: version(), entity: listingExample.entity })

  return {
    /** The provider reviews are added to and removed from, before the run. */
    setup: [upsert(host, 'Bench host'), listing(host)],
    hostPage,
    /** Wave `i`: one change of every kind, removals of what wave i-1 or i-2 added. */
    wave(i: number): Change[] {
      const id = newProvider(i)
      const wave: Change[] = [
        {
          message: upsert(id, `Bench provider ${i}`),
          path: provider(id),
          shows: (s, html) => s === 200 && html.includes(`Bench provider ${i}`),
        },
        {
          message: listing(id),
          path: provider(id),
          shows: (s, html) => s === 200 && html.includes(`${title}:`),
        },
        {
          message: parsed({
            ...cityExample,
            id: city(i).id,
            version: version(),
            entity: { ...cityExample.entity, name: city(i).name },
          }),
          path: cityHubPath(citySlug(city(i).name, cityExample.entity.stateCode)),
          shows: (s) => s === 200,
        },
        {
          message: parsed({
            ...reviewExample,
            id: review(i),
            version: version(),
            entity: {
              ...reviewExample.entity,
              providerId: host,
              body: reviewText(i),
              createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          }),
          path: hostPage,
          shows: (s, html) => s === 200 && html.includes(reviewText(i)),
        },
        {
          message: parsed({
            ...jobExample,
            id: job(i),
            version: version(),
            entity: {
              ...jobExample.entity,
              title: `Bench job ${i}`,
              validThrough: '2099-01-01T00:00:00Z',
            },
          }),
          path: jobPage(i),
          shows: (s, html) => s === 200 && html.includes(`Bench job ${i}`),
        },
        {
          message: parsed({
            ...activityExample,
            id: base + 400_000 + i,
            version: version(),
            entity: {
              ...activityExample.entity,
              name: activityName(i),
              startDate: null,
              endDate: null,
              isCamp: false,
              rankScore: 99,
            },
          }),
          path: drums,
          shows: (s, html) => s === 200 && html.includes(activityName(i)),
        },
      ]
      if (i >= 1) {
        const before = newProvider(i - 1)
        wave.push(
          {
            message: parsed({
              kind: 'provider-service.withdrawn',
              id: before,
              service: 'babysitters',
              version: version(),
            }),
            path: provider(before),
            shows: (s, html) => s === 200 && !html.includes(`${title}:`),
          },
          {
            message: parsed({ kind: 'review.removed', id: review(i - 1), version: version() }),
            path: hostPage,
            shows: (s, html) => s === 200 && !html.includes(reviewText(i - 1)),
          },
          {
            message: parsed({
              kind: 'job.closed',
              id: job(i - 1),
              version: version(),
              closedAt: new Date(Date.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
              entity: {
                ...jobExample.entity,
                title: `Bench job ${i - 1}`,
                validThrough: '2099-01-01T00:00:00Z',
              },
            }),
            path: jobPage(i - 1),
            shows: (s) => s === 410,
          },
          {
            message: parsed({
              kind: 'activity.removed',
              id: base + 400_000 + i - 1,
              version: version(),
            }),
            path: drums,
            shows: (s, html) => s === 200 && !html.includes(activityName(i - 1)),
          },
        )
      }
      if (i >= 2) {
        const removed = newProvider(i - 2)
        wave.push({
          message: parsed({ kind: 'provider.removed', id: removed, version: version() }),
          path: provider(removed),
          shows: (s) => s === 410,
        })
      }
      return wave
    },
  }
}

/** `wrangler dev` over a copy of the default catalog, on a free port. */
async function startDev(): Promise<{ origin: string; dev: ChildProcess }> {
  await rm(STATE, { recursive: true, force: true })
  await cp('.wrangler/state/v3', `${STATE}/v3`, { recursive: true })
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
    ],
    { env: ENV, detached: true, stdio: ['ignore', 'ignore', 'inherit'] },
  )
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

async function post(origin: string, messages: CatalogMessage[]): Promise<void> {
  const res = await fetch(`${origin}/__ops/catalog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(messages),
  })
  if (res.status !== 202)
    throw new Error(`bench: /__ops/catalog ${res.status}: ${await res.text()}`)
}

/** Milliseconds from `since` until `change` shows at the edge, or null past GIVE_UP_MS. */
async function shownAfter(origin: string, change: Change, since: number): Promise<number | null> {
  while (Date.now() - since < GIVE_UP_MS) {
    const res = await fetch(origin + change.path, {
      headers: { 'user-agent': PHONE },
      redirect: 'manual',
    })
    if (change.shows(res.status, await res.text())) return Date.now() - since
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
  return null
}

export async function benchSync({
  waves,
  connections,
}: {
  waves: number
  connections: number
}): Promise<SyncFigures> {
  const base = 1_000_000_000 + (Math.floor(Date.now() / 1000) % 100_000) * 1_000_000
  const run = changes(base)
  const { origin, dev } = await startDev()
  const freshness: Record<string, (number | null)[]> = {}
  let mix: SyncFigures['mix']
  try {
    await post(origin, run.setup)
    const [hostMessage] = run.setup
    const hostShown = hostMessage
      ? await shownAfter(
          origin,
          { message: hostMessage, path: run.hostPage, shows: (s) => s === 200 },
          Date.now(),
        )
      : null
    if (hostShown === null) throw new Error('bench: the setup provider never showed')
    const paths = Object.values(ROW_SAMPLES).flatMap((samples) =>
      samples.filter((s): s is string => typeof s === 'string'),
    )
    let loaded: (result: autocannon.Result) => void = () => undefined
    const done = new Promise<autocannon.Result>((resolve) => (loaded = resolve))
    const load = autocannon(
      {
        url: origin,
        connections,
        duration: 3600,
        headers: { 'user-agent': PHONE },
        requests: paths.map((path) => ({ method: 'GET', path })),
      },
      (_, result) => loaded(result),
    )
    for (let i = 0; i < waves; i++) {
      const wave = run.wave(i)
      await post(
        origin,
        wave.map((c) => c.message),
      )
      const accepted = Date.now()
      const times = await Promise.all(wave.map((c) => shownAfter(origin, c, accepted)))
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
    mix,
    throughput: await consumerThroughput(base + 50_000_000),
    importRowsPerSecond: await importSpeed(),
  }
}

/** The import's rows/s: the default catalog generated and imported again into a fresh D1. */
async function importSpeed(): Promise<number> {
  const dir = 'dist/bench/sync-import'
  await rm(dir, { recursive: true, force: true })
  const { stdout, stderr } = await promisify(execFile)(
    'node_modules/.bin/tsx',
    ['scripts/seed.ts', '--force', '--persist-to', dir],
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
      for (const { message } of run.wave(i)) {
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
