import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CatalogMessage } from '../../src/sync/messages'
import { cityId } from '../support/builders'
import { applyAcross, catalogRows, fromShards } from '../support/databases'
import { aMessage, removeRowsEverywhere } from './examples'

// Any permutation and duplication of a set of messages, applied in batches of any size (a batch
// refused for a reference not yet there is delivered again later, as the queue retries it), ends
// on the same tables as the set applied at once.

// Applied across control and the shards, as the queue's consumer applies them.
const NOW = new Date('2026-01-01T00:00:00Z')
// Atlanta and Boston on one shard of the two-shard layout, Seattle on the other: a provider or job
// moves between shards as often as within one.
const CITIES = [await cityId('atlanta-ga'), await cityId('boston-ma'), await cityId('seattle-wa')]
const P = [940000001, 940000002]

const upsert = (id: number, version: number, city: number, years: number) =>
  aMessage('provider.upserted', (m) => {
    m.id = id
    m.version = version
    m.entity.cityId = city
    m.entity.yearsExperience = years
  })

/** The messages of one entity: versions 1…n of it, each a change the arbitrary chose. */
const history = <T>(step: fc.Arbitrary<T>, build: (value: T, version: number) => CatalogMessage) =>
  fc
    .array(step, { minLength: 1, maxLength: 3 })
    .map((steps) => steps.map((s, i) => build(s, i + 1)))

const catalog = fc
  .tuple(
    ...P.map((id) =>
      fc.tuple(
        history(
          fc.tuple(fc.constantFrom(...CITIES), fc.integer({ min: 0, max: 20 })),
          ([c, y], v) => upsert(id, v, c, y),
        ),
        fc.boolean(),
      ),
    ),
    history(fc.tuple(fc.boolean(), fc.integer({ min: 10, max: 40 })), ([offer, rate], v) =>
      offer
        ? aMessage('provider-service.offered', (m) => {
            m.id = P[0] ?? 0
            m.version = v
            m.entity.rateMin = rate
            m.entity.rateMax = rate + 5
          })
        : aMessage('provider-service.withdrawn', (m) => ((m.id = P[0] ?? 0), (m.version = v))),
    ),
    ...[940000011, 940000012].map((id) =>
      history(
        fc.tuple(fc.boolean(), fc.constantFrom(...P), fc.integer({ min: 1, max: 5 })),
        ([add, p, r], v) =>
          add
            ? aMessage('review.added', (m) => {
                m.id = id
                m.version = v
                m.entity.providerId = p
                m.entity.rating = r
              })
            : aMessage('review.removed', (m) => ((m.id = id), (m.version = v))),
      ),
    ),
    history(fc.tuple(fc.boolean(), fc.constantFrom(...CITIES)), ([open, city], v) => {
      const change = (m: { id: number; version: number; entity: Record<string, unknown> }) => {
        m.id = 940000021
        m.version = v
        m.entity.cityId = city
        m.entity.validThrough = '2099-01-01T00:00:00Z'
      }
      return open ? aMessage('job.upserted', change) : aMessage('job.closed', change)
    }),
    history(fc.boolean(), (keep, v) =>
      keep
        ? aMessage('activity.upserted', (m) => ((m.id = 940000031), (m.version = v)))
        : aMessage('activity.removed', (m) => ((m.id = 940000031), (m.version = v))),
    ),
  )
  .map((parts) => {
    const [p1, p2, ...rest] = parts as unknown as [
      [CatalogMessage[], boolean],
      [CatalogMessage[], boolean],
      ...CatalogMessage[][],
    ]
    return [
      // A provider's removal, when there is one, is its newest message (docs/sync.md).
      ...[p1, p2].flatMap(([upserts, removed], i) =>
        removed
          ? [
              ...upserts,
              aMessage('provider.removed', (m) => ((m.id = P[i] ?? 0), (m.version = 10))),
            ]
          : upserts,
      ),
      ...rest.flat(),
    ]
  })

const TABLES = [
  'SELECT * FROM providers WHERE id >= 940000000 ORDER BY id',
  'SELECT * FROM provider_services WHERE provider_id >= 940000000 ORDER BY provider_id, service',
  'SELECT * FROM reviews WHERE id >= 940000000 ORDER BY id',
  'SELECT * FROM jobs WHERE id >= 940000000 ORDER BY id',
  'SELECT * FROM activities WHERE id >= 940000000 ORDER BY id',
  `SELECT * FROM service_city_stats WHERE city_id IN (${CITIES.join()}) ORDER BY service, city_id`,
  `SELECT * FROM job_city_stats WHERE city_id IN (${CITIES.join()}) ORDER BY service, city_id`,
  `SELECT * FROM rate_experience_stats WHERE city_id IN (0, ${CITIES.join()}) ORDER BY 1, 2, 3`,
  'SELECT * FROM activity_stats ORDER BY keyword',
  "SELECT * FROM service_state_stats WHERE state_code IN ('GA', 'MA', 'WA') ORDER BY 1, 2",
  `SELECT * FROM city_service_mixes WHERE city_id IN (${CITIES.join()}) ORDER BY 1, 2`,
  'SELECT * FROM activity_ends ORDER BY 1, 2',
]

/** The versions, kept where their entities are: control's (cities, activities) and each shard's. */
const VERSIONS = "SELECT * FROM sync_versions WHERE key LIKE '%:9400000%' ORDER BY key"

async function tables() {
  // By key: which shard holds a removed provider's tombstone depends on where it was removed.
  const versions = [...(await catalogRows(VERSIONS)), ...(await fromShards(VERSIONS))].sort(
    (a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)),
  )
  return [...(await Promise.all(TABLES.map((sql) => catalogRows(sql)))), versions]
}

/** Back to the test catalog: the universe's rows and versions gone, the stats recomputed. */
const reset = () => removeRowsEverywhere(940_000_000, NOW)

/** `messages` in batches of `size`; a refused batch's messages are delivered again at the end. */
async function deliver(messages: CatalogMessage[], size: number) {
  const queue = [...messages]
  for (let round = 0; queue.length && round < 200; round++) {
    const batch = queue.splice(0, size)
    await applyAcross(batch, { now: NOW }).catch(() => queue.push(...batch))
  }
  expect(queue).toEqual([])
}

describe('applying catalog changes', () => {
  it('ends on the same tables whatever the order, duplication and batching', async () => {
    await fc.assert(
      fc.asyncProperty(
        catalog,
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        async (messages, noise, size) => {
          await reset()
          await applyAcross(messages, { now: NOW })
          const expected = await tables()
          await reset()
          const delivered = [...messages, ...messages.filter((_, i) => (noise[i] ?? 0) % 3 === 0)]
            .map((m, i) => ({ m, key: noise[i % noise.length] ?? 0 }))
            .sort((a, b) => a.key - b.key)
            .map(({ m }) => m)
          await deliver(delivered, size)
          expect(await tables()).toEqual(expected)
        },
      ),
      { numRuns: 60 },
    )
  }, 600_000)
})
