import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { databasesOf } from '../../src/data/databases'
import { COALESCE_MS, flushPendingPurges } from '../../src/sync/purge-tags'
import { applyRouted } from '../../src/sync/routed-apply'
import { applyAcross, catalogRow, catalogRows } from '../support/databases'
import { aMessage } from './examples'

// The apply across control and the shards, as the queue's consumer runs it (docs/scale.md); each
// row read where the catalog keeps it (control, or the shard of its city).
const ATLANTA = 4180439
const row = catalogRow

const babysittersInAtlanta = () =>
  row<{ providers: number; rate_max: number }>(
    "SELECT providers, rate_max FROM service_city_stats WHERE service = 'babysitters' AND city_id = ?",
    ATLANTA,
  )

async function purgedSince(seq: number): Promise<string[]> {
  const rows = await catalogRows<{ tag: string }>(
    'SELECT tag FROM purges WHERE seq > ? ORDER BY tag',
    seq,
  )
  return rows.map((r) => r.tag)
}
const lastPurge = async () =>
  (await row<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM purges'))?.seq ?? 0

describe('applying catalog changes', () => {
  it('adds a provider, its listing and a review, re-aggregating and purging what shows them', async () => {
    const before = await babysittersInAtlanta()
    const seq = await lastPurge()
    const now = new Date()
    await applyAcross(
      [
        aMessage('review.added'),
        aMessage('provider-service.offered', (m) => (m.entity.rateMax = 400)),
        aMessage('provider.upserted'),
      ],
      { now },
    )
    const provider = await row<Record<string, unknown>>(
      'SELECT * FROM providers WHERE id = 900000001',
    )
    expect(provider).toMatchObject({
      name_slug: 'maria-g',
      city_id: ATLANTA,
      photo_url: 'https://images.care.example/providers/900000001.jpg',
      badges: 0b101,
      availability: 0b11111,
      languages: 'ENGLISH,SPANISH',
      rating: 5,
      review_count: 1,
      updated_at: '2025-11-25T12:00:00Z',
    })
    expect(
      await row(
        'SELECT city_id, rate_max, pay_unit, ages, badges FROM provider_services WHERE provider_id = 900000001',
      ),
    ).toEqual({ city_id: ATLANTA, rate_max: 400, pay_unit: 'hr', ages: 0b1110, badges: 0b101 })
    const after = await babysittersInAtlanta()
    expect(after?.providers).toBe((before?.providers ?? 0) + 1)
    expect(after?.rate_max).toBe(400)
    // The state, national and sitemap pages a minute later, coalesced (docs/sync.md).
    expect(await purgedSince(seq)).not.toContain('url:/babysitters/ga')
    await flushPendingPurges(env.CONTROL, now.getTime() + COALESCE_MS)
    const tags = await purgedSince(seq)
    expect(tags).toEqual(
      expect.arrayContaining([
        'provider:900000001',
        'url:/p/maria-g-900000001',
        'url:/babysitters/atlanta-ga',
        'url:/babysitters/ga',
        'url:/babysitters',
        'url:/local/atlanta-ga',
        'url:/cost/babysitters/atlanta-ga',
        'url:/cost/babysitters',
        'page:sitemap',
      ]),
    )
    expect(tags.filter((t) => t.includes('nannies'))).toEqual([])
    expect(await row('SELECT COUNT(*) AS n FROM sync_touched')).toEqual({ n: 0 })
  })

  it('changes nothing for a duplicate or an older version, and keeps a removal against an older upsert', async () => {
    const upsert = aMessage('activity.upserted', (m) => (m.id = 900000101))
    const older = aMessage('activity.upserted', (m) => {
      m.id = 900000101
      m.version -= 1
      m.entity.name = 'Old name'
    })
    await applyAcross([upsert])
    await applyAcross([older, upsert])
    expect(await row('SELECT name FROM activities WHERE id = 900000101')).toEqual({
      name: 'Summer drum camp',
    })
    // The older version alone, in a batch of its own: no dedup within the batch drops it, so
    // only the database's version guard stands between it and the row, and its purge.
    const purges = await row('SELECT COUNT(*) AS n FROM purges')
    await applyAcross([older])
    expect(await row('SELECT name FROM activities WHERE id = 900000101')).toEqual({
      name: 'Summer drum camp',
    })
    expect(await row("SELECT version FROM sync_versions WHERE key = 'activity:900000101'")).toEqual(
      {
        version: upsert.version,
      },
    )
    expect(await row('SELECT COUNT(*) AS n FROM purges')).toEqual(purges)

    const removal = aMessage('activity.removed', (m) => (m.id = 900000102))
    const late = aMessage('activity.upserted', (m) => (m.id = 900000102))
    await applyAcross([removal])
    await applyAcross([late])
    expect(await row('SELECT id FROM activities WHERE id = 900000102')).toBeNull()
    expect(await row("SELECT removed FROM sync_versions WHERE key = 'activity:900000102'")).toEqual(
      { removed: 1 },
    )
  })

  it('leaves the rating of the reviews that remain when a review is removed', async () => {
    await applyAcross([
      aMessage('provider.upserted', (m) => (m.id = 900000201)),
      aMessage('review.added', (m) => ((m.id = 900000201), (m.entity.providerId = 900000201))),
      aMessage('review.added', (m) => {
        m.id = 900000202
        m.entity.providerId = 900000201
        m.entity.rating = 2
      }),
    ])
    expect(await row('SELECT rating, review_count FROM providers WHERE id = 900000201')).toEqual({
      rating: 3.5,
      review_count: 2,
    })
    const seq = await lastPurge()
    await applyAcross([aMessage('review.removed', (m) => (m.id = 900000201))])
    expect(await row('SELECT rating, review_count FROM providers WHERE id = 900000201')).toEqual({
      rating: 2,
      review_count: 1,
    })
    expect(await purgedSince(seq)).toEqual(['provider:900000201'])
  })

  it('purges the pages showing a listing’s reviews when a review of its provider is added', async () => {
    await applyAcross([
      aMessage('provider.upserted', (m) => (m.id = 900000251)),
      aMessage('provider-service.offered', (m) => (m.id = 900000251)),
    ])
    const seq = await lastPurge()
    const now = new Date()
    await applyAcross(
      [aMessage('review.added', (m) => ((m.id = 900000251), (m.entity.providerId = 900000251)))],
      { now },
    )
    await flushPendingPurges(env.CONTROL, now.getTime() + COALESCE_MS)
    // The directory and the cost guides say how many reviews the city's providers have.
    expect(await purgedSince(seq)).toEqual(
      expect.arrayContaining([
        'provider:900000251',
        'url:/babysitters/atlanta-ga',
        'url:/cost/babysitters/atlanta-ga',
        'url:/cost/babysitters',
      ]),
    )
  })

  it('closes a job: expired from closedAt, gone from the open counts', async () => {
    const open = () =>
      row<{ jobs: number }>(
        "SELECT jobs FROM job_city_stats WHERE service = 'babysitting-jobs' AND city_id = ?",
        ATLANTA,
      )
    const before = (await open())?.jobs ?? 0
    await applyAcross([
      aMessage('job.upserted', (m) => {
        m.id = 900000301
        m.entity.validThrough = '2099-01-01T00:00:00Z'
      }),
    ])
    expect((await open())?.jobs).toBe(before + 1)
    const seq = await lastPurge()
    await applyAcross([aMessage('job.closed', (m) => (m.id = 900000301))])
    expect(await row('SELECT valid_through FROM jobs WHERE id = 900000301')).toEqual({
      valid_through: '2025-11-26T12:00:00Z',
    })
    expect((await open())?.jobs ?? 0).toBe(before)
    expect(await purgedSince(seq)).toEqual(
      expect.arrayContaining([
        'job:900000301',
        'url:/babysitting-jobs/atlanta-ga',
        'url:/babysitters/atlanta-ga',
      ]),
    )
  })

  it('holds back a job in a city not in the catalog, applying the rest of its batch', async () => {
    // Routed, the job is on no shard: returned to retry (then dead-lettered), while control's
    // part of the batch stands alone.
    const activity = aMessage('activity.upserted', (m) => (m.id = 900000401))
    const job = aMessage('job.upserted', (m) => ((m.id = 900000401), (m.entity.cityId = 999999999)))
    const outcome = await applyRouted(databasesOf(env), [activity, job])
    expect(outcome.retry).toEqual([job])
    expect(await row('SELECT id FROM jobs WHERE id = 900000401')).toBeNull()
    expect(await row("SELECT key FROM sync_versions WHERE key = 'job:900000401'")).toBeNull()
    expect(await row('SELECT id FROM activities WHERE id = 900000401')).toEqual({ id: 900000401 })
  })

  it('drops the listing and review of a removed provider, and holds back those of an unknown one', async () => {
    await applyAcross([aMessage('provider.upserted', (m) => (m.id = 900000501))])
    await applyAcross([aMessage('provider.removed', (m) => ((m.id = 900000501), (m.version += 1)))])
    await applyRouted(databasesOf(env), [
      aMessage('provider-service.offered', (m) => (m.id = 900000501)),
      aMessage('review.added', (m) => ((m.id = 900000501), (m.entity.providerId = 900000501))),
    ])
    expect(
      await row('SELECT provider_id FROM provider_services WHERE provider_id = 900000501'),
    ).toBeNull()
    expect(await row('SELECT id FROM reviews WHERE id = 900000501')).toBeNull()
    // A provider no shard holds: its listing waits for it (retried, then dead-lettered).
    await expect(
      applyAcross([aMessage('provider-service.offered', (m) => (m.id = 900000502))]),
    ).rejects.toThrow(/not applied: provider-service.offered 900000502/)
    expect(
      await row('SELECT provider_id FROM provider_services WHERE provider_id = 900000502'),
    ).toBeNull()
  })

  it('drops a review moved to a removed provider from the provider it was of', async () => {
    // The removed provider's tombstone names the shard it was on (both are on one city's), where
    // the move applies as on one database.
    await applyAcross([
      aMessage('provider.upserted', (m) => (m.id = 900000601)),
      aMessage('provider.upserted', (m) => (m.id = 900000602)),
      aMessage('review.added', (m) => ((m.id = 900000601), (m.entity.providerId = 900000601))),
    ])
    await applyAcross([aMessage('provider.removed', (m) => ((m.id = 900000602), (m.version += 1)))])
    expect(await row('SELECT review_count FROM providers WHERE id = 900000601')).toEqual({
      review_count: 1,
    })
    const moved = aMessage('review.added', (m) => {
      m.id = 900000601
      m.version += 1
      m.entity.providerId = 900000602
    })
    expect((await applyRouted(databasesOf(env), [moved])).retry).toEqual([])
    expect(await row('SELECT id FROM reviews WHERE id = 900000601')).toBeNull()
    expect(await row('SELECT rating, review_count FROM providers WHERE id = 900000601')).toEqual({
      rating: null,
      review_count: 0,
    })
  })

  it('adds a city with every page of it purged, its slug logged for the gate', async () => {
    const seq = await lastPurge()
    await applyAcross([aMessage('city.added')])
    expect(await row('SELECT slug, state_code FROM cities WHERE id = 4212992')).toEqual({
      slug: 'pine-mountain-ga',
      state_code: 'GA',
    })
    expect(
      await row("SELECT seq FROM city_additions WHERE slug = 'pine-mountain-ga'"),
    ).not.toBeNull()
    expect(await purgedSince(seq)).toEqual(
      expect.arrayContaining(['url:/local/pine-mountain-ga', 'url:/nannies/pine-mountain-ga']),
    )
  })
})
