// The tests' catalog in control and the shards (test/support/sharded-catalog.ts), as a test file
// that reads them gets it: every row the set-up loads into DB is on the database the design puts
// it on (docs/scale.md), derived rows included.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Databases } from '../../src/data/databases'
import { shardedCatalog } from '../support/sharded-catalog'
import { singleCatalog } from '../support/single-catalog'

// The one database's catalog, which this file holds control and the shards to (or reads as
// the single database's pages do): restored here, as the set-up restores only theirs.
await singleCatalog()

let databases: Databases

beforeAll(async () => {
  databases = await shardedCatalog()
}, 60_000)

const count = async (db: D1Database, table: string) =>
  (await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0

describe('the sharded test catalog', () => {
  it.each([
    'providers',
    'provider_services',
    'reviews',
    'jobs',
    'service_city_stats',
    'job_city_stats',
    'city_service_mixes',
  ])('splits DB’s %s across the shards', async (table) => {
    const single = await count(env.DB, table)
    expect(single).toBeGreaterThan(0)
    const counts = await Promise.all(databases.shards.map((db) => count(db, table)))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(single)
  })

  it.each([
    'cities',
    'zip_codes',
    'activities',
    'service_city_stats',
    'job_city_stats',
    'rate_experience_stats',
    'service_state_stats',
    'activity_stats',
    'sitemap_blocks',
  ])('gives control DB’s %s', async (table) => {
    const single = await count(env.DB, table)
    expect(single).toBeGreaterThan(0)
    expect(await count(databases.control, table)).toBe(single)
  })

  it('names every provider and job in control’s directory, and is loaded once a file', async () => {
    expect(await count(databases.control, 'provider_directory')).toBe(
      await count(env.DB, 'providers'),
    )
    expect(await count(databases.control, 'job_directory')).toBe(await count(env.DB, 'jobs'))
    expect(await shardedCatalog()).toBe(databases)
  })
})
