import { env } from 'cloudflare:workers'
import { afterEach, expect, it, vi } from 'vitest'
import { REFRESH_MS } from '../../src/cache/generations'
import { purge, shardOf } from '../support/builders'
import { anIsolate, sameDocument } from '../support/fetch-page'
import { withStatementFaults } from '../support/with-faults'

// A purge holds for every request, an idle isolate's too: an isolate that has read no purges for
// REFRESH_MS (the clock moved on, no request came) reads them before it serves a stored copy,
// and renders instead when they cannot be read in time. The purge is written by another path
// (the worker's own isolate, through /__ops/purge), as another data centre's would be.

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Sets the headline of every pet carer in `city`, as a data change does. */
async function headlines(city: string, headline: string) {
  await shardOf(city)
    .prepare(
      `UPDATE providers SET headline = ? WHERE id IN (
       SELECT ps.provider_id FROM provider_services ps JOIN cities c ON c.id = ps.city_id
       WHERE ps.service = 'pet-care' AND c.slug = ?)`,
    )
    .bind(headline, city)
    .run()
}

/** An isolate holding `city`'s page with `old` in it, then the data changed and purged elsewhere. */
async function idleAfterAPurge(city: string, old: string, now: string) {
  const path = `/pet-care/${city}`
  await headlines(city, old)
  const isolate = anIsolate()
  await isolate.settled(path)
  const hit = await isolate.settled(path)
  expect([hit.cache, hit.body.includes(old)]).toEqual(['HIT', true])
  await headlines(city, now)
  await purge({ urls: [path] })
  // Idle: no request for longer than REFRESH_MS.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + REFRESH_MS + 1)
  return isolate
}

it('never serves the old copy after idling past REFRESH_MS: it reads the purges first', async () => {
  const isolate = await idleAfterAPurge('austin-tx', 'Old headline before a quiet spell', 'New')
  for (let i = 0; i < 2; i++) {
    const next = await isolate.settled('/pet-care/austin-tx')
    expect(next.body).not.toContain('Old headline before a quiet spell')
    expect(next.body).toContain('New')
  }
  expect(isolate.memory.purges.current).toBe(true)
})

it('renders instead of serving when the purges cannot be read by the deadline', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const isolate = await idleAfterAPurge('seattle-wa', 'Old headline, purges unreadable', 'Newer')
  const failing = withStatementFaults(env.CONTROL, (sql) =>
    sql.includes('FROM purges')
      ? { all: () => Promise.reject(new Error('D1 unavailable')) }
      : undefined,
  )
  const next = await isolate.settled('/pet-care/seattle-wa', {}, { CONTROL: failing })
  expect(next.cache).toBe('MISS')
  expect(next.body).not.toContain('Old headline, purges unreadable')
  expect(sameDocument(next.body)).toContain('Newer')
})
