// The bench's eight-shard layout (src/catalog/placement.ts) against the catalog it is made for:
// the 1M-provider catalog's places, each on its state's shard, fill the eight shards about
// evenly, and every state of the product is on one of them.
import { describe, expect, it } from 'vitest'
import { LAYOUTS, shardOfCity, shardsOfState } from '../../src/catalog/placement'
import { STATES } from '../../src/catalog/states'
import { LARGE, placeProviders } from '../../scripts/seed/generate-catalog'
import { catalogPlaces } from '../../scripts/seed/places'

const eight = LAYOUTS.eight

describe('the eight-shard layout', () => {
  it('places every state, whole, on one of its eight shards', () => {
    expect(eight.shards).toBe(8)
    for (const code of Object.keys(STATES)) {
      const shards = shardsOfState(eight, code.toLowerCase())
      expect(shards).toHaveLength(1)
      expect(shards[0]).toBeGreaterThanOrEqual(0)
      expect(shards[0]).toBeLessThan(8)
    }
    expect(new Set(Object.values(eight.states)).size).toBe(8)
  })

  it('gives each shard between a tenth and a sixth of the 1M-provider catalog', () => {
    const places = catalogPlaces(LARGE.cities)
    const providers = placeProviders(places, LARGE.scale)
    const perShard = Array.from({ length: 8 }, () => 0)
    places.forEach((place, i) => {
      const shard = shardOfCity(eight, place.slug)
      if (shard === null) throw new Error(`${place.slug} has no shard`)
      perShard[shard] = (perShard[shard] ?? 0) + (providers[i] ?? 0)
    })
    const total = perShard.reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThan(900_000)
    for (const n of perShard) {
      expect(n).toBeGreaterThan(total / 10)
      expect(n).toBeLessThan(total / 6)
    }
  })

  it('is no deployed environment’s layout', async () => {
    const { deployTarget } = await import('../../scripts/wrangler-config')
    expect(deployTarget('staging').layout).not.toBe('eight')
    expect(deployTarget('production').layout).not.toBe('eight')
  })
})
