// The import into the catalog across databases (docs/scale.md): each batch routed by the
// placement (src/sync/route.ts), then applied to control and to each shard it touches, each part
// one atomic D1 batch with that database's own checkpoint, all in parallel. A resumed import
// starts after the lowest checkpoint of them all; a database ahead of it applies again lines it
// has, which its versions make a no-op. Once every line is in, the directory is built on control
// from what each shard holds. Free of Node's APIs, as import-lines.ts.
import { citySlug } from '../../src/catalog/cities'
import type { Databases } from '../../src/data/databases'
import type { Whereabouts } from '../../src/sync/route'
import { routeMessages } from '../../src/sync/route'
import type { Checkpoint } from './checkpoint'
import { readCheckpoint } from './checkpoint'
import type { ApplyTarget } from './import-lines'
import { applyImported } from './import-lines'

/** What the import learnt of where cities and providers are, batch after batch. */
class Learnt implements Whereabouts {
  readonly cities = new Map<number, string>()
  readonly providers = new Map<number, number>()
  citySlug = (id: number) => this.cities.get(id) ?? null
  providerShard = (id: number) => this.providers.get(id) ?? null
}

/**
 * Where the import's batches go when the catalog spans databases. What a resumed import applied
 * before is read back first (`resume`): the cities from control, the providers from each shard.
 */
export function shardedTarget(databases: Databases): ApplyTarget & {
  resume(): Promise<Checkpoint | null>
} {
  const learnt = new Learnt()
  const all = [databases.control, ...databases.shards]
  return {
    async apply(items, checkpoint) {
      const routed = routeMessages(
        databases.layout,
        items.map((i) => i.message),
        learnt,
      )
      const [first] = routed.unplaced
      if (first) throw new Error(first.reason)
      const parts = [
        applyImported(databases.control, routed.control, checkpoint),
        ...routed.shards.map((messages, n) =>
          applyImported(databases.shards[n] as D1Database, messages, checkpoint),
        ),
      ]
      // Every part runs to its end before a failure is reported, so no database is left with a
      // batch in flight while the import splits or retries it.
      const failed = (await Promise.allSettled(parts)).find((r) => r.status === 'rejected')
      if (failed) throw failed.reason
      for (const m of routed.control)
        if (m.kind === 'city.added')
          learnt.cities.set(m.id, citySlug(m.entity.name, m.entity.stateCode))
      routed.shards.forEach((messages, n) => {
        for (const m of messages) if (m.kind === 'provider.upserted') learnt.providers.set(m.id, n)
      })
    },
    async answers() {
      try {
        await Promise.all(all.map((db) => db.batch([db.prepare('SELECT 1')])))
        return true
      } catch {
        return false
      }
    },
    async resume() {
      const { results: cities } = await databases.control
        .prepare('SELECT id, slug FROM cities')
        .all<{ id: number; slug: string }>()
      for (const { id, slug } of cities) learnt.cities.set(id, slug)
      await Promise.all(
        databases.shards.map(async (db, n) => {
          for (const [id] of await db.prepare('SELECT id FROM providers').raw<[number]>())
            learnt.providers.set(id, n)
        }),
      )
      return lowestCheckpoint(await Promise.all(all.map(readCheckpoint)))
    },
  }
}

/**
 * Where a resumed import starts: the lowest of the databases' checkpoints, so no database misses
 * a line; null when any has none (it starts from the first line) or they name other files.
 */
export function lowestCheckpoint(checkpoints: readonly (Checkpoint | null)[]): Checkpoint | null {
  const [first] = checkpoints
  if (!first || checkpoints.some((c) => c === null || c.file !== first.file)) return null
  return { file: first.file, line: Math.min(...checkpoints.map((c) => c?.line ?? 0)) }
}

/** Directory rows copied a statement at a time: JSON of at most this many rows. */
const DIRECTORY_ROWS = 1000

const DIRECTORY = {
  provider_directory: {
    read: `SELECT p.id, p.city_id, p.name_slug, v.version, p.updated_at
      FROM providers p JOIN sync_versions v ON v.key = 'provider:' || p.id
     WHERE p.id > ? ORDER BY p.id LIMIT ${DIRECTORY_ROWS}`,
    columns: ['id', 'city_id', 'name_slug', 'version', 'updated_at'],
  },
  job_directory: {
    read: `SELECT j.id, j.city_id, j.title_slug, v.version, j.valid_through, j.posted_at AS updated_at
      FROM jobs j JOIN sync_versions v ON v.key = 'job:' || j.id
     WHERE j.id > ? ORDER BY j.id LIMIT ${DIRECTORY_ROWS}`,
    columns: ['id', 'city_id', 'title_slug', 'version', 'valid_through', 'updated_at'],
  },
} as const

/**
 * The directory on control, from what each shard holds: every provider and job with its shard,
 * written as the version it is at (an older row is replaced, a newer one kept). Read and written
 * a thousand rows at a time, each shard's in turn.
 */
export async function buildDirectory(databases: Databases): Promise<void> {
  const control = databases.control
  for (const [table, { read, columns }] of Object.entries(DIRECTORY)) {
    const insert = control.prepare(
      `INSERT INTO ${table} (shard, ${columns.join(', ')})
       SELECT ?1, ${columns.map((c) => `r.value ->> '${c}'`).join(', ')} FROM json_each(?2) AS r WHERE true
       ON CONFLICT (id) DO UPDATE SET
         ${['shard', ...columns.slice(1)].map((c) => `${c} = excluded.${c}`).join(', ')}
       WHERE excluded.version >= ${table}.version`,
    )
    for (const [n, shard] of databases.shards.entries()) {
      for (let after = -1; ;) {
        const { results } = await shard.prepare(read).bind(after).all<{ id: number }>()
        if (results.length === 0) break
        await insert.bind(n, JSON.stringify(results)).run()
        after = results[results.length - 1]?.id ?? after
      }
    }
  }
}
