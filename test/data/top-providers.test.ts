// A state page's best providers from each shard holding the state's cities, merged by rank
// (src/data/provider-listing.ts): exactly the one DB's, for every service of a split state.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { SERVICES } from '../../src/catalog/services'
import type { Databases } from '../../src/data/databases'
import { openDb } from '../../src/data/db'
import { findTopProviders } from '../../src/data/provider-listing'
import { Timing } from '../../src/observability/timing'
import { shardedCatalog } from '../support/sharded-catalog'
import { singleCatalog } from '../support/single-catalog'

// The one database's catalog, which this file holds control and the shards to (or reads as
// the single database's pages do): restored here, as the set-up restores only theirs.
await singleCatalog()

let databases: Databases
beforeAll(async () => {
  databases = await shardedCatalog()
}, 60_000)

const reads = (d1: D1Database) => openDb(d1, new Timing())

describe("a state's best providers across its shards", () => {
  it.each(SERVICES.map((s) => s.slug))('are the one DB’s for %s in Georgia', async (service) => {
    const shards = databases.ofState('ga').map((at) => reads(at.db))
    // Georgia is split on two shards (Atlanta on one, the rest of the state on the other); on
    // one shard, that one is the one DB's copy.
    expect(shards).toHaveLength(databases.layout.shards)
    for (const options of [{}, { minProviders: 3 }, { cities: 2, limit: 4 }]) {
      const single = await findTopProviders([reads(env.DB)], service, 'GA', options)
      expect(await findTopProviders(shards, service, 'GA', options)).toEqual(single)
    }
  })

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
