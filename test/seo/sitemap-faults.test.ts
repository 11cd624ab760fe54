import { afterEach, expect, it, vi } from 'vitest'
import { anIsolate, settled } from '../support/fetch-page'
import { statementFaultsEverywhere } from '../support/databases'

// Sitemaps read all their rows before they decide their status. In a file of its own: these
// tests need a sitemap file never stored before, and the Cache API is per test file.

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/** The real D1, every read failing (but the purge store's, whose failure has tests of its own). */
const failing = () =>
  statementFaultsEverywhere((sql) =>
    sql.includes('FROM purge')
      ? undefined
      : { all: () => Promise.reject(new Error('D1 unavailable')) },
  )

it('answers a sitemap with D1 failing and no stored copy 503 with Retry-After, never an empty 200', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  // A fresh isolate: no derived reads kept in memory, every read goes to the failing D1.
  for (const path of ['/sitemaps/pages.xml', '/sitemaps/directories-1.xml']) {
    const { res } = await anIsolate().settled(path, {}, failing())
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('30')
    expect(res.headers.get('cache-control')).toBe('no-store')
  }
})

it('serves the stored copy of a sitemap when D1 fails', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const stored = await settled('/sitemaps/pages.xml')
  expect(stored.res.status).toBe(200)
  expect(stored.body).toContain('<urlset')
  // Two days on: past fresh and stale-while-revalidate, kept for errors only (a purged copy
  // would never come back).
  const now = Date.now()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now + 2 * 86_400_000)
  const served = await anIsolate().settled('/sitemaps/pages.xml', {}, failing())
  expect(served.res.status).toBe(200)
  expect(served.cache).toBe('STALE')
  expect(served.body).toBe(stored.body)
})
