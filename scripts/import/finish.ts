// What an import does once, after its last batch (each batch skipped its own derivation): the
// ratings and stats computed again from the whole catalog, the gate rebuilt from control's
// directory and every stored page purged. Across databases (docs/scale.md), each database's own
// end: every shard's, then control's from what the shards computed.
import type { Databases } from '../../src/data/databases'
import { controlStatsStatements, shardStatsStatements } from '../../src/data/refresh-stats'
import { buildGate } from '../../src/gate/build-gate'
import { saveGate } from '../../src/gate/gate-store'
import { RATINGS } from '../../src/sync/apply'
import { ALL_PAGES_TAGS } from '../../src/sync/purge-tags'
import { buildDirectory } from './sharded'

export interface Finished {
  gateItems: number
  gateBytes: number
}

/** The end of an import: each database's own (`finishSharded`), then the gate from control. */
export async function finishImport(
  databases: Databases,
  gate: KVNamespace,
  now: Date,
): Promise<Finished> {
  await finishSharded(databases, now)
  return rebuildGate(databases.control, gate, now)
}

/** The gate alone, from control's directory (`npm run seed` with nothing to do, the import's end). */
export async function rebuildGate(
  control: D1Database,
  kv: KVNamespace,
  now: Date,
): Promise<Finished> {
  const gate = await buildGate(control, now)
  await saveGate(kv, gate)
  return { gateItems: gate.meta.items, gateBytes: gate.bytes().byteLength }
}

/**
 * The end of an import into control and the shards, per database and with no join across them:
 * each shard's ratings and its cities' stats in one batch of its own, all shards at once; then
 * control's directory (whose rows carry the ratings) and its copies of the cities' rows, read
 * from the shards and written a thousand at a time; then control's rollups, activity stats,
 * sitemap blocks and the purge of every page in one batch. Run again, it ends the same.
 */
export async function finishSharded(databases: Databases, now: Date): Promise<void> {
  await Promise.all(
    databases.shards.map((db) =>
      db.batch([
        db.prepare(RATINGS),
        ...shardStatsStatements(db, now),
        db.prepare('DELETE FROM sync_touched'),
      ]),
    ),
  )
  await buildDirectory(databases)
  await copyCityRows(databases)
  const control = databases.control
  await control.batch([
    ...controlStatsStatements(control, now),
    control
      .prepare('INSERT INTO purges (at, tag) SELECT ?, value FROM json_each(?)')
      .bind(now.getTime(), JSON.stringify(ALL_PAGES_TAGS)),
    control.prepare('DELETE FROM sync_touched'),
  ])
}

/** The rows a shard derives of its own cities, which control keeps copies of: table → key. */
export const CITY_ROWS = {
  service_city_stats: ['service', 'city_id'],
  job_city_stats: ['service', 'city_id'],
  rate_experience_stats: ['service', 'city_id', 'band'],
  city_service_mixes: ['city_id', 'services'],
} as const

/** City rows copied a statement at a time: JSON of at most this many rows. */
const COPIED_ROWS = 1000

/**
 * Control's copies of every shard's city rows, replaced whole: each table's rows read from each
 * shard in key order, a thousand at a time, each page one insert on control.
 */
export async function copyCityRows({ control, shards }: Databases): Promise<void> {
  await control.batch(
    Object.keys(CITY_ROWS).map((table) => control.prepare(`DELETE FROM ${table}`)),
  )
  for (const [table, key] of Object.entries(CITY_ROWS))
    for (const shard of shards) {
      for (let after: unknown[] | null = null; ;) {
        const rows = await readPage(shard, table, key, after)
        const final = rows[rows.length - 1]
        if (!final) break
        const columns = Object.keys(final)
        await control
          .prepare(
            `INSERT INTO ${table} (${columns.join(', ')})
             SELECT ${columns.map((c) => `r.value ->> '${c}'`).join(', ')} FROM json_each(?) AS r`,
          )
          .bind(JSON.stringify(rows))
          .run()
        after = key.map((k) => final[k])
      }
    }
}

/** The rows of `table` in `key` order after the key `after` (from the first when null). */
async function readPage(
  db: D1Database,
  table: string,
  key: readonly string[],
  after: unknown[] | null,
): Promise<Record<string, unknown>[]> {
  const order = key.join(', ')
  const where = after ? `(${order}) > (${key.map(() => '?').join(', ')})` : 'true'
  const { results } = await db
    .prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT ${COPIED_ROWS}`)
    .bind(...(after ?? []))
    .all<Record<string, unknown>>()
  return results
}
