import { env, exports } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { ORIGIN, settled } from '../support/fetch-page'

// In a file of its own: these tests break storage for real, and storage is per test file.

it('never stores a page whose streamed section failed', async () => {
  // Related links read job counts; the main listing does not. Only that section fails.
  await env.DB.exec('ALTER TABLE job_city_stats RENAME TO job_city_stats_away')
  try {
    const first = await settled('/nannies/denver-co')
    expect(first.res.status).toBe(200)
    expect(first.body).toContain('Nannies in Denver, CO')
    const second = await settled('/nannies/denver-co')
    expect([first.cache, second.cache]).toEqual(['MISS', 'MISS'])
  } finally {
    await env.DB.exec('ALTER TABLE job_city_stats_away RENAME TO job_city_stats')
  }
})

it('serves the stored copy when storage fails, and 503 with Retry-After where there is none', async () => {
  const cached = await settled('/babysitters/denver-co')
  expect(cached.cache).toBe('MISS')
  const purged = await exports.default.fetch(
    new Request(`${ORIGIN}/__ops/purge`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-ops-token' },
      body: JSON.stringify({ urls: ['/babysitters/denver-co'] }),
    }),
  )
  expect(purged.status).toBe(200)
  // Live rows: derived tables may be answered from memory for a minute.
  await env.DB.exec('DROP TABLE provider_services')

  const stale = await settled('/babysitters/denver-co')
  expect(stale.res.status).toBe(200)
  expect(stale.cache).toBe('STALE')
  expect(stale.body).toBe(cached.body)

  const none = await settled('/babysitters/austin-tx')
  expect(none.res.status).toBe(503)
  expect(none.res.headers.get('retry-after')).toBe('30')
  expect(none.res.headers.get('cache-control')).toBe('no-store')
  expect((await settled('/babysitters/austin-tx')).res.status).toBe(503)
})
