// Pages under one database of the split catalog failing (docs/scale.md, "Faults"), on the app
// made with the routed sources and the test catalog in control and the shards: the failure is
// injected through the binding, every statement sent to it failing as an unreachable D1 fails.
// In a file of its own: the stale copies below are the Cache API's, which is per test file.
import { env } from 'cloudflare:workers'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApp, withFastPath } from '../../src/app'
import { databasesOf } from '../../src/data/databases'
import { Memory } from '../../src/memory'
import { ROUTES } from '../../src/pages'
import { routedSources } from '../../src/request/page-reads'
import { cardLinks, sameDocument, settledThrough } from '../support/fetch-page'
import { shardedCatalog } from '../support/sharded-catalog'
import { withStatementFaults } from '../support/with-faults'

beforeAll(() => shardedCatalog(), 60_000)

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/** `db` unreachable: every statement sent to it, alone or in a batch, in a session or not, fails. */
function unreachable(db: D1Database): D1Database {
  const fail = () => Promise.reject(new Error('D1_ERROR: Network connection lost.'))
  return withStatementFaults(db, () => ({ all: fail, first: fail, run: fail, raw: fail }))
}

/** Control down: the pages' national reads, and the purges and the gate's additions with them. */
const controlDown = (): Partial<Env> => ({ CONTROL: unreachable(env.CONTROL) })

/**
 * A fresh isolate serving as the worker does (the fast path, then the app), its pages read by
 * role from control and the shards: `get(path, bindings)` with some bindings replaced.
 */
function routedIsolate() {
  const memory = new Memory()
  const app = { fetch: withFastPath(memory, createApp(memory, ROUTES, routedSources)) }
  return (path: string, bindings: Partial<Env> = {}) => settledThrough(app, path, {}, bindings)
}

/** No stored copy found: each page is rendered, so a failing read shows. */
const noCopies = () => vi.spyOn(caches.default, 'match').mockResolvedValue(undefined)

/** The clock `ms` on: a stored page past its fresh and stale windows is kept for errors only. */
function later(ms: number): void {
  const now = Date.now()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now + ms)
}

const HOUR = 3_600_000

type Answer = Awaited<ReturnType<ReturnType<typeof routedIsolate>>>

/** The retry page: 503, try again in 30 s, never stored. */
function expectRetryPage(path: string, { res, body }: Answer): void {
  expect(res.status, path).toBe(503)
  expect(res.headers.get('retry-after'), path).toBe('30')
  expect(res.headers.get('cache-control'), path).toBe('no-store')
  expect(body, path).toContain('503: Service Unavailable')
}

/** A profile and a job of `city` (on its shard), from its listings. */
async function entitiesOf(city: string): Promise<string[]> {
  const get = routedIsolate()
  const profile = cardLinks((await get(`/babysitters/${city}`)).body)[0]
  const job = /href="(\/job\/[^"]+)"/.exec((await get(`/babysitting-jobs/${city}`)).body)?.[1]
  if (!profile || !job) throw new Error(`no profile or job in ${city}`)
  return [profile, job]
}

/** The pages of `city`: its directory, job listing, hub and cost guide. */
const cityPages = (city: string) => [
  `/babysitters/${city}`,
  `/babysitting-jobs/${city}`,
  `/local/${city}`,
  `/cost/nannies/${city}`,
]

// The `two` layout: Atlanta on SHARD_00 with the East (Boston, Massachusetts); the rest of
// Georgia with the West (Denver, Colorado) on SHARD_01, so Georgia's state page reads both.
const NATIONAL = [
  '/',
  '/tutors',
  '/cost/nannies',
  '/adult-care',
  '/explore/d/music',
  '/sitemap.xml',
  '/sitemaps/pages.xml',
  '/sitemaps/directories-1.xml',
  '/sitemaps/providers-1.xml',
  '/sitemaps/jobs-1.xml',
  '/robots.txt',
]
const SEARCH = '/search?service=babysitters&place=Atlanta'

// The layout of two shards names which pages each holds; on one shard, control's outage alone.
describe.skipIf(databasesOf(env).shards.length < 2)('one shard failing', () => {
  it.each([
    {
      down: 'SHARD_01',
      city: 'denver-co',
      state: '/nannies/co',
      healthy: { city: 'atlanta-ga', state: '/nannies/ma', more: '/nannies/boston-ma' },
    },
    {
      down: 'SHARD_00',
      city: 'atlanta-ga',
      state: '/nannies/ma',
      healthy: { city: 'denver-co', state: '/nannies/co', more: '/housekeeping/seattle-wa' },
    },
  ] as const)(
    "$down: its cities', state's and entities' pages answer the retry page, every other page 200",
    async ({ down, city, state, healthy }) => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined)
      const [failing, answering] = [await entitiesOf(city), await entitiesOf(healthy.city)]
      noCopies()
      const get = routedIsolate()
      const bindings = { [down]: unreachable(env[down]) }
      // Georgia's state page reads both shards, so it fails with either.
      for (const path of [...cityPages(city), state, '/babysitters/ga', ...failing])
        expectRetryPage(path, await get(path, bindings))
      for (const path of [
        ...cityPages(healthy.city),
        healthy.state,
        healthy.more,
        ...answering,
        ...NATIONAL,
      ])
        expect((await get(path, bindings)).res.status, path).toBe(200)
      // A search is control's alone: its redirect to the city's page.
      expect((await get(SEARCH, bindings)).res.status).toBe(302)
    },
  )

  it("serves the stored copies of the failing shard's pages, its profiles and jobs", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const [profile = '', job = ''] = await entitiesOf('denver-co')
    const stored = new Map<string, string>()
    const healthy = routedIsolate()
    for (const path of ['/babysitters/denver-co', '/babysitting-jobs/denver-co', profile, job]) {
      const { res, body } = await healthy(path)
      expect(res.status, path).toBe(200)
      stored.set(path, sameDocument(body))
    }
    const bindings = { SHARD_01: unreachable(env.SHARD_01) }
    const expectStale = async (path: string) => {
      // A fresh isolate: no page kept in memory, so its copy is the Cache API's.
      const { res, body, cache } = await routedIsolate()(path, bindings)
      expect([res.status, cache], path).toEqual([200, 'STALE'])
      expect(sameDocument(body), path).toBe(stored.get(path))
    }
    // Two hours on, the listings and the job are past their fresh and stale windows (a job's
    // copy is kept a day for errors); two days on, the profile (stale for a day) too.
    later(2 * HOUR)
    for (const path of ['/babysitters/denver-co', '/babysitting-jobs/denver-co', job])
      await expectStale(path)
    later(46 * HOUR)
    await expectStale(profile)
    // With no copy, the retry page.
    expectRetryPage('/nannies/denver-co', await routedIsolate()('/nannies/denver-co', bindings))
  })
})

describe('control failing', () => {
  it("answers a city's job listing from its shard, and the retry page for every page that reads control first", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const entities = [...(await entitiesOf('atlanta-ga')), ...(await entitiesOf('denver-co'))]
    noCopies()
    const get = routedIsolate()
    // An isolate that has served a page keeps the cities (and the gate, the flags).
    expect((await get('/senior-care/miami-fl')).res.status).toBe(200)
    const bindings = controlDown()
    for (const path of ['/babysitting-jobs/atlanta-ga', '/babysitting-jobs/denver-co'])
      expect((await get(path, bindings)).res.status, path).toBe(200)
    // A directory, a hub and a cost guide show the state's and the nation's figures (control's
    // rollups) in their first round trip; a profile or a job reads the directory first.
    const control = [
      '/babysitters/atlanta-ga',
      '/local/denver-co',
      '/cost/nannies/denver-co',
      '/nannies/co',
      '/babysitters/ga',
      ...NATIONAL.filter((path) => path !== '/robots.txt'),
      SEARCH,
      ...entities,
    ]
    for (const path of control) expectRetryPage(path, await get(path, bindings))
    expect((await get('/robots.txt', bindings)).res.status).toBe(200)
  })

  it('answers the retry page for every page in an isolate started while control is down', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    noCopies()
    // The cities are read from control, whole, before any page of a city is.
    const path = '/babysitting-jobs/denver-co'
    expectRetryPage(path, await routedIsolate()(path, controlDown()))
  })

  it('serves stored copies while the purges an isolate knows are current, then the retry page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const [profile = ''] = await entitiesOf('atlanta-ga')
    const stored = new Map<string, string>()
    for (const path of ['/tutors', '/babysitters/atlanta-ga', profile]) {
      const { res, body } = await routedIsolate()(path)
      expect(res.status, path).toBe(200)
      stored.set(path, sameDocument(body))
    }
    // Past every page's fresh and stale windows, within what is kept for errors; an isolate that
    // read the purges at that moment, then control goes down (the clock held still).
    later(50 * HOUR)
    const get = routedIsolate()
    expect((await get('/senior-care/miami-fl')).res.status).toBe(200)
    for (const path of stored.keys()) {
      const { res, body, cache } = await get(path, controlDown())
      expect([res.status, cache], path).toEqual([200, 'STALE'])
      expect(sameDocument(body), path).toBe(stored.get(path))
    }
    // Once what it knows of the purges is older than 5 s, a copy may be a purged one: rendered
    // again, never served as it is. Only what reads its shard alone still answers.
    later(6_000)
    for (const path of stored.keys()) expectRetryPage(path, await get(path, controlDown()))
    expect((await get('/babysitting-jobs/atlanta-ga', controlDown())).res.status).toBe(200)
  })
})
