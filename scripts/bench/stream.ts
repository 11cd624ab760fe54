// `npm run bench -- --stream`: a marketplace's steady stream of changes (docs/performance.md,
// "A steady stream"). Under the real `wrangler dev` (its local queue and consumer), changes are
// posted at a steady rate (mostly profile edits, then reviews and jobs) while the page mix runs;
// measured: how soon a changed profile shows its change, the hit ratio of the aggregate pages
// (national, state, sitemaps) under the stream, and D1's own count of rows read and written per
// change (the consumer's `sync: applied` log lines, from each batch's `meta`).
import { stripVTControlCharacters } from 'node:util'
import { slugOf } from '../../src/catalog/options'
import type { CatalogMessage } from '../../src/sync/messages'
import example from '../../docs/sync-examples/provider.upserted.json'
import jobExample from '../../docs/sync-examples/job.upserted.json'
import listingExample from '../../docs/sync-examples/provider-service.offered.json'
import reviewExample from '../../docs/sync-examples/review.added.json'
import { SITEMAP_INDEX } from '../../src/urls/paths'
import { listed } from './find-pages'
import { CATALOGS, PHONE } from './harness'
import { parsed, post, startDev, startPageMix } from './sync'

/** The aggregate pages whose hit ratio is reported: national, state, the sitemap index and a file. */
export const AGGREGATE_PAGES = [
  '/babysitters',
  '/babysitters/ga',
  '/sitemap.xml',
  '/sitemaps/pages.xml',
]
/** Of every hundred changes: profile edits, reviews, jobs. */
const MIX = { edits: 70, reviews: 20, jobs: 10 }
/** Providers the stream edits and reviews (added before it starts). */
const PROVIDERS = 200
/** Profile edits whose freshness is timed, a second: each is polled until it shows. */
const TIMED_PER_SECOND = 2
const GIVE_UP_MS = 60_000
/**
 * D1 as a far visitor's data centre sees it (replica-model.ts): the primary 80 ms away, a read
 * replica 5 ms away that lags the primary by 2 s.
 */
export const DISTANCE = { primaryMs: 80, replicaMs: 5, replicaLagMs: 2_000 }
/** The long tail a crawler walks meanwhile, by the sitemap files that list it. */
const TAIL_KINDS = { directory: 'directories', profile: 'providers', job: 'jobs' } as const

export interface StreamFigures {
  catalog: keyof typeof CATALOGS
  seconds: number
  changes: number
  /** Seconds from a timed edit's 202 until its profile showed it; null: never within a minute. */
  freshness: (number | null)[]
  /** By aggregate page: requests and hits. */
  aggregates: Record<string, { requests: number; hits: number }>
  /** By the session a miss read with, as the worker's Server-Timing names it (`d1-session`). */
  sessions: Record<string, number>
  /** The long tail walked once each (every request a miss), by kind: sessions and times to headers. */
  tail: Record<string, { sessions: Record<string, number>; ttfb: number[] }>
  /** D1's rows, summed over the consumer's batches of the stream. */
  rows: Rows
  /** D1's rows of batches of one kind each, before the stream: by kind. */
  perKind: Record<string, Rows>
  mix: { requests: number; rps: number; p99: number; errors: number }
}

interface Rows {
  messages: number
  read: number
  written: number
}

const APPLIED = /"message":"sync: applied"/
/** The session constraint a render read with, when the worker says (`d1-session;desc=…`). */
const SESSION = /d1-session;desc="?([a-z-]+)/

export async function benchStream({
  rate,
  seconds,
  connections,
  catalog,
}: {
  rate: number
  seconds: number
  connections: number
  catalog: keyof typeof CATALOGS
}): Promise<StreamFigures> {
  const base = 2_000_000_000 + (Math.floor(Date.now() / 1000) % 100_000) * 1_000
  let counter = 0
  const version = () => Date.now() * 1000 + (counter++ % 1000)
  const providerId = (i: number) => base + (i % PROVIDERS)
  const profile = (id: number) => `/p/${slugOf('Maria G')}-${id}`
  const edit = (id: number, headline: string) =>
    parsed({ ...example, id, version: version(), entity: { ...example.entity, headline } })
  const rows: Rows = { messages: 0, read: 0, written: 0 }
  const perKind: Record<string, Rows> = {}
  let started = false
  const { origin, dev } = await startDev(
    () => undefined,
    (line) => {
      const text = stripVTControlCharacters(line)
      if (!APPLIED.test(text)) return
      const fields = JSON.parse(text.slice(text.indexOf('{'))) as {
        messages: number
        rowsRead: number
        rowsWritten: number
        kinds: Record<string, number>
      }
      const kinds = Object.keys(fields.kinds)
      const into = started
        ? rows
        : kinds.length === 1
          ? (perKind[kinds[0] ?? ''] ??= { messages: 0, read: 0, written: 0 })
          : null
      if (!into) return
      into.messages += fields.messages
      into.read += fields.rowsRead
      into.written += fields.rowsWritten
    },
    {
      catalog: CATALOGS[catalog],
      entry: {
        script: 'scripts/bench/replica-model.ts',
        vars: {
          BENCH_PRIMARY_MS: String(DISTANCE.primaryMs),
          BENCH_REPLICA_MS: String(DISTANCE.replicaMs),
          BENCH_REPLICA_LAG_MS: String(DISTANCE.replicaLagMs),
        },
      },
    },
  )
  const kindRows: Record<string, Rows> = {}
  /** A change of each kind measured alone, of provider `id`, the entity numbered `n`. */
  const ONE_KIND: ((id: number, n: number) => CatalogMessage)[] = [
    (id) => edit(id, `Kind edit ${id}`),
    (id) => parsed({ ...listingExample, id, version: version() }),
    (id, n) =>
      parsed({
        ...reviewExample,
        id: n,
        version: version(),
        entity: { ...reviewExample.entity, providerId: id },
      }),
    (_, n) =>
      parsed({
        ...jobExample,
        id: n,
        version: version(),
        entity: { ...jobExample.entity, validThrough: '2099-01-01T00:00:00Z' },
      }),
  ]
  const freshness: (number | null)[] = []
  const aggregates = Object.fromEntries(AGGREGATE_PAGES.map((p) => [p, { requests: 0, hits: 0 }]))
  const sessions: Record<string, number> = {}
  const timings: Promise<void>[] = []
  try {
    const setup: CatalogMessage[] = []
    for (let i = 0; i < PROVIDERS; i++) {
      setup.push(edit(providerId(i), `Stream provider ${i}`))
      setup.push(parsed({ ...listingExample, id: providerId(i), version: version() }))
    }
    for (let i = 0; i < setup.length; i += 1000) await post(origin, setup.slice(i, i + 1000))
    if (
      (await shown(origin, profile(providerId(PROVIDERS - 1)), 'Stream provider', Date.now())) ===
      null
    )
      throw new Error('bench: the stream’s providers never showed')
    // A hundred changes of each kind alone, for the rows each kind costs.
    for (const [i, kind] of ONE_KIND.entries()) {
      const messages = Array.from({ length: 100 }, (_, j) =>
        kind(providerId(j), base + 30_000_000 + i * 1000 + j),
      )
      for (const k of Object.keys(perKind)) delete perKind[k]
      await post(origin, messages)
      const name = messages[0]?.kind ?? ''
      for (let t = 0; (perKind[name]?.messages ?? 0) < 100 && t < 600; t++)
        await new Promise((r) => setTimeout(r, 100))
      kindRows[name] = { ...(perKind[name] ?? { messages: 0, read: 0, written: 0 }) }
    }
    const tailPaths = await tailOf(origin)
    const tail: StreamFigures['tail'] = {}
    started = true

    const { load, done } = startPageMix(origin, connections)
    const polling = pollAggregates(origin, aggregates, sessions, () => started)
    const walking = walkTail(origin, tailPaths, tail, () => started)
    const end = Date.now() + seconds * 1000
    for (let second = 0; Date.now() < end; second++) {
      const tick = Date.now()
      const batch: CatalogMessage[] = []
      const timed: { path: string; text: string }[] = []
      for (let i = 0; i < rate; i++) {
        const n = second * rate + i
        const kind = n % 100
        const id = providerId(n * 7919)
        if (kind < MIX.edits) {
          const text = `Edit ${base}-${n}`
          batch.push(edit(id, text))
          if (i < TIMED_PER_SECOND) timed.push({ path: profile(id), text })
        } else if (kind < MIX.edits + MIX.reviews) {
          batch.push(
            parsed({
              ...reviewExample,
              id: base + 10_000_000 + n,
              version: version(),
              entity: { ...reviewExample.entity, providerId: id, body: `Review ${base}-${n}.` },
            }),
          )
        } else {
          batch.push(
            parsed({
              ...jobExample,
              id: base + 20_000_000 + n,
              version: version(),
              entity: {
                ...jobExample.entity,
                title: `Stream job ${n}`,
                validThrough: '2099-01-01T00:00:00Z',
              },
            }),
          )
        }
      }
      await post(origin, batch)
      const accepted = Date.now()
      for (const { path, text } of timed)
        timings.push(shown(origin, path, text, accepted).then((t) => void freshness.push(t)))
      process.stderr.write(`\rbench: stream ${second + 1}/${seconds} s`)
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - tick))))
    }
    process.stderr.write('\n')
    await Promise.all(timings)
    started = false
    await polling
    await walking
    load.stop()
    const r = await done
    return {
      catalog,
      seconds,
      changes: rate * seconds,
      freshness,
      aggregates,
      sessions,
      tail,
      rows,
      perKind: kindRows,
      mix: {
        requests: r.requests.total,
        rps: r.requests.average,
        p99: r.latency.p99,
        errors: r.errors + r.timeouts + r.non2xx,
      },
    }
  } finally {
    if (dev.pid) process.kill(-dev.pid, 'SIGTERM')
  }
}

/**
 * Seconds from `since` until `path` answers 200 with `text`, or null past GIVE_UP_MS. An edit's
 * text ends in its number: a page showing a later edit of the same profile shows this one's too.
 */
async function shown(origin: string, path: string, text: string, since: number) {
  const numbered = /^(.*-)(\d+)$/.exec(text)
  const later = numbered ? new RegExp(`${numbered[1]}(\\d+)`) : null
  const shows = (html: string) => {
    if (html.includes(text)) return true
    const seen = later?.exec(html)?.[1]
    return seen !== undefined && Number(seen) > Number(numbered?.[2])
  }
  while (Date.now() - since < GIVE_UP_MS) {
    const html = await fetch(origin + path, { headers: { 'user-agent': PHONE } }).then(
      async (res) => (res.status === 200 ? await res.text() : ''),
      () => '',
    )
    if (shows(html)) return (Date.now() - since) / 1000
    await new Promise((r) => setTimeout(r, 200))
  }
  return null
}

/** Asks for each aggregate page every half second while `going`, counting hits and sessions. */
async function pollAggregates(
  origin: string,
  counts: StreamFigures['aggregates'],
  sessions: Record<string, number>,
  going: () => boolean,
) {
  while (going()) {
    await Promise.all(
      AGGREGATE_PAGES.map(async (path) => {
        const res = await fetch(origin + path, { headers: { 'user-agent': PHONE } }).catch(
          () => null,
        )
        if (!res) return
        await res.arrayBuffer()
        const count = counts[path]
        if (!count) return
        count.requests++
        const cache = res.headers.get('x-cache')
        if (cache === 'HIT') count.hits++
        else {
          const session = SESSION.exec(res.headers.get('server-timing') ?? '')?.[1] ?? 'not said'
          sessions[session] = (sessions[session] ?? 0) + 1
        }
      }),
    )
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** The long tail's pages by kind, in the order the sitemaps list them. */
async function tailOf(origin: string): Promise<[string, string[]][]> {
  const files = await listed(origin, SITEMAP_INDEX)
  const byKind: [string, string[]][] = []
  for (const [kind, file] of Object.entries(TAIL_KINDS)) {
    const paths: string[] = []
    for (const f of files.filter((f) => f.startsWith(`/sitemaps/${file}-`)))
      paths.push(...(await listed(origin, f)))
    byKind.push([kind, paths])
  }
  return byKind
}

/**
 * A crawler walking the long tail while `going`: one page at a time, each kind in turn, each page
 * asked once (a miss: no change of the stream touched it, and none asked for it before), counting
 * the D1 session its render read with and timing it to its headers.
 */
async function walkTail(
  origin: string,
  byKind: [string, string[]][],
  figures: StreamFigures['tail'],
  going: () => boolean,
) {
  for (let i = 0; going(); i++) {
    let walked = false
    for (const [kind, paths] of byKind) {
      const path = paths[i]
      if (!path || !going()) continue
      walked = true
      const started = performance.now()
      const res = await fetch(origin + path, { headers: { 'user-agent': PHONE } }).catch(() => null)
      if (!res) continue
      const ttfb = performance.now() - started
      await res.arrayBuffer()
      if (res.headers.get('x-cache') !== 'MISS') continue
      const into = (figures[kind] ??= { sessions: {}, ttfb: [] })
      const session = SESSION.exec(res.headers.get('server-timing') ?? '')?.[1] ?? 'not said'
      into.sessions[session] = (into.sessions[session] ?? 0) + 1
      into.ttfb.push(ttfb)
    }
    if (!walked) return
  }
}
