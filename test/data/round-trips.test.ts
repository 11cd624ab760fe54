import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app'
import { ROUTES } from '../../src/pages'
import { routedSources } from '../../src/request/page-reads'
import { shardedCatalog } from '../support/sharded-catalog'
import { Memory } from '../../src/memory'
import { withFaults } from '../support/with-faults'
import { cardLinks, ORIGIN, PHONE, settledThrough } from '../support/fetch-page'

/** Long enough that reads in flight together overlap and reads one after another do not. */
const ROUND_TRIP_MS = 15

interface Trip {
  sql: string
  start: number
  end: number
}

/** The real D1 `real`, each statement's call one round trip `ROUND_TRIP_MS` away. */
function distantD1(trips: Trip[], real: D1Database): D1Database {
  const away = async <T>(sql: string, call: () => Promise<T>): Promise<T> => {
    const trip = { sql, start: performance.now(), end: Infinity }
    trips.push(trip)
    await new Promise((resolve) => setTimeout(resolve, ROUND_TRIP_MS))
    try {
      return await call()
    } finally {
      trip.end = performance.now()
    }
  }
  const sqlOf = new WeakMap<D1PreparedStatement, string>()
  const statement = (s: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const distant: D1PreparedStatement = withFaults(s, {
      bind: (bind, ...params) => statement(bind(...params), sql),
      all: (all) => away(sql, all),
      first: (first: (column?: string) => Promise<unknown>, column?: string) =>
        away(sql, () => first(column)),
      raw: (raw, options) => away(sql, () => raw(options)),
      run: (run) => away(sql, run),
    })
    sqlOf.set(distant, sql)
    return distant
  }
  const prepare = (real: (sql: string) => D1PreparedStatement, sql: string) =>
    statement(real(sql), sql)
  // Statements sent together (src/data/db.ts) are one round trip.
  const batch = (
    real: (statements: D1PreparedStatement[]) => Promise<D1Result[]>,
    statements: D1PreparedStatement[],
  ) => away(statements.map((s) => sqlOf.get(s) ?? '').join('; '), () => real(statements))
  return withFaults(real, {
    prepare,
    batch,
    withSession: (withSession, constraint) =>
      withFaults(withSession(constraint), { prepare, batch }),
  })
}

/**
 * The longest chain of reads that waited on one another before the response's status and
 * headers were decided (reads still in flight then were not waited for: streamed sections). A
 * read that starts after another has answered may depend on it.
 */
/** Control and every shard, each as far away, their trips all counted in `trips`. */
function distantDatabases(trips: Trip[]): Partial<Env> {
  return Object.fromEntries(
    (['CONTROL', 'SHARD_00', 'SHARD_01'] as const).map((name) => [
      name,
      distantD1(trips, env[name]),
    ]),
  )
}

function sequentialTrips(trips: readonly Trip[], answered: number): number {
  const depth = new Map<Trip, number>()
  const before = trips.filter((t) => t.end <= answered).sort((a, b) => a.start - b.start)
  for (const t of before) {
    const waitedFor = before.filter((p) => p.end <= t.start).map((p) => depth.get(p) ?? 0)
    depth.set(t, 1 + Math.max(0, ...waitedFor))
  }
  return Math.max(0, ...depth.values())
}

describe('round trips to D1 before the first byte', () => {
  const memory = new Memory()
  const app = createApp(memory)

  /** A page's miss, read as a long-tail page is: by a busy isolate that has not seen it. */
  async function tripsOf(path: string, status = 200): Promise<number> {
    return (await answerOf(path, status)).trips
  }

  /** `tripsOf`, with how the edge cache answered (x-cache). */
  async function answerOf(path: string, status = 200) {
    memory.derivedReads.clear()
    const trips: Trip[] = []
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
      { ...env, ...distantDatabases(trips) },
      ctx,
    )
    const answered = performance.now()
    expect(res.status).toBe(status)
    await res.text()
    await waitOnExecutionContext(ctx)
    return { trips: sequentialTrips(trips, answered), cache: res.headers.get('x-cache') }
  }

  // By the page's name in the page table (src/pages.ts), numbered from its second sample. A
  // profile and a job read control's directory first: the next describe counts them.
  const pages: Record<string, string | (() => Promise<string>)> = {
    home: '/',
    directory: '/babysitters/atlanta-ga?sort=newest',
    'directory 2': '/au-pairs/atlanta-ga',
    'directory 3': '/errands/atlanta-ga',
    'serviceState 2': '/au-pairs/ga',
    jobListing: '/babysitting-jobs/atlanta-ga?sort=newest',
    cityHub: '/local/denver-co',
    serviceState: '/nannies/ga',
    serviceNational: '/tutors',
    costNational: '/cost/nannies',
    costCity: '/cost/nannies/denver-co',
    activities: '/explore/d/music',
    segment: '/adult-care',
    sitemapIndex: '/sitemap.xml',
  }

  async function htmlOf(path: string): Promise<string> {
    const res = await app.fetch(
      new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
      env,
      createExecutionContext(),
    )
    return res.text()
  }

  // The isolate's flags, gate and purges, as a busy isolate has them.
  beforeAll(() => htmlOf('/babysitters/denver-co'))

  it.each(Object.entries(pages))('is one at most for a miss: %s', async (_, page) => {
    const path = typeof page === 'string' ? page : await page()
    const { trips, cache } = await answerOf(path)
    // A miss indeed: rendered from D1, not a copy some earlier request stored.
    expect(cache).toBe('MISS')
    expect(trips).toBeLessThanOrEqual(1)
  })

  // A sitemap reads all its rows before its status (docs/seo.md): which rows the file holds (a
  // block of cities, providers or jobs in id order), then the rows, at once.
  it('is two at most for every kind of sitemap', async () => {
    const index = await htmlOf('/sitemap.xml')
    const files = [...index.matchAll(/<loc>[^<]*(\/sitemaps\/[^<]+)<\/loc>/g)].map(
      (m) => m[1] ?? '',
    )
    const kinds = new Map(files.map((f) => [f.replace(/-\d+\.xml$/, ''), f]))
    expect(kinds.size).toBeGreaterThan(3)
    for (const file of kinds.values()) expect(await tripsOf(file), file).toBeLessThanOrEqual(2)
  })

  it('is none for a stored page and for a slug the gate rejects', async () => {
    const path = '/housekeeping/denver-co'
    await htmlOf(path)
    await htmlOf(path)
    expect(await answerOf(path)).toEqual({ trips: 0, cache: 'HIT' })
    expect(await tripsOf('/housekeeping/nowhere-zz', 404)).toBe(0)
  })
})

// Read from control and the shards (src/request/page-reads.ts), every database as far away: the
// same, but for a profile or a job, which read control's directory and then the shard it names
// (docs/scale.md).
describe('round trips to control and the shards before the first byte', () => {
  const memory = new Memory()
  const app = createApp(memory, ROUTES, routedSources)

  beforeAll(async () => {
    await shardedCatalog()
    // A page no test above has stored: rendered, it has the isolate keep what it keeps.
    await htmlOf('/pet-care/denver-co')
  }, 60_000)

  // Misses all: the pages above stored their copies of some of these paths.
  beforeEach(() => {
    vi.spyOn(caches.default, 'match').mockResolvedValue(undefined)
    return () => vi.restoreAllMocks()
  })

  const htmlOf = async (path: string) => (await settledThrough(app, path, {}, {})).body

  async function answerOf(path: string) {
    memory.derivedReads.clear()
    const trips: Trip[] = []
    const distant = distantDatabases(trips)
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
      { ...env, ...distant },
      ctx,
    )
    const answered = performance.now()
    expect(res.status).toBe(200)
    await res.text()
    await waitOnExecutionContext(ctx)
    return { trips: sequentialTrips(trips, answered), cache: res.headers.get('x-cache') }
  }

  const entities: Record<string, () => Promise<string>> = {
    profile: async () => cardLinks(await htmlOf('/nannies/denver-co'))[0] ?? '',
    job: async () =>
      /href="(\/job\/[^"]+)"/.exec(await htmlOf('/babysitting-jobs/atlanta-ga'))?.[1] ?? '',
  }
  const pages: Record<string, string> = {
    home: '/',
    directory: '/nannies/atlanta-ga?sort=newest',
    'directory 2': '/au-pairs/denver-co',
    jobListing: '/babysitting-jobs/denver-co?sort=newest',
    cityHub: '/local/atlanta-ga',
    serviceState: '/tutors/ga',
    serviceNational: '/nannies',
    costNational: '/cost/babysitters',
    costCity: '/cost/babysitters/denver-co',
    activities: '/explore/d/dance',
    segment: '/adult-care',
    sitemapIndex: '/sitemap.xml',
  }

  it.each(Object.entries(pages))('is one at most for a miss: %s', async (_, path) => {
    const { trips, cache } = await answerOf(path)
    expect(cache).toBe('MISS')
    expect(trips).toBeLessThanOrEqual(1)
  })

  it.each(Object.entries(entities))(
    'is two at most for a miss of a %s: the directory, then the shard',
    async (_, pathOf) => {
      const { trips, cache } = await answerOf(await pathOf())
      expect(cache).toBe('MISS')
      expect(trips).toBeLessThanOrEqual(2)
    },
  )
})
