import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { applyAcross } from '../support/databases'
import { COALESCE_MS, flushPendingPurges, SITEMAP_TAG } from '../../src/sync/purge-tags'
import { aMessage } from './examples'

// A change purges its provider's profile and its city's pages at once; its state page, its
// service's national page and the sitemaps within COALESCE_MS, once however many changes came in
// that minute. The clock is injected: each test runs at its own instant, far from the others'.

const ID = 960_000_001
const AT_ONCE = ['provider:' + ID, `url:/p/maria-g-${ID}`, 'url:/babysitters/atlanta-ga']
const COALESCED = ['url:/babysitters/ga', 'url:/babysitters', SITEMAP_TAG]

let version = 2e12
const provider = (id = ID, headline = 'A headline') =>
  aMessage('provider.upserted', (m) => {
    m.id = id
    m.version = version++
    m.entity.headline = headline
  })
const listing = (id = ID) =>
  aMessage('provider-service.offered', (m) => {
    m.id = id
    m.version = version++
  })

/** The purges recorded at or after `from` of `tags`: tag → the times it was purged. */
async function purgesOf(tags: readonly string[], from: number): Promise<Record<string, number[]>> {
  const { results } = await env.CONTROL.prepare(
    `SELECT tag, at FROM purges WHERE at >= ? AND tag IN (SELECT value FROM json_each(?))
      ORDER BY seq`,
  )
    .bind(from, JSON.stringify(tags))
    .all<{ tag: string; at: number }>()
  const byTag: Record<string, number[]> = Object.fromEntries(tags.map((tag) => [tag, []]))
  for (const { tag, at } of results) byTag[tag]?.push(at)
  return byTag
}

describe('purges of a catalog change', () => {
  it('purges the profile and the city directory at once, the state, national and sitemap pages within the minute', async () => {
    const t0 = Date.UTC(2031, 0, 1)
    await applyAcross([provider(), listing()], { now: new Date(t0) })
    const atOnce = await purgesOf([...AT_ONCE, ...COALESCED], t0)
    for (const tag of AT_ONCE) expect([tag, atOnce[tag]]).toEqual([tag, [t0]])
    for (const tag of COALESCED) expect([tag, atOnce[tag]]).toEqual([tag, []])

    // A second before the minute is up, the cron purges nothing of them yet.
    await flushPendingPurges(env.CONTROL, t0 + COALESCE_MS - 1_000)
    for (const tag of COALESCED) expect((await purgesOf([tag], t0))[tag]).toEqual([])

    // Once it is, the cron purges each of them, once.
    await flushPendingPurges(env.CONTROL, t0 + COALESCE_MS)
    const later = await purgesOf(COALESCED, t0)
    for (const tag of COALESCED) expect([tag, later[tag]]).toEqual([tag, [t0 + COALESCE_MS]])
    const { n } = (await env.CONTROL.prepare(
      'SELECT COUNT(*) AS n FROM pending_purges WHERE tag IN (SELECT value FROM json_each(?))',
    )
      .bind(JSON.stringify(COALESCED))
      .first<{ n: number }>()) ?? { n: -1 }
    expect(n).toBe(0)
  })

  it('purges each aggregate page once for a minute of many changes, by the next batch once the minute is up', async () => {
    const t0 = Date.UTC(2031, 1, 1)
    const ids = Array.from({ length: 40 }, (_, i) => ID + 100 + i)
    await applyAcross(
      ids.flatMap((id) => [provider(id), listing(id)]),
      { now: new Date(t0) },
    )
    // Forty batches over the minute, each changing every provider again.
    for (let i = 1; i < 40; i++)
      await applyAcross(
        ids.map((id) => provider(id, `Headline ${i}`)),
        { now: new Date(t0 + i * 1_500) },
      )
    const during = await purgesOf(COALESCED, t0)
    for (const tag of COALESCED) expect([tag, during[tag]]).toEqual([tag, []])
    // Every profile was purged with each of its changes.
    expect((await purgesOf([`provider:${ID + 100}`], t0))[`provider:${ID + 100}`]).toHaveLength(40)

    // The first batch after the minute records the waiting purges with its own.
    const t1 = t0 + COALESCE_MS
    await applyAcross([provider(ID + 100, 'After the minute')], { now: new Date(t1) })
    const after = await purgesOf(COALESCED, t0)
    for (const tag of COALESCED) expect([tag, after[tag]]).toEqual([tag, [t1]])
    // Forty batches across control and the shards: about 12 s on a busy machine; the ceiling
    // fails a hang, not a speed.
  }, 600_000)

  it('holds a change after a flush for a minute of its own', async () => {
    const t0 = Date.UTC(2031, 2, 1)
    await applyAcross([provider(), listing()], { now: new Date(t0) })
    await flushPendingPurges(env.CONTROL, t0 + COALESCE_MS)
    const t1 = t0 + COALESCE_MS + 5_000
    await applyAcross([listing()], { now: new Date(t1) })
    await flushPendingPurges(env.CONTROL, t1 + COALESCE_MS - 1)
    expect((await purgesOf(['url:/babysitters/ga'], t0))['url:/babysitters/ga']).toEqual([
      t0 + COALESCE_MS,
    ])
    await flushPendingPurges(env.CONTROL, t1 + COALESCE_MS)
    expect((await purgesOf(['url:/babysitters/ga'], t0))['url:/babysitters/ga']).toEqual([
      t0 + COALESCE_MS,
      t1 + COALESCE_MS,
    ])
  })
})
