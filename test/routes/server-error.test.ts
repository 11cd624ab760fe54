import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import type { Event as SentryEvent } from '@sentry/types'
import { expect, inject, it, vi } from 'vitest'
import worker from '../../src/worker'
import { aProvider, cityId, onEntityShard, shardOf } from '../support/builders'
import { statementFaultsEverywhere } from '../support/databases'
import { GOOGLEBOT, ORIGIN, page, PHONE, sameDocument, settled } from '../support/fetch-page'

// In a file of its own: storage is isolated per test file, and these tests break the catalog.

/** The function names in the stack of the error the capture server received for `path`. */
async function reportedFrames(path: string): Promise<string[]> {
  const res = await fetch(`${inject('sentryOrigin')}/envelopes`)
  const envelopes = await res.json<{ project: string; body: string }[]>()
  // Project 1 is the pool's DSN; test/observability/sentry.test.ts reports to one of its own.
  const event = envelopes
    .filter((e) => e.project === '1')
    .map((e) => JSON.parse(e.body.split('\n')[2] ?? '{}') as SentryEvent)
    .find((e) => e.request?.url?.endsWith(path) && e.exception)
  return (event?.exception?.values ?? []).flatMap((v) =>
    (v.stacktrace?.frames ?? []).map((f) => f.function ?? ''),
  )
}

it('answers a render error inside the React shell with the 500 page, and stores nothing', async () => {
  // A date no code expects, met by the profile's own component while React renders the shell:
  // every read has succeeded and the stream has started when it throws.
  const p = await aProvider({
    cityId: await cityId('atlanta-ga'),
    service: 'babysitters',
    createdAt: 'sometime last spring',
  })
  const broken = await settled(`/p/test-p-${p.id}`)
  expect(broken.res.status).toBe(500)
  expect(broken.body).toContain('500: Internal Server Error')
  expect(broken.body).not.toContain('Member since')
  expect(broken.res.headers.get('cache-control')).toBe('no-store')
  // Thrown by the component, inside React's render (as the error report's stack shows).
  expect(await reportedFrames(`/p/test-p-${p.id}`)).toEqual(
    expect.arrayContaining(['renderWithHooks', 'ProfilePage', 'monthYear']),
  )

  await onEntityShard('provider', p.id, (db) => [
    db
      .prepare('UPDATE providers SET created_at = ? WHERE id = ?')
      .bind('2026-01-01T00:00:00Z', p.id),
  ])
  const fixed = await settled(`/p/test-p-${p.id}`)
  expect([fixed.res.status, fixed.cache]).toEqual([200, 'MISS'])
  expect((await settled(`/p/test-p-${p.id}`)).cache).toBe('HIT')
})

/** The real D1, except that the similar-providers read answers, a moment later, rows no card can show. */
const similarUnreadable = statementFaultsEverywhere((sql) =>
  sql.includes('ps.provider_id != ?')
    ? {
        all: () =>
          new Promise((resolve) =>
            setTimeout(() => resolve({ results: [{ id: null, firstName: null }] }), 50),
          ),
      }
    : undefined,
)

it('keeps the fallback of a section that fails after the shell has streamed, and stores nothing', async () => {
  const p = await aProvider({ cityId: await cityId('atlanta-ga'), service: 'nannies' })
  const path = `/p/test-p-${p.id}`
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
    { ...env, ...similarUnreadable },
    ctx,
  )
  // Status and headers were sent with the shell, before the section failed.
  expect(res.status).toBe(200)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  expect(body).toContain('<h1>Test P.</h1>')
  expect(body).toContain('<p class="loading">Loading similar providers…</p>')
  expect(body).not.toContain('id="similar-title"')
  expect(body).toContain('</html>')
  // Never stored: the next visitor gets a fresh render, with the section.
  const next = await settled(path)
  expect(next.cache).toBe('MISS')
})

it('gives a crawler whose page had a section fail the stored copy, or 503 with Retry-After', async () => {
  const asCrawler = { headers: { 'user-agent': GOOGLEBOT } }
  const p = await aProvider({ cityId: await cityId('atlanta-ga'), service: 'nannies' })
  const path = `/p/test-p-${p.id}`
  const none = await settled(path, asCrawler, similarUnreadable)
  expect(none.res.status).toBe(503)
  expect(none.res.headers.get('retry-after')).toBe('30')
  expect(none.res.headers.get('cache-control')).toBe('no-store')
  expect(none.body).not.toContain('Loading similar providers')

  // A complete copy, stored and then expired (two days on: past fresh and past
  // stale-while-revalidate, kept for errors): it stands in while rendering fails. A purged copy
  // never would (stale-if-error.test.ts).
  const stored = await settled(path, asCrawler)
  expect([stored.res.status, stored.cache]).toEqual([200, 'MISS'])
  const now = Date.now()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now + 2 * 86_400_000)
  const stale = await settled(path, asCrawler, similarUnreadable)
  expect([stale.res.status, stale.cache]).toEqual([200, 'STALE'])
  expect(sameDocument(stale.body)).toBe(sameDocument(stored.body))
  vi.useRealTimers()
})

it('answers 503 with Retry-After and no-store when storage fails and no copy is cached', async () => {
  await shardOf('atlanta-ga').exec('DROP TABLE service_city_stats')
  const { res, html } = await page('/babysitters/atlanta-ga')
  expect(res.status).toBe(503)
  expect(html).toContain('503: Service Unavailable')
  expect(res.headers.get('retry-after')).toBe('30')
  expect(res.headers.get('cache-control')).toBe('no-store')
  const again = await page('/babysitters/atlanta-ga')
  expect(again.res.status).toBe(503)
  expect(again.res.headers.get('x-cache')).toBe('BYPASS')
})
