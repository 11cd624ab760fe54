import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  forgetOldPurges,
  KnownPurges,
  PURGE_KEEP_MS,
  PURGE_STATE_DEADLINE_MS,
  READ_EVERY_MS,
  REFRESH_MS,
} from '../../src/cache/generations'
import { purge } from '../support/builders'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, ORIGIN, PHONE, sameDocument, settled } from '../support/fetch-page'
import { statementFaultsEverywhere } from '../support/databases'
import { withStatementFaults } from '../support/with-faults'

// The purge store (D1's `purges` table) slow, failing or growing, through the real worker and
// the real local D1. In a file of its own: these tests delay and break storage.

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const PURGE_READ = 'FROM purges'

/** The real D1, its reads of the purges answered by `answer` (which may call the real `read`). */
function purgeReads(answer: (read: () => Promise<D1Result>) => Promise<unknown>): D1Database {
  return withStatementFaults(env.CONTROL, (sql) =>
    sql.includes(PURGE_READ) ? { all: (read) => answer(read) } : undefined,
  )
}

/** A read that waits until `release()`: what a test does meanwhile happened before it answered. */
function heldRead() {
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => (release = resolve))
  return { until: <T>(read: () => Promise<T>) => released.then(read), release }
}

/** A request through `isolate` over `db`, answered without waiting for its background work. */
async function through(isolate: Isolate, path: string, db: D1Database | Partial<Env>) {
  const ctx = createExecutionContext()
  const started = performance.now()
  const res = await isolate.worker.fetch(
    new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
    { ...env, ...('prepare' in db ? { CONTROL: db } : db) },
    ctx,
  )
  const body = await res.text()
  return { res, body, ms: performance.now() - started, settled: () => waitOnExecutionContext(ctx) }
}

describe('the purges an isolate knows', () => {
  it('are read from D1: a fresh isolate reads them all, then only what changed since', async () => {
    const read: number[] = []
    const db = purgeReads(async (real) => {
      const result = await real()
      read.push(result.results.length)
      return result
    })
    await purge({ tags: ['city:boston-ma'] })
    await settled('/nannies/boston-ma')
    const isolate = anIsolate()
    await isolate.settled('/nannies/boston-ma', {}, { CONTROL: db })
    expect(read.length).toBe(1)
    expect(read[0]).toBeGreaterThanOrEqual(1)
    // Another isolate's purge; this one asks again once REFRESH_MS has passed.
    await purge({ tags: ['city:seattle-wa', 'provider:424242'] })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + REFRESH_MS + 1)
    await isolate.settled('/nannies/boston-ma', {}, { CONTROL: db })
    expect(read).toEqual([read[0], 2])
    expect(isolate.memory.purges.newestOf(['provider:424242'])).toBeGreaterThan(0)
  })

  it('apply under read replication: each read continues from where the last one stood', async () => {
    const sessions: unknown[] = []
    const db = withStatementFaults(env.CONTROL, () => undefined)
    const watched = new Proxy(db, {
      get(target, prop) {
        if (prop !== 'withSession') return Reflect.get(target, prop) as unknown
        return (constraint: string | undefined) => {
          sessions.push(constraint)
          return target.withSession(constraint)
        }
      },
    })
    const known = new KnownPurges()
    await known.refresh(watched)
    await known.refresh(watched)
    expect(sessions[0]).toBe('first-unconstrained')
    // The second read opens its session at the first one's bookmark: never an older replica.
    expect(typeof sessions[1]).toBe('string')
    expect(sessions[1]).not.toBe('first-unconstrained')
  })

  it('forget generations older than any stored page, so memory stays bounded', async () => {
    const known = new KnownPurges()
    const now = Date.now()
    known.record(['provider:1'], now - PURGE_KEEP_MS - 1)
    known.record(['provider:2'], now - 1)
    await known.refresh(env.CONTROL)
    expect(known.newestOf(['provider:1'])).toBe(0)
    expect(known.newestOf(['provider:2'])).toBe(now - 1)
  })

  it('are deleted from D1 by the cron once older than any stored page', async () => {
    const now = Date.now()
    await env.CONTROL.prepare(
      "INSERT INTO purges (at, tag) VALUES (?, 'provider:old'), (?, 'provider:new')",
    )
      .bind(now - PURGE_KEEP_MS - 1, now)
      .run()
    expect(await forgetOldPurges(env.CONTROL, now)).toBeGreaterThanOrEqual(1)
    const tags = await env.CONTROL.prepare(
      "SELECT tag FROM purges WHERE tag IN ('provider:old', 'provider:new')",
    ).all<{ tag: string }>()
    expect(tags.results.map((r) => r.tag)).toEqual(['provider:new'])
  })
})

describe('a stored page', () => {
  it('is served at once while the purges are read again in the background, however slow', async () => {
    await settled('/special-needs/austin-tx')
    const isolate = anIsolate()
    expect((await isolate.settled('/special-needs/austin-tx')).cache).toBe('HIT')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + READ_EVERY_MS + 1)
    const purges = heldRead()
    const hit = await through(isolate, '/special-needs/austin-tx', purgeReads(purges.until))
    // Answered, and its body read, while the read of the purges has not answered.
    expect(hit.res.headers.get('x-cache')).toBe('HIT')
    expect(isolate.memory.purges.loading).toBe(true)
    purges.release()
    await hit.settled()
    expect(isolate.memory.purges.loading).toBe(false)
  })

  it('is rendered, not served, by a cold isolate that cannot read the purges by the deadline', async () => {
    const stored = await settled('/special-needs/denver-co')
    expect(stored.cache).toBe('MISS')
    const purges = heldRead()
    const isolate = anIsolate()
    const cold = await through(isolate, '/special-needs/denver-co', purgeReads(purges.until))
    // Rendered once the deadline passed, while the read of the purges has not answered.
    expect([cold.res.status, cold.res.headers.get('x-cache')]).toEqual([200, 'MISS'])
    expect(isolate.memory.purges.loading).toBe(true)
    expect(cold.ms).toBeGreaterThanOrEqual(PURGE_STATE_DEADLINE_MS - 5)
    purges.release()
    await cold.settled()
  })

  it('stands in when that render fails, if the purges read meanwhile show it was not purged', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const stored = await settled('/special-needs/boston-ma')
    const isolate = anIsolate()
    const purges = heldRead()
    // The purges answer after their deadline (the render has begun) and before the render fails
    // (its listings, on the city's shard).
    const db = statementFaultsEverywhere((sql) => {
      if (sql.includes(PURGE_READ)) return { all: purges.until }
      if (sql.includes('provider_services'))
        return {
          all: async () => {
            purges.release()
            await vi.waitUntil(() => isolate.memory.purges.known)
            throw new Error('D1 unavailable')
          },
        }
      return undefined
    })
    const cold = await through(isolate, '/special-needs/boston-ma', db)
    expect(cold.res.headers.get('x-cache')).toBe('STALE')
    expect(sameDocument(cold.body)).toBe(sameDocument(stored.body))
    await cold.settled()
  })

  it('is rendered by a cold isolate whose purge read fails; a warm one keeps what it knows', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const stored = await settled('/special-needs/seattle-wa')
    const failing = purgeReads(() => Promise.reject(new Error('D1 unavailable')))
    const cold = anIsolate()
    const first = await through(cold, '/special-needs/seattle-wa', failing)
    expect(first.res.headers.get('x-cache')).toBe('MISS')
    await first.settled()
    // A warm isolate: its purges known, then unreadable: served by what it knows.
    const warm = anIsolate()
    expect((await warm.settled('/special-needs/seattle-wa')).cache).toBe('HIT')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + READ_EVERY_MS + 1)
    const hit = await through(warm, '/special-needs/seattle-wa', failing)
    expect(hit.res.headers.get('x-cache')).toBe('HIT')
    expect(sameDocument(hit.body)).toBe(sameDocument(stored.body))
    await hit.settled()
  })
})

it('a purge D1 cannot record answers 503, purges nothing and is logged as failed', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  await settled('/tutors/austin-tx')
  const res = await settled(
    '/__ops/purge',
    {
      method: 'POST',
      headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
      body: JSON.stringify({ tags: ['city:austin-tx'] }),
    },
    {
      CONTROL: withStatementFaults(env.CONTROL, (sql) =>
        sql.startsWith('INSERT INTO purges')
          ? { run: () => Promise.reject(new Error('D1 unavailable')) }
          : undefined,
      ),
    },
  )
  expect(res.res.status).toBe(503)
  expect(JSON.parse(res.body)).toMatchObject({ logged: true })
  expect((await settled('/tutors/austin-tx')).cache).toBe('HIT')
  const row = await env.CONTROL.prepare(
    'SELECT token_name, purged, outcome FROM purge_log WHERE tags = \'["city:austin-tx"]\'',
  ).first<{ token_name: string; purged: number; outcome: string }>()
  expect(row).toMatchObject({ token_name: 'ops', purged: 0 })
  expect(row?.outcome).toMatch(/^failed: .*D1 unavailable/)
})
