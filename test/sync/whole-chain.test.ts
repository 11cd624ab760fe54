import { env, exports } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import type { CatalogMessage } from '../../src/sync/messages'
import { anIsolate, settled, textOf } from '../support/fetch-page'
import { aMessage } from './examples'

// The chain a marketplace relies on, with nothing called by hand: POST /__ops/catalog through
// the worker, the real local queue, the worker's own consumer, the purge recorded with the
// change, and the page a visitor then gets, re-rendered with the new data; a removal, then 410.

// A new provider id the gate lets through: within its margin above the ids it was built with.
const ID =
  ((
    await env.CONTROL.prepare('SELECT MAX(id) AS id FROM provider_directory').first<{
      id: number
    }>()
  )?.id ?? 0) + 400
const PROFILE = `/p/maria-g-${ID}`
const LISTING = '/babysitters/atlanta-ga'
const HEADLINE = 'Bilingual babysitter, evenings and weekends'

async function post(messages: CatalogMessage[]) {
  const res = await exports.default.fetch(
    new Request('https://www.care.example/__ops/catalog', {
      method: 'POST',
      headers: {
        authorization: 'Bearer test-sync-token',
        'content-type': 'application/json',
        'cf-connecting-ip': '192.0.2.77',
      },
      body: JSON.stringify(messages),
    }),
  )
  return { status: res.status, json: await res.json<Record<string, unknown>>() }
}

/**
 * Until the queue has delivered the change at `version` to the consumer and it is applied: the
 * version control's directory (or its tombstone, for a removal) holds once control has applied
 * the shard's outbox, in the batch that records the change's purge. A poll that ends as the row
 * appears; only its ceiling is a clock.
 */
async function applied(version: number, removed: 0 | 1) {
  await vi.waitFor(
    async () => {
      const row = await env.CONTROL.prepare(
        `SELECT COALESCE(d.version, t.version) AS version, d.id IS NULL AND t.key IS NOT NULL AS removed
           FROM (SELECT 1) LEFT JOIN provider_directory d ON d.id = ?1
           LEFT JOIN directory_tombstones t ON t.key = ?2`,
      )
        .bind(ID, `provider:${ID}`)
        .first()
      expect(row).toEqual({ version, removed })
    },
    { timeout: 30_000, interval: 50 },
  )
}

/** Served until stored, then a hit: the page's copy is in the edge cache. */
async function stored(path: string) {
  await settled(path)
  expect([path, (await settled(path)).cache]).toEqual([path, 'HIT'])
}

describe('a catalog change, end to end', () => {
  // Three trips through the queue, each delivered after its batch timeout (wrangler.toml).
  it('reaches the page a visitor gets through the queue and the purge, and a removal answers 410', async () => {
    const provider = (version: number, headline: string) =>
      aMessage('provider.upserted', (m) => {
        m.id = ID
        m.version = version
        m.entity.headline = headline
      })
    const listing = aMessage('provider-service.offered', (m) => {
      m.id = ID
      m.version = 1e12
      // First on the listing's first page.
      m.entity.rankScore = 10_000
    })
    await stored(LISTING)
    expect(textOf((await settled(LISTING)).body)).not.toContain('Maria G.')
    expect((await settled(PROFILE)).res.status).toBe(404)

    expect(await post([provider(1e12, 'Patient babysitter'), listing])).toMatchObject({
      status: 202,
      json: { accepted: 2 },
    })
    await applied(1e12, 0)
    // Another isolate, which applied nothing: the purge reached it through D1.
    const first = anIsolate()
    const page = await first.settled(LISTING)
    expect([page.res.status, page.cache]).toEqual([200, 'MISS'])
    expect(page.body).toContain(`href="${PROFILE}"`)
    await stored(PROFILE)

    expect(await post([provider(2e12, HEADLINE)])).toMatchObject({ status: 202 })
    await applied(2e12, 0)
    const changed = await anIsolate().settled(PROFILE)
    expect([changed.res.status, changed.cache]).toEqual([200, 'MISS'])
    expect(textOf(changed.body)).toContain(HEADLINE)

    const removal = aMessage('provider.removed', (m) => ((m.id = ID), (m.version = 3e12)))
    expect(await post([removal])).toMatchObject({ status: 202 })
    await applied(3e12, 1)
    const after = anIsolate()
    const gone = await after.settled(PROFILE)
    expect(gone.res.status).toBe(410)
    const relisted = await after.settled(LISTING)
    expect([relisted.res.status, relisted.cache]).toEqual([200, 'MISS'])
    expect(relisted.body).not.toContain(`href="${PROFILE}"`)
  }, 120_000)
})
