// A state page's best providers from each shard holding the state's cities, merged by rank
// (src/data/provider-listing.ts): exactly the other layout's, for every service of a state split
// on the two-shard layout and whole on the one-shard layout.
import { beforeAll, describe, expect, it } from 'vitest'
import { SERVICES } from '../../src/catalog/services'
import type { Databases } from '../../src/data/databases'
import { openDb } from '../../src/data/db'
import { findTopProviders } from '../../src/data/provider-listing'
import { Timing } from '../../src/observability/timing'
import { onOtherLayout } from '../support/other-layout'
import { shardedCatalog } from '../support/sharded-catalog'

const reads = (d1: D1Database) => openDb(d1, new Timing())
const OPTIONS = [{}, { minProviders: 3 }, { cities: 2, limit: 4 }]

/** Georgia's best providers of each service, for each of OPTIONS, on the other layout. */
const expected = await onOtherLayout(async (_, other) => {
  const shards = other.ofState('ga').map((at) => reads(at.db))
  const found = new Map<string, unknown[]>()
  for (const { slug } of SERVICES)
    found.set(slug, await Promise.all(OPTIONS.map((o) => findTopProviders(shards, slug, 'GA', o))))
  return { shards: shards.length, found }
})

let databases: Databases
beforeAll(async () => {
  databases = await shardedCatalog()
}, 60_000)

describe("a state's best providers across its shards", () => {
  it.each(SERVICES.map((s) => s.slug))(
    'are the other layout’s for %s in Georgia',
    async (service) => {
      const shards = databases.ofState('ga').map((at) => reads(at.db))
      // Georgia is split on two shards (Atlanta on one, the rest of the state on the other) on
      // the two-shard layout, whole on the one-shard layout: one of the two runs merges.
      expect(shards).toHaveLength(databases.layout.shards)
      expect(shards.length + expected.shards).toBe(3)
      const found = await Promise.all(
        OPTIONS.map((o) => findTopProviders(shards, service, 'GA', o)),
      )
      expect(found.flat().length).toBeGreaterThan(0)
      expect(found).toEqual(expected.found.get(service))
    },
  )

  it('take cards from both shards where both hold the best', async () => {
    const shards = databases.ofState('ga').map((at) => reads(at.db))
    const merged = await findTopProviders(shards, 'babysitters', 'GA', { cities: 5, limit: 30 })
    const alone = await Promise.all(
      shards.map((shard) =>
        findTopProviders([shard], 'babysitters', 'GA', { cities: 5, limit: 30 }),
      ),
    )
    const ids = new Set(merged.map((card) => card.id))
    for (const cards of alone) expect(cards.some((card) => ids.has(card.id))).toBe(true)
  })
})
