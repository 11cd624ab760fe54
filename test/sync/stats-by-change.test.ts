import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cityId, refreshCatalogStatsAt } from '../support/builders'
import { applyAcross, catalogRow, catalogRows } from '../support/databases'
import { aMessage, applyAfterProviders, removeRowsEverywhere } from './examples'

// The listings' stats a sync batch moves by its change (src/sync/stats-by-change.ts) are, to
// the last bit, those a recompute of every row gives, whatever the sequence of changes: providers
// moving between cities and states (to a city no provider was in), their experience,
// badges and update times changing, listings offered at rates past the city's extremes and
// withdrawn, providers removed, reviews added, moved and removed; in batches of one to four.

// Applied across control and the shards; the stats read where pages read them (control's
// copies of the cities' rows, its rollups), the left-over working rows on the shards.
const NOW = new Date('2026-01-01T00:00:00Z')
// A city no provider is in yet, in a state of its own.
const NEW_CITY = aMessage('city.added', (m) => {
  Object.assign(m, { id: 950000031, version: 1 })
  Object.assign(m.entity, { name: 'Nowhere Yet', stateCode: 'WY' })
})
await applyAcross([NEW_CITY], { now: NOW })
/** Back to the test catalog and the new city (its ids are past the line the reset removes from). */
async function reset() {
  await removeRowsEverywhere(950_000_000, NOW)
  await applyAcross([NEW_CITY], { now: NOW })
}
const CITIES = [
  ...(await Promise.all(['atlanta-ga', 'sandy-springs-ga', 'boston-ma'].map(cityId))),
  NEW_CITY.id,
]
const PROVIDERS = [950000001, 950000002, 950000003, 950000004]
const REVIEWS = [950000021, 950000022, 950000023]
const SERVICES = ['babysitters', 'nannies'] as const

const providerChange = fc
  .record({
    id: fc.constantFrom(...PROVIDERS),
    city: fc.constantFrom(...CITIES),
    years: fc.integer({ min: 0, max: 25 }),
    checked: fc.boolean(),
    updated: fc.constantFrom(
      '2020-01-01T00:00:00Z',
      '2025-11-25T12:00:00Z',
      '2031-05-05T05:05:05Z',
    ),
  })
  .map(
    ({ id, city, years, checked, updated }) =>
      (v: number) =>
        aMessage('provider.upserted', (m) => {
          Object.assign(m, { id, version: v })
          Object.assign(m.entity, {
            cityId: city,
            yearsExperience: years,
            badges: checked ? ['BACKGROUND_CHECK'] : ['VACCINATED'],
            updatedAt: updated,
          })
        }),
  )

const listingChange = fc
  .record({
    id: fc.constantFrom(...PROVIDERS),
    service: fc.constantFrom(...SERVICES),
    offer: fc.boolean(),
    rate: fc.constantFrom(1, 12, 20, 33, 400),
  })
  .map(
    ({ id, service, offer, rate }) =>
      (v: number) =>
        offer
          ? aMessage('provider-service.offered', (m) => {
              Object.assign(m, { id, version: v, service })
              m.entity.rateMin = rate
              m.entity.rateMax = rate + 7
            })
          : aMessage('provider-service.withdrawn', (m) =>
              Object.assign(m, { id, version: v, service }),
            ),
  )

const reviewChange = fc
  .record({
    id: fc.constantFrom(...REVIEWS),
    provider: fc.constantFrom(...PROVIDERS),
    rating: fc.integer({ min: 1, max: 5 }),
    keep: fc.boolean(),
  })
  .map(
    ({ id, provider, rating, keep }) =>
      (v: number) =>
        keep
          ? aMessage('review.added', (m) => {
              Object.assign(m, { id, version: v })
              Object.assign(m.entity, { providerId: provider, rating })
            })
          : aMessage('review.removed', (m) => Object.assign(m, { id, version: v })),
  )

const removal = fc
  .constantFrom(...PROVIDERS)
  .map(
    (id) => (v: number) =>
      aMessage('provider.removed', (m) => Object.assign(m, { id, version: v })),
  )

const change = fc.oneof(
  providerChange,
  providerChange,
  listingChange,
  listingChange,
  reviewChange,
  removal,
)

const STATES = "('GA', 'MA', 'WY')"
const STATS = [
  `SELECT * FROM service_city_stats WHERE city_id IN (${CITIES.join()}) ORDER BY 1, 2`,
  `SELECT * FROM service_state_stats WHERE state_code IN ${STATES} ORDER BY 1, 2`,
  `SELECT * FROM city_service_mixes WHERE city_id IN (${CITIES.join()}) ORDER BY 1, 2`,
  `SELECT * FROM rate_experience_stats WHERE city_id IN (0, ${CITIES.join()}) ORDER BY 1, 2, 3`,
  `SELECT * FROM rate_experience_state_stats WHERE state_code IN ${STATES} ORDER BY 1, 2, 3`,
  'SELECT (SELECT COUNT(*) FROM listing_stats_before) + (SELECT COUNT(*) FROM service_mixes_before) AS left_over',
]

const stats = () => Promise.all(STATS.map((sql) => catalogRows(sql)))

describe('the listings’ stats a sync batch moves by its change', () => {
  it('are those of a recompute of every row', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 1, max: 4 }),
        async (changes, size) => {
          await reset()
          await applyAfterProviders({
            providers: PROVIDERS,
            cities: CITIES,
            changes,
            size,
            now: NOW,
          })
          const moved = await stats()
          await refreshCatalogStatsAt(NOW)
          expect(moved).toEqual(await stats())
        },
      ),
      { numRuns: 60 },
    )
  }, 600_000)
})

describe('a profile edit', () => {
  // D1's own count of the rows a batch reads (its `meta`, what D1 bills): for a provider of the
  // city with the most listings, no more than for the only one of a city plus the city's stats
  // rows control copies (one a service, band and set of services: bounded by the services, not
  // by the people). Recomputed from the city's listings, the first would read all of them too.
  it('reads in the largest city fewer rows than its listings beyond a city of one provider', async () => {
    await reset()
    // The largest city of its shard (every shard's first; the cities are each on one).
    const largest = await catalogRow<{ id: number }>(
      `SELECT city_id AS id FROM provider_services WHERE service = 'babysitters'
        GROUP BY city_id ORDER BY COUNT(*) DESC LIMIT 1`,
    )
    const [big, small] = [950000001, 950000002]
    const setUp = (id: number, city: number) => [
      aMessage('provider.upserted', (m) => {
        Object.assign(m, { id, version: 1 })
        m.entity.cityId = city
      }),
      aMessage('provider-service.offered', (m) =>
        Object.assign(m, { id, version: 1, service: 'babysitters' }),
      ),
    ]
    // A third provider after both, so each one's listings are read up to the next row alike.
    const [boston] = CITIES.slice(2)
    await applyAcross(
      [
        ...setUp(big, largest?.id ?? 0),
        ...setUp(small, NEW_CITY.id),
        ...setUp(950000003, boston ?? 0),
      ],
      { now: NOW },
    )
    // Each at a moment of its own: the purge rows recorded at one moment are read to record once.
    const edit = (id: number, city: number, now: Date) =>
      applyAcross(
        [
          aMessage('provider.upserted', (m) => {
            Object.assign(m, { id, version: 2 })
            Object.assign(m.entity, { cityId: city, headline: 'Edited', yearsExperience: 9 })
          }),
        ],
        { now },
      )
    const inLargest = await edit(big, largest?.id ?? 0, new Date(NOW.getTime() + 1000))
    const inSmallest = await edit(small, NEW_CITY.id, new Date(NOW.getTime() + 2000))
    const listings = await catalogRow<{ n: number }>(
      'SELECT COUNT(*) AS n FROM provider_services WHERE city_id = ? GROUP BY city_id',
      largest?.id ?? 0,
    )
    expect(listings?.n).toBeGreaterThan(300)
    expect(inLargest.rowsRead - inSmallest.rowsRead).toBeLessThan((listings?.n ?? 0) / 2)
  })

  // Nor with the catalog: control's apply finds the directory rows and tombstones it changes by
  // key (a correlated delete once read the whole directory on every batch).
  it('reads a small part of the directory, whatever its size', async () => {
    await reset()
    const id = 950000001
    const city = await cityId('atlanta-ga')
    const message = (version: number) =>
      aMessage('provider.upserted', (m) => {
        Object.assign(m, { id, version })
        m.entity.cityId = city
      })
    await applyAcross([message(1)], { now: NOW })
    const edit = await applyAcross([message(2)], { now: new Date(NOW.getTime() + 1000) })
    const directory = await catalogRow<{ n: number }>(
      'SELECT COUNT(*) AS n FROM provider_directory',
    )
    expect(directory?.n).toBeGreaterThan(2000)
    expect(edit.rowsRead).toBeLessThan((directory?.n ?? 0) / 10)
  })
})
