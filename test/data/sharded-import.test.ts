// The import into control and the shards (docs/scale.md), resumed half-way: the shards together
// hold exactly the rows the same import holds on the other layout (test/support/other-layout.ts),
// each provider and job on its city's shard with its listings and reviews, control and every
// shard the cities, control the activities, and the directory on control names every provider's
// and job's shard. Then the end per database: every derived row on the shards and on control is
// the row the other layout derives.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { applyImported, importLines } from '../../scripts/import/import-lines'
import { CITY_ROWS, finishSharded } from '../../scripts/import/finish'
import { lowestCheckpoint, shardedTarget } from '../../scripts/import/sharded'
import type { Databases } from '../../src/data/databases'
import { databasesOf } from '../../src/data/databases'
import { moveProvider } from '../../src/sync/move'
import { routeMessages } from '../../src/sync/route'
import { aMessage } from '../sync/examples'
import { onOtherLayout } from '../support/other-layout'

const databases = databasesOf(env)
const lines = inject('catalogLines').map((text, i) => ({ line: i + 1, text }))
const FILE = 'the test catalog'
let resumedAt = 0

async function load(from: number, to: number): Promise<number> {
  const target = shardedTarget(databases)
  const checkpoint = await target.resume()
  const start = Math.max(from, (checkpoint?.line ?? 0) + 1)
  await importLines({
    target,
    lines: lines.slice(start - 1, to),
    file: FILE,
    batchMessages: 200,
    reject: (line, reason) => {
      throw new Error(`line ${line} rejected: ${reason}`)
    },
  })
  return checkpoint?.line ?? 0
}

beforeAll(async () => {
  await load(1, Math.floor(lines.length / 2))
  resumedAt = await load(1, lines.length)
  await finishSharded(databases, new Date(inject('catalogNow')))
  // The whole test catalog, imported twice over in effect: more than a hook's default time.
}, 60_000)

async function rows(db: D1Database, sql: string): Promise<unknown[]> {
  return (await db.prepare(sql).all()).results
}

async function onShards(sql: string, { shards }: Databases = databases): Promise<unknown[]> {
  return (await Promise.all(shards.map((db) => rows(db, sql)))).flat()
}

const BASE_TABLES = [
  ['providers', 'id'],
  ['provider_services', 'provider_id, service'],
  ['reviews', 'id'],
  ['jobs', 'id'],
] as const
const CONTROL_DERIVED = [
  ...Object.keys(CITY_ROWS),
  'service_state_stats',
  'rate_experience_state_stats',
  'activity_stats',
  'activity_ends',
  'sitemap_blocks',
]
const keyOf = (table: string) => BASE_TABLES.find(([t]) => t === table)?.[1] ?? 'rowid'
const baseSql = (table: string, key: string) => `SELECT * FROM ${table} ORDER BY ${key}`
const citySql = (table: string, key: readonly string[]) =>
  `SELECT * FROM ${table} WHERE ${table === 'rate_experience_stats' ? 'city_id != 0' : 'true'} ORDER BY ${key.join(', ')}`
const RATINGS_SQL = 'SELECT id, rating, review_count AS reviewCount FROM providers'
const VERSIONS_SQL = 'SELECT * FROM sync_versions ORDER BY key'
const PURGED_SQL = 'SELECT DISTINCT tag FROM purges ORDER BY tag'

/** What the same catalog's import holds on the other layout, read before this file's import. */
const other = await onOtherLayout(async (_, at) => {
  /** Each table's rows, by table, as `read` finds them. */
  const byTable = async (tables: readonly string[], read: (table: string) => Promise<unknown[]>) =>
    new Map(await Promise.all(tables.map(async (t) => [t, await read(t)] as const)))
  return {
    base: await byTable(
      BASE_TABLES.map(([t]) => t),
      (t) => onShards(baseSql(t, keyOf(t)), at),
    ),
    cities: await rows(at.control, 'SELECT * FROM cities ORDER BY id'),
    activities: await rows(at.control, 'SELECT * FROM activities ORDER BY id'),
    versions: [...(await rows(at.control, VERSIONS_SQL)), ...(await onShards(VERSIONS_SQL, at))],
    cityRows: await byTable(Object.keys(CITY_ROWS), (t) =>
      onShards(citySql(t, CITY_ROWS[t as keyof typeof CITY_ROWS]), at),
    ),
    control: await byTable(CONTROL_DERIVED, (t) => rows(at.control, `SELECT * FROM ${t}`)),
    ratings: (await onShards(RATINGS_SQL, at)).sort(
      (a, b) => (a as { id: number }).id - (b as { id: number }).id,
    ),
    purged: await at.control.prepare(PURGED_SQL).raw(),
  }
})

/** The other layout's rows of `table`. */
function reference(map: Map<string, unknown[]>, table: string): unknown[] {
  const found = map.get(table)
  if (!found) throw new Error(`no reference rows of ${table}`)
  return found
}

describe('the test catalog imported into two shards and control', () => {
  it('resumed from the checkpoint every database had reached', () => {
    expect(resumedAt).toBe(Math.floor(lines.length / 2))
  })

  it.each(BASE_TABLES)(
    'holds each row of %s on one shard, as the other layout does',
    async (table, key) => {
      const sharded = await onShards(baseSql(table, key))
      const single = reference(other.base, table)
      expect(single.length).toBeGreaterThan(0)
      expect(sharded.length).toBe(single.length)
      expect(new Set(sharded.map((r) => JSON.stringify(r)))).toEqual(
        new Set(single.map((r) => JSON.stringify(r))),
      )
    },
  )

  it('puts each provider and job on its city’s shard, with its listings and reviews', async () => {
    for (const [n, db] of databases.shards.entries()) {
      const cities = await db
        .prepare(
          `SELECT DISTINCT c.slug FROM cities c
            WHERE c.id IN (SELECT city_id FROM providers UNION SELECT city_id FROM jobs)`,
        )
        .raw<[string]>()
      expect(cities.length).toBeGreaterThan(0)
      for (const [slug] of cities) expect(databases.ofCity(slug)?.shard, slug).toBe(n)
      const strays = await db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM provider_services WHERE provider_id NOT IN (SELECT id FROM providers))
                + (SELECT COUNT(*) FROM reviews WHERE provider_id NOT IN (SELECT id FROM providers)) AS n`,
        )
        .first<{ n: number }>()
      expect(strays?.n).toBe(0)
    }
  })

  it('gives control and every shard the cities, and control alone the activities', async () => {
    expect(other.cities.length).toBeGreaterThan(0)
    for (const db of [databases.control, ...databases.shards])
      expect(await rows(db, 'SELECT * FROM cities ORDER BY id')).toEqual(other.cities)
    expect(other.activities.length).toBeGreaterThan(0)
    expect(await rows(databases.control, 'SELECT * FROM activities ORDER BY id')).toEqual(
      other.activities,
    )
  })

  it('keeps every version the other layout keeps, where its entity is', async () => {
    const sharded = [
      ...(await rows(databases.control, VERSIONS_SQL)),
      ...(await onShards(VERSIONS_SQL)),
    ]
    // A city's version is on control and on every shard: as sets, the copies are one row.
    expect(new Set(sharded.map((r) => JSON.stringify(r)))).toEqual(
      new Set(other.versions.map((r) => JSON.stringify(r))),
    )
  })

  it('names every provider’s and job’s shard in control’s directory, at its version', async () => {
    for (const [table, source] of [
      ['provider_directory', 'providers'],
      ['job_directory', 'jobs'],
    ] as const) {
      const directory = await databases.control
        .prepare(`SELECT shard, id FROM ${table} ORDER BY id`)
        .raw<[number, number]>()
      const held = (
        await Promise.all(
          databases.shards.map(async (db, n) =>
            (await db.prepare(`SELECT id FROM ${source}`).raw<[number]>()).map(([id]) => [n, id]),
          ),
        )
      )
        .flat()
        .sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0))
      expect(directory).toEqual(held)
    }
    const directory = await databases.control
      .prepare(`SELECT 'provider:' || id, version FROM provider_directory ORDER BY id`)
      .raw<[string, number]>()
    const versions = new Map(
      (
        await Promise.all(
          databases.shards.map((db) =>
            db
              .prepare(`SELECT key, version FROM sync_versions WHERE key LIKE 'provider:%'`)
              .raw<[string, number]>(),
          ),
        )
      ).flat(),
    )
    expect(directory.length).toBeGreaterThan(0)
    for (const [key, version] of directory) expect(version, key).toBe(versions.get(key))
  })
})

describe('the end of the import, per database', () => {
  const json = (list: unknown[]) => list.map((r) => JSON.stringify(r)).sort()

  it.each(Object.entries(CITY_ROWS))(
    'derives each city’s %s on its shard alone, as the other layout derives them',
    async (table, key) => {
      const sql = citySql(table, key)
      const single = reference(other.cityRows, table)
      expect(single.length).toBeGreaterThan(0)
      for (const [n, db] of databases.shards.entries()) {
        const cities = await db
          .prepare(`SELECT DISTINCT c.slug FROM ${table} t JOIN cities c ON c.id = t.city_id`)
          .raw<[string]>()
        for (const [slug] of cities) expect(databases.ofCity(slug)?.shard, slug).toBe(n)
      }
      expect(json(await onShards(sql))).toEqual(json(single))
    },
  )

  it.each(CONTROL_DERIVED)('gives control the %s the other layout derives', async (table) => {
    const sql = `SELECT * FROM ${table}`
    const single = reference(other.control, table)
    expect(single.length).toBeGreaterThan(0)
    expect(json(await rows(databases.control, sql))).toEqual(json(single))
  })

  it('rates every provider on its shard, as the other layout does', async () => {
    const single = other.ratings as { id: number; rating: number | null; reviewCount: number }[]
    expect(single.some((p) => p.reviewCount > 0)).toBe(true)
    const ratings = await onShards(RATINGS_SQL)
    expect(ratings.sort((a, b) => (a as { id: number }).id - (b as { id: number }).id)).toEqual(
      single,
    )
  })

  it('purges every page on control, and leaves no touched rows anywhere', async () => {
    const tags = await databases.control.prepare(PURGED_SQL).raw()
    expect(tags.length).toBeGreaterThan(0)
    expect(tags).toEqual(other.purged)
    for (const db of [databases.control, ...databases.shards])
      expect(await rows(db, 'SELECT * FROM sync_touched')).toEqual([])
  })

  it('ends the same when run again', async () => {
    const derived = async () =>
      Promise.all(
        ['service_state_stats', 'sitemap_blocks', 'service_city_stats', 'provider_directory'].map(
          async (table) => json(await rows(databases.control, `SELECT * FROM ${table}`)),
        ),
      )
    const before = await derived()
    await finishSharded(databases, new Date(inject('catalogNow')))
    expect(await derived()).toEqual(before)
  })
})

describe('lowestCheckpoint', () => {
  it('resumes from the lowest line, and from the start when a database has none or another file', () => {
    const at = (line: number, file = FILE) => ({ file, line })
    expect(lowestCheckpoint([at(40), at(20), at(30)])).toEqual(at(20))
    expect(lowestCheckpoint([at(40), null])).toBeNull()
    expect(lowestCheckpoint([at(40), at(20, 'another file')])).toBeNull()
  })
})

// Last in the file: it changes the imported catalog.
describe.skipIf(databases.shards.length < 2)('a provider moving to a city on another shard', () => {
  const ATLANTA = 4180439
  const [first, second] = databases.shards as [D1Database, D1Database]

  const count = async (db: D1Database, sql: string, ...params: (number | string)[]) =>
    (
      await db
        .prepare(sql)
        .bind(...params)
        .first<{ n: number }>()
    )?.n ?? 0
  const held = (db: D1Database, id: number) =>
    Promise.all([
      count(db, 'SELECT COUNT(*) AS n FROM providers WHERE id = ?', id),
      count(db, 'SELECT COUNT(*) AS n FROM provider_services WHERE provider_id = ?', id),
      count(db, 'SELECT COUNT(*) AS n FROM reviews WHERE provider_id = ?', id),
    ])

  it('is copied with its listings and reviews, switched in the directory, then removed from the old shard; again, nothing changes', async () => {
    const mover = await second
      .prepare(
        `SELECT p.id, v.version FROM providers p JOIN sync_versions v ON v.key = 'provider:' || p.id
          WHERE EXISTS (SELECT 1 FROM reviews WHERE provider_id = p.id)
            AND EXISTS (SELECT 1 FROM provider_services WHERE provider_id = p.id) LIMIT 1`,
      )
      .first<{ id: number; version: number }>()
    if (!mover) throw new Error('the test catalog has a provider with reviews on the second shard')
    const [, listings, reviews] = await held(second, mover.id)
    const reviewId = (
      await second
        .prepare('SELECT id FROM reviews WHERE provider_id = ?')
        .bind(mover.id)
        .first<{ id: number }>()
    )?.id
    const moved = aMessage('provider.upserted', (m) => {
      m.id = mover.id
      m.version = mover.version + 1
      m.entity.cityId = ATLANTA
    })
    const routed = routeMessages(databases.layout, [moved], {
      citySlug: (id) => (id === ATLANTA ? 'atlanta-ga' : null),
      providerShard: (id) => (id === mover.id ? 1 : null),
    })
    expect(routed.moves).toEqual([{ id: mover.id, from: 1, to: 0 }])
    await applyImported(first, routed.shards[0] ?? [], null)
    // The move, then the same move again (a retry): the same end.
    for (let run = 1; run <= 2; run++) {
      await moveProvider(databases, { id: mover.id, from: 1, to: 0 })
      expect(await held(first, mover.id)).toEqual([1, listings, reviews])
      expect(await held(second, mover.id)).toEqual([0, 0, 0])
      const cities = await first
        .prepare('SELECT DISTINCT city_id FROM provider_services WHERE provider_id = ?')
        .bind(mover.id)
        .raw<[number]>()
      expect(cities).toEqual([[ATLANTA]])
      expect(
        await databases.control
          .prepare('SELECT shard, city_id AS cityId, status FROM provider_directory WHERE id = ?')
          .bind(mover.id)
          .first(),
      ).toEqual({ shard: 0, cityId: ATLANTA, status: 'live' })
      expect(
        await count(
          second,
          `SELECT COUNT(*) AS n FROM sync_versions WHERE key = ? OR key LIKE ?`,
          `provider:${mover.id}`,
          `listing:${mover.id}:%`,
        ),
      ).toBe(0)
      // A review's version stays on the shard it left, as its removal there.
      expect(
        await count(
          second,
          'SELECT COUNT(*) AS n FROM sync_versions WHERE key = ? AND removed = 0',
          `review:${reviewId}`,
        ),
      ).toBe(0)
      expect(
        await count(
          first,
          'SELECT COUNT(*) AS n FROM sync_versions WHERE key LIKE ?',
          `listing:${mover.id}:%`,
        ),
      ).toBe(listings)
    }
  })
})
