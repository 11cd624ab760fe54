// The tests' catalog in control and the shards (test/support/sharded-catalog.ts), as a test file
// that reads them gets it: every row of the catalog's messages is on the database the design
// puts it on (docs/scale.md), derived rows included, in the numbers the other layout holds.
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { Databases } from '../../src/data/databases'
import { snapshotPart } from '../support/catalog-snapshot'
import { dumpedRows } from '../support/other-layout'
import { shardedCatalog } from '../support/sharded-catalog'

let databases: Databases
beforeAll(async () => {
  databases = await shardedCatalog()
}, 60_000)

const count = async (db: D1Database, table: string) =>
  (await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0

/** The same catalog on the other layout: its rows of `table`, on control or across its shards. */
const other = await snapshotPart('other')
const otherControl = (table: string) => dumpedRows(other.databases.CONTROL, table)
const otherShards = (table: string) =>
  Object.entries(other.databases)
    .filter(([binding]) => binding !== 'CONTROL')
    .reduce((sum, [, dump]) => sum + dumpedRows(dump, table), 0)

/** The entities of each kind the catalog's messages name: what the import must hold. */
const entities = new Map<string, Set<number>>()
for (const line of inject('catalogLines')) {
  const { kind, id } = JSON.parse(line) as { kind: string; id: number }
  entities.set(kind, (entities.get(kind) ?? new Set()).add(id))
}
const named = (kind: string) => entities.get(kind)?.size ?? 0

describe('the sharded test catalog', () => {
  it.each([
    ['providers', 'provider.upserted'],
    ['reviews', 'review.added'],
    ['jobs', 'job.upserted'],
  ])('splits the messages’ %s across the shards', async (table, kind) => {
    const counts = await Promise.all(databases.shards.map((db) => count(db, table)))
    const total = counts.reduce((a, b) => a + b, 0)
    expect(total).toBe(named(kind))
    expect(total).toBeGreaterThan(0)
    expect(total).toBe(otherShards(table))
  })

  it.each(['provider_services', 'service_city_stats', 'job_city_stats', 'city_service_mixes'])(
    'splits %s across the shards, as many as on the other layout',
    async (table) => {
      const counts = await Promise.all(databases.shards.map((db) => count(db, table)))
      const total = counts.reduce((a, b) => a + b, 0)
      expect(total).toBeGreaterThan(0)
      expect(total).toBe(otherShards(table))
    },
  )

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
  ])('gives control the %s the other layout gives it', async (table) => {
    const rows = await count(databases.control, table)
    expect(rows).toBeGreaterThan(0)
    expect(rows).toBe(otherControl(table))
  })

  it('gives control every city and activity of the messages, and its copy of each city’s stats', async () => {
    expect(await count(databases.control, 'activities')).toBe(named('activity.upserted'))
    const cities = await databases.control.prepare('SELECT id FROM cities').raw<[number]>()
    const ids = new Set(cities.map(([id]) => id))
    for (const id of entities.get('city.added') ?? []) expect(ids.has(id), String(id)).toBe(true)
    for (const table of ['service_city_stats', 'job_city_stats'] as const) {
      const shards = await Promise.all(databases.shards.map((db) => count(db, table)))
      expect(await count(databases.control, table), table).toBe(shards.reduce((a, b) => a + b, 0))
    }
  })

  it('names every provider and job in control’s directory, and is loaded once a file', async () => {
    expect(await count(databases.control, 'provider_directory')).toBe(named('provider.upserted'))
    expect(await count(databases.control, 'job_directory')).toBe(named('job.upserted'))
    expect(await shardedCatalog()).toBe(databases)
  })
})
