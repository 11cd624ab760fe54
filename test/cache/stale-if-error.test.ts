import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { afterEach, expect, it, vi } from 'vitest'
import worker from '../../src/worker'
import type { App } from '../support/fetch-page'
import { anIsolate, ORIGIN, PHONE, sameDocument, settled } from '../support/fetch-page'
import { everyDatabase, shardOf } from '../support/builders'
import { statementFaultsEverywhere } from '../support/databases'

// In a file of its own: these tests break storage for real, and storage is per test file.

afterEach(() => {
  vi.useRealTimers()
})

/** Two hours on: a directory page (10 min fresh, then 1 h STALE) is expired but still kept. */
function pastStaleWindow(): void {
  const now = Date.now()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now + 2 * 3_600_000)
}

it('never stores a page whose streamed section failed', async () => {
  // Related links read job counts; the main listing does not. Only that section fails.
  // Wherever a section reads them: the city's shard, or control's copies.
  const databases = everyDatabase()
  for (const db of databases)
    await db.exec('ALTER TABLE job_city_stats RENAME TO job_city_stats_away')
  try {
    const first = await settled('/nannies/denver-co')
    expect(first.res.status).toBe(200)
    expect(first.body).toContain('Nannies in Denver, CO')
    const second = await settled('/nannies/denver-co')
    expect([first.cache, second.cache]).toEqual(['MISS', 'MISS'])
  } finally {
    for (const db of databases)
      await db.exec('ALTER TABLE job_city_stats_away RENAME TO job_city_stats')
  }
})

/** Control and the shards, each page read answered by `answer` (which may call the real `read`). */
function d1Answering(answer: (sql: string, read: () => Promise<unknown>) => Promise<unknown>) {
  return statementFaultsEverywhere((sql) => ({ all: (read) => answer(sql, read) }))
}

/**
 * A request over `db`, through the worker or another isolate, its background work finished when
 * it returns.
 */
async function over(bindings: Partial<Env>, path: string, app: App = worker) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
    { ...env, ...bindings },
    ctx,
  )
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

it('answers a render error with the 500 page and stores nothing', async () => {
  // D1 answering with a shape no code expects: an error in the page's own code, not storage.
  const broken = d1Answering((sql, read) =>
    sql.includes('provider_services')
      ? Promise.resolve({ results: [{ id: null, firstName: null }] })
      : read(),
  )
  const { res, body } = await over(broken, '/housekeeping/seattle-wa')
  expect(res.status).toBe(500)
  expect(body).toContain('500: Internal Server Error')
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect((await settled('/housekeeping/seattle-wa')).cache).toBe('MISS')
})

it('never serves a purged copy, not even when rendering fails: 503 instead', async () => {
  const cached = await settled('/tutors/denver-co')
  expect(cached.cache).toBe('MISS')
  // A takedown: the provider's page and every page showing its card.
  const purged = await exports.default.fetch(
    new Request(`${ORIGIN}/__ops/purge`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-ops-token' },
      body: JSON.stringify({ urls: ['/tutors/denver-co'] }),
    }),
  )
  expect(purged.status).toBe(200)
  const failing = d1Answering((sql, read) =>
    sql.includes('provider_services') ? Promise.reject(new Error('D1 unavailable')) : read(),
  )
  for (const app of [worker, anIsolate().app]) {
    const res = await over(failing, '/tutors/denver-co', app)
    expect(res.res.status).toBe(503)
    expect(res.res.headers.get('retry-after')).toBe('30')
    expect(res.res.headers.get('x-cache')).not.toBe('STALE')
    expect(sameDocument(res.body)).not.toBe(sameDocument(cached.body))
  }
})

it('serves the stored copy when storage fails, and 503 with Retry-After where there is none', async () => {
  const cached = await settled('/babysitters/denver-co')
  expect(cached.cache).toBe('MISS')
  pastStaleWindow()
  // Live rows: derived tables may be answered from memory for a minute.
  await shardOf('denver-co').exec('DROP TABLE provider_services')

  const stale = await settled('/babysitters/denver-co')
  expect(stale.res.status).toBe(200)
  expect(stale.cache).toBe('STALE')
  expect(sameDocument(stale.body)).toBe(sameDocument(cached.body))

  const none = await settled('/babysitters/austin-tx')
  expect(none.res.status).toBe(503)
  expect(none.res.headers.get('retry-after')).toBe('30')
  expect(none.res.headers.get('cache-control')).toBe('no-store')
  expect((await settled('/babysitters/austin-tx')).res.status).toBe(503)
})
