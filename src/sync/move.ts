// A provider or a job whose new city is on another shard (docs/scale.md, "How sync routes a
// batch", step 6). A provider's change has been applied to the new shard, which now holds the
// provider; its listings, reviews and their versions are copied there, the directory is switched,
// and they are removed from the old shard. A job's row is whole in its message: the directory is
// switched and the old shard's row removed. Each step is idempotent, so a move cut short is
// finished by running it again, and the directory names the new shard only once the copy is there.
import { versionKey } from '../catalog/version-key'
import type { Databases } from '../data/databases'
import { shardStatsStatements } from '../data/refresh-stats'
import { RATINGS } from './apply'
import type { OutboxRow } from './outbox'
import { PENDING_OUTBOX, shardOutboxStatements } from './outbox'
import { statsBeforeOf, statsByChangeOf } from './stats-by-change'

export interface Move {
  id: number
  from: number
  to: number
}

/** Each shard's outbox rows control has applied, by shard number (0 for none). */
export type Applied = readonly number[]

/** The provider's rows a move carries, as the old shard holds them. */
interface Carried {
  listings: Record<string, unknown>[]
  reviews: Record<string, unknown>[]
  versions: { key: string; version: number; removed: number }[]
}

// Copied from the provider's row to its listings (as the sync's upsert does), for directories to
// filter on: the provider's new city and place.
const COPIED = ['city_id', 'lat', 'lng', 'years_experience', 'badges', 'availability']

/** SQL inserting the JSON rows of ?1 into `table`, each row's columns by name, keeping what is there. */
const insertRows = (table: string, columns: readonly string[]) =>
  `INSERT OR IGNORE INTO ${table} (${columns.join(', ')})
   SELECT ${columns.map((c) => `r.value ->> '${c}'`).join(', ')} FROM json_each(?1) AS r`

/**
 * Moves the provider; each shard's batch also moves the stats of the cities the provider left and
 * joined by the change, and writes its outbox (src/sync/outbox.ts). Resolves to each of the two
 * shards' pending outbox rows (past `applied`), for control to apply.
 */
export async function moveProvider(
  databases: Databases,
  move: Move,
  applied: Applied = [],
): Promise<OutboxRow[]> {
  const from = databases.shards[move.from]
  const to = databases.shards[move.to]
  if (!from || !to) throw new Error(`no shard ${move.from} or ${move.to} in the layout`)
  const control = databases.control
  // The row says where the provider is leaving until the old shard's rows are gone, so a move
  // cut short after the switch is finished by the next batch naming it, or by the cron.
  await control
    .prepare(
      `UPDATE provider_directory SET status = 'moving', moving_from = ?2 WHERE id = ?1 AND shard = ?2`,
    )
    .bind(move.id, move.from)
    .run()
  const carried = await carriedRows(from, move.id)
  const copied = await to.batch(
    withStats(to, move.id, applied[move.to] ?? 0, copyStatements(to, move.id, carried)),
  )
  await control
    .prepare(
      `UPDATE provider_directory SET shard = ?2,
              city_id = COALESCE((SELECT value FROM json_each(?3)), city_id)
        WHERE id = ?1`,
    )
    .bind(move.id, move.to, JSON.stringify([await cityOf(to, move.id)]))
    .run()
  const removed = await from.batch(
    withStats(from, move.id, applied[move.from] ?? 0, [
      ...[
        'DELETE FROM reviews WHERE provider_id = ?',
        'DELETE FROM provider_services WHERE provider_id = ?',
        'DELETE FROM providers WHERE id = ?',
      ].map((sql) => from.prepare(sql).bind(move.id)),
      from
        .prepare(
          `DELETE FROM sync_versions WHERE key IN (SELECT value ->> 'key' FROM json_each(?))
              AND key NOT LIKE 'review:%'`,
        )
        .bind(JSON.stringify(carried.versions)),
      // A review's version stays, as its removal from this shard (as every shard but its
      // provider's holds it): an older version of it arriving late changes nothing here.
      from
        .prepare(
          `UPDATE sync_versions SET removed = 1
            WHERE key IN (SELECT value ->> 'key' FROM json_each(?)) AND key LIKE 'review:%'`,
        )
        .bind(JSON.stringify(carried.versions)),
    ]),
  )
  await control
    .prepare(
      `UPDATE provider_directory SET status = 'live', moving_from = NULL WHERE id = ? AND moving_from = ?`,
    )
    .bind(move.id, move.from)
    .run()
  return [...pendingOf(copied, move.to), ...pendingOf(removed, move.from)]
}

/** The outbox rows a shard's batch ended by reading. */
function pendingOf(results: D1Result[], shard: number): OutboxRow[] {
  const rows = (results[results.length - 1]?.results ?? []) as Omit<OutboxRow, 'shard'>[]
  return rows.map((row) => ({ shard, ...row }))
}

/**
 * `change` on a shard with the stats it moves: what the provider's listings counted before and
 * after it (its cells listed as touched, its rating computed again), the outbox of the control
 * writes, the pending outbox read back.
 */
function withStats(
  db: D1Database,
  id: number,
  applied: number,
  change: D1PreparedStatement[],
): D1PreparedStatement[] {
  const ids = JSON.stringify([id])
  const cells = `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
    SELECT 'listing', service, city_id FROM provider_services WHERE provider_id = ?`
  const rated = `SELECT CAST(value AS INTEGER) FROM sync_touched WHERE kind = 'rating'`
  return [
    ...statsBeforeOf(db, ids),
    db.prepare(cells).bind(id),
    ...change,
    db.prepare(cells).bind(id),
    db
      .prepare(
        `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
        SELECT 'rating', id, 0 FROM providers WHERE id = ?`,
      )
      .bind(id),
    db.prepare(`${RATINGS} WHERE id IN (${rated})`),
    ...statsByChangeOf(db, ids, { rollups: false }),
    ...shardOutboxStatements(db, { providers: [], jobs: [] }),
    db.prepare('DELETE FROM sync_touched'),
    db.prepare(PENDING_OUTBOX).bind(applied),
  ]
}

async function carriedRows(shard: D1Database, id: number): Promise<Carried> {
  const [listings, reviews, versions] = await shard.batch([
    shard.prepare('SELECT * FROM provider_services WHERE provider_id = ?').bind(id),
    shard.prepare('SELECT * FROM reviews WHERE provider_id = ?').bind(id),
    shard
      .prepare(
        `SELECT key, version, removed FROM sync_versions
          WHERE key = ?2 OR key >= ?3 AND key < ?4
             OR key IN (SELECT 'review:' || id FROM reviews WHERE provider_id = ?1)`,
      )
      // The keys made here: a number bound in SQL text may read as a real (`12.0`).
      .bind(
        id,
        versionKey('provider', id),
        `${versionKey('listing', id)}:`,
        `${versionKey('listing', id)};`,
      ),
  ])
  return {
    listings: (listings?.results ?? []) as Record<string, unknown>[],
    reviews: (reviews?.results ?? []) as Record<string, unknown>[],
    versions: (versions?.results ?? []) as Carried['versions'],
  }
}

/**
 * One batch on the new shard: the listings and reviews the old one holds, unless the new one has
 * them already (a change applied there since); then the provider's fields copied to its listings;
 * then the versions, each kept where the new shard's is newer (at the same version, a review's
 * removal the new shard took while the review was on another shard gives way to the review).
 */
function copyStatements(to: D1Database, id: number, carried: Carried): D1PreparedStatement[] {
  const columns = (rows: Record<string, unknown>[]) => Object.keys(rows[0] ?? {})
  const statements: D1PreparedStatement[] = []
  if (carried.listings.length)
    statements.push(
      to
        .prepare(insertRows('provider_services', columns(carried.listings)))
        .bind(JSON.stringify(carried.listings)),
    )
  if (carried.reviews.length)
    statements.push(
      to
        .prepare(insertRows('reviews', columns(carried.reviews)))
        .bind(JSON.stringify(carried.reviews)),
    )
  statements.push(
    to
      .prepare(
        `UPDATE provider_services SET (${COPIED.join(', ')}) =
           (SELECT ${COPIED.join(', ')} FROM providers WHERE id = ?1)
          WHERE provider_id = ?1 AND EXISTS (SELECT 1 FROM providers WHERE id = ?1)`,
      )
      .bind(id),
    to
      .prepare(
        `INSERT INTO sync_versions (key, version, removed)
         SELECT r.value ->> 'key', r.value ->> 'version', r.value ->> 'removed' FROM json_each(?1) AS r
          WHERE true
         ON CONFLICT (key) DO UPDATE SET version = excluded.version, removed = excluded.removed
          WHERE excluded.version > sync_versions.version
             OR excluded.version = sync_versions.version AND excluded.removed < sync_versions.removed`,
      )
      .bind(JSON.stringify(carried.versions.filter((v) => v.key !== versionKey('provider', id)))),
  )
  return statements
}

async function cityOf(shard: D1Database, id: number): Promise<number | null> {
  const row = await shard
    .prepare('SELECT city_id FROM providers WHERE id = ?')
    .bind(id)
    .first<{ city_id: number }>()
  return row?.city_id ?? null
}

/**
 * Finishes a job's move between shards. A job is one row, which its message carries whole, so the
 * shard of its new city has already written it (the copy); what is left is to keep one of the two
 * rows. The newer version wins: a move's row, or the old shard's when the message was older than
 * what that shard holds (a late delivery naming the city it left). The directory names the
 * winner's shard, marked as moving from the loser's until the loser's row (and its version) is
 * deleted, in one batch that counts its city's jobs again and writes their stats and pages to its
 * outbox. Idempotent; resolves to the loser's pending outbox rows (past `applied`).
 */
export async function moveJob(
  databases: Databases,
  move: Move,
  { applied = [], now = new Date() }: { applied?: Applied; now?: Date } = {},
): Promise<OutboxRow[]> {
  const from = databases.shards[move.from]
  const to = databases.shards[move.to]
  if (!from || !to) throw new Error(`no shard ${move.from} or ${move.to} in the layout`)
  const [held, left] = await Promise.all([heldJob(to, move.id), heldJob(from, move.id)])
  if (held === null && left === null) return []
  const [winner, loser] =
    held !== null && (left === null || held >= left) ? [move.to, move.from] : [move.from, move.to]
  const control = databases.control
  await control
    .prepare(
      `UPDATE job_directory SET shard = ?2, status = 'moving', moving_from = ?3 WHERE id = ?1`,
    )
    .bind(move.id, winner, loser)
    .run()
  const db = databases.shards[loser] as D1Database
  const removed = await db.batch([
    db
      .prepare(
        `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
         SELECT 'jobs', service, city_id FROM jobs WHERE id = ?`,
      )
      .bind(move.id),
    db.prepare('DELETE FROM jobs WHERE id = ?').bind(move.id),
    db.prepare('DELETE FROM sync_versions WHERE key = ?').bind(versionKey('job', move.id)),
    ...shardStatsStatements(db, now, 'touched', { listings: false }),
    ...shardOutboxStatements(db, { providers: [], jobs: [] }),
    db.prepare('DELETE FROM sync_touched'),
    db.prepare(PENDING_OUTBOX).bind(applied[loser] ?? 0),
  ])
  await control
    .prepare(
      `UPDATE job_directory SET status = 'live', moving_from = NULL WHERE id = ? AND moving_from = ?`,
    )
    .bind(move.id, loser)
    .run()
  return pendingOf(removed, loser)
}

/** The version of the job `id` a shard holds a row of; null for none. */
async function heldJob(shard: D1Database, id: number): Promise<number | null> {
  const row = await shard
    .prepare(
      `SELECT v.version FROM jobs AS j JOIN sync_versions AS v ON v.key = ?2 WHERE j.id = ?1`,
    )
    .bind(id, versionKey('job', id))
    .first<{ version: number }>()
  return row?.version ?? null
}
