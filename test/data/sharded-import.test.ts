// The import into control and the shards (docs/scale.md), resumed half-way: the shards together
// hold exactly the rows the single database holds, each provider and job on its city's shard
// with its listings and reviews, control and every shard the cities, control the activities, and
// the directory on control names every provider's and job's shard.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { importLines } from '../../scripts/import/import-lines'
import { buildDirectory, lowestCheckpoint, shardedTarget } from '../../scripts/import/sharded'
import { databasesOf } from '../../src/data/databases'

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
  await buildDirectory(databases)
  // The whole test catalog, imported twice over in effect: more than a hook's default time.
}, 60_000)

/** Rows of `sql` on `db`, without the columns the import's finish derives (ratings). */
async function rows(db: D1Database, sql: string): Promise<unknown[]> {
  const { results } = await db.prepare(sql).all<Record<string, unknown>>()
  for (const row of results) {
    delete row.rating
    delete row.review_count
  }
  return results
}

async function onShards(sql: string): Promise<unknown[]> {
  return (await Promise.all(databases.shards.map((db) => rows(db, sql)))).flat()
}

describe('the test catalog imported into two shards and control', () => {
  it('resumed from the checkpoint every database had reached', () => {
    expect(resumedAt).toBe(Math.floor(lines.length / 2))
  })

  it.each([
    ['providers', 'id'],
    ['provider_services', 'provider_id, service'],
    ['reviews', 'id'],
    ['jobs', 'id'],
  ])('holds each row of %s on one shard, as the single database holds it', async (table, key) => {
    const sql = `SELECT * FROM ${table} ORDER BY ${key}`
    const sharded = await onShards(sql)
    const single = await rows(env.DB, sql)
    expect(single.length).toBeGreaterThan(0)
    expect(sharded.length).toBe(single.length)
    expect(new Set(sharded.map((r) => JSON.stringify(r)))).toEqual(
      new Set(single.map((r) => JSON.stringify(r))),
    )
  })

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
    const cities = await rows(env.DB, 'SELECT * FROM cities ORDER BY id')
    for (const db of [databases.control, ...databases.shards])
      expect(await rows(db, 'SELECT * FROM cities ORDER BY id')).toEqual(cities)
    expect(await rows(databases.control, 'SELECT * FROM activities ORDER BY id')).toEqual(
      await rows(env.DB, 'SELECT * FROM activities ORDER BY id'),
    )
  })

  it('keeps every version the single database keeps, where its entity is', async () => {
    const sql = 'SELECT * FROM sync_versions ORDER BY key'
    const sharded = [...(await rows(databases.control, sql)), ...(await onShards(sql))]
    expect(new Set(sharded.map((r) => JSON.stringify(r)))).toEqual(
      new Set((await rows(env.DB, sql)).map((r) => JSON.stringify(r))),
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

describe('lowestCheckpoint', () => {
  it('resumes from the lowest line, and from the start when a database has none or another file', () => {
    const at = (line: number, file = FILE) => ({ file, line })
    expect(lowestCheckpoint([at(40), at(20), at(30)])).toEqual(at(20))
    expect(lowestCheckpoint([at(40), null])).toBeNull()
    expect(lowestCheckpoint([at(40), at(20, 'another file')])).toBeNull()
  })
})
