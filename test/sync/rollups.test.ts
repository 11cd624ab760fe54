import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cityId, refreshCatalogStatsAt } from '../support/builders'
import { catalogRows } from '../support/databases'
import { aMessage, applyAfterProviders, removeRowsEverywhere } from './examples'

// The rollups a sync batch derives for what it touched (src/data/rollups.ts) are the ones a
// recompute of every row gives, whatever the changes: providers moving between cities and
// states, offering and withdrawing services, removed; activities changing keyword and dates. The
// national rates by experience among them, summed from the states' rows.

// Applied across control and the shards: the cities' mixes on their shards, the rollups of many
// cities on control, from its copies of the cities' rows (docs/scale.md).
const NOW = new Date('2026-01-01T00:00:00Z')
const CITIES = await Promise.all(['atlanta-ga', 'sandy-springs-ga', 'boston-ma'].map(cityId))
const PROVIDERS = [950000001, 950000002, 950000003]
const ACTIVITY = 950000011
const SERVICES = ['babysitters', 'nannies'] as const

const change = fc.oneof(
  fc.record({ id: fc.constantFrom(...PROVIDERS), city: fc.constantFrom(...CITIES) }).map(
    ({ id, city }) =>
      (v: number) =>
        aMessage('provider.upserted', (m) => {
          m.id = id
          m.version = v
          m.entity.cityId = city
        }),
  ),
  fc
    .record({
      id: fc.constantFrom(...PROVIDERS),
      service: fc.constantFrom(...SERVICES),
      offer: fc.boolean(),
      rate: fc.integer({ min: 10, max: 40 }),
    })
    .map(
      ({ id, service, offer, rate }) =>
        (v: number) =>
          offer
            ? aMessage('provider-service.offered', (m) => {
                Object.assign(m, { id, version: v, service })
                m.entity.rateMin = rate
                m.entity.rateMax = rate + 5
              })
            : aMessage('provider-service.withdrawn', (m) =>
                Object.assign(m, { id, version: v, service }),
              ),
    ),
  fc
    .constantFrom(...PROVIDERS)
    .map(
      (id) => (v: number) =>
        aMessage('provider.removed', (m) => Object.assign(m, { id, version: v })),
    ),
  fc
    .record({
      keep: fc.boolean(),
      sub: fc.constantFrom('drums', 'guitar', 'piano'),
      end: fc.constantFrom('2026-06-12', '2026-07-01', null),
    })
    .map(
      ({ keep, sub, end }) =>
        (v: number) =>
          keep
            ? aMessage('activity.upserted', (m) => {
                Object.assign(m, { id: ACTIVITY, version: v })
                m.entity.subcategory = sub
                m.entity.startDate = end && '2026-06-08'
                m.entity.endDate = end
              })
            : aMessage('activity.removed', (m) => Object.assign(m, { id: ACTIVITY, version: v })),
    ),
)

// Rates and ratings are sums of floating-point products: compared to a millionth.
const ROLLUPS = [
  `SELECT service, state_code, providers, cities, leader, ROUND(rate_sum, 6) AS rate_sum, rate_min,
          rate_max, pay_unit, updated_at, checked, reviewed, reviews, ROUND(rating_sum, 6) AS rating_sum
     FROM service_state_stats WHERE state_code IN ('GA', 'MA') ORDER BY 1, 2`,
  `SELECT * FROM city_service_mixes WHERE city_id IN (${CITIES.join()}) ORDER BY 1, 2`,
  'SELECT * FROM activity_ends ORDER BY 1, 2',
  `SELECT service, state_code, band, providers, ROUND(rate_sum, 6) AS rate_sum
     FROM rate_experience_state_stats WHERE state_code IN ('GA', 'MA') ORDER BY 1, 2, 3`,
  `SELECT service, band, providers, ROUND(rate_avg, 6) AS rate_avg
     FROM rate_experience_stats WHERE city_id = 0 ORDER BY 1, 2`,
]

const rollups = () => Promise.all(ROLLUPS.map((sql) => catalogRows(sql)))

const reset = () => removeRowsEverywhere(950_000_000, NOW)

describe('the rollups of a sync batch', () => {
  it('are those of a recompute of every row', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 12 }),
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
          const derived = await rollups()
          // Every row recomputed: each shard's cities, control's copies of them and its rollups.
          await refreshCatalogStatsAt(NOW)
          expect(derived).toEqual(await rollups())
        },
      ),
      { numRuns: 60 },
    )
  }, 600_000)
})
