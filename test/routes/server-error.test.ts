import { env } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { page } from '../support/fetch-page'

// In a file of its own: storage is isolated per test file, and this test breaks the catalog.
it('answers 503 with Retry-After and no-store when storage fails and no copy is cached', async () => {
  await env.DB.exec('DROP TABLE service_city_stats')
  const { res, html } = await page('/babysitters/atlanta-ga')
  expect(res.status).toBe(503)
  expect(html).toContain('503: Service Unavailable')
  expect(res.headers.get('retry-after')).toBe('30')
  expect(res.headers.get('cache-control')).toBe('no-store')
  const again = await page('/babysitters/atlanta-ga')
  expect(again.res.status).toBe(503)
  expect(again.res.headers.get('x-cache')).toBe('BYPASS')
})
