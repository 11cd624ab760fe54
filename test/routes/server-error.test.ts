import { env } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { page } from '../support/fetch-page'

// In a file of its own: storage is isolated per test file, and this test breaks the catalog.
it('answers 500 with the error page when storage fails for real', async () => {
  await env.DB.exec('DROP TABLE service_city_stats')
  const { res, html } = await page('/babysitters/atlanta-ga')
  expect(res.status).toBe(500)
  expect(html).toContain('500: Internal Server Error')
  expect(res.headers.get('cache-control')).toBe('no-store')
})
