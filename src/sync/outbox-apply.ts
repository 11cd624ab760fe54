import { COPIED_STATS } from './outbox'
import type { OutboxRow } from './outbox'

// Control's side of the outbox (src/sync/outbox.ts): the shards' pending rows staged in
// `outbox_staged` (those past each shard's `outbox_applied`, so a row sent twice is staged once),
// then applied kind by kind in one batch with control's own changes, then the last row applied of
// each shard recorded and the stage emptied: all of it one transaction.

/** SQL: the staged rows of `kind`, as `o`, each body's list `list` as `alias`. */
const staged = (kind: string, list?: string, alias = 'r') =>
  `outbox_staged AS o${list ? `, json_each(o.body -> '${list}') AS ${alias}` : ''} WHERE o.kind = '${kind}'`

/** SQL: an entity (`o.body`'s key and id) control's directory has. */
const IN_DIRECTORY = `CASE WHEN o.body ->> 'key' LIKE 'provider:%'
    THEN EXISTS (SELECT 1 FROM provider_directory WHERE id = o.body ->> 'id')
    ELSE EXISTS (SELECT 1 FROM job_directory WHERE id = o.body ->> 'id') END`

const STAGE = `INSERT OR IGNORE INTO outbox_staged (shard, seq, kind, body)
  SELECT r.value ->> 'shard', r.value ->> 'seq', r.value ->> 'kind', r.value ->> 'body'
    FROM json_each(?1) AS r
   WHERE r.value ->> 'seq' > COALESCE((SELECT seq FROM outbox_applied WHERE shard = r.value ->> 'shard'), 0)`

/** SQL: the purges of the staged rows of `kind` (`where` too), each (at, tag) once. */
const purges = (kind: string, where = 'true') => `INSERT INTO purges (at, tag)
  SELECT DISTINCT o.body ->> 'at', t.value FROM ${staged(kind, 'tags', 't')} AND ${where}
     AND NOT EXISTS (SELECT 1 FROM purges WHERE at = o.body ->> 'at' AND tag = t.value)`

// The gate's log and the purges of entities new to the catalog: before the directory rows.
const NEW_ENTITIES = [
  `INSERT INTO city_additions (slug) SELECT o.body ->> 'slug' FROM ${staged('addition')}
      AND NOT ${IN_DIRECTORY} ORDER BY o.shard, o.seq`,
  purges('new', `NOT ${IN_DIRECTORY}`),
  purges('purge'),
  `INSERT INTO pending_purges (tag, since)
   SELECT t.value, MIN(o.body ->> 'at') FROM ${staged('pending', 'tags', 't')}
    GROUP BY t.value
   ON CONFLICT (tag) DO NOTHING`,
]

/** SQL: a staged directory row's values `r.value ->> column`. */
const col = (column: string) => `(r.value ->> '${column}')`

const DIRECTORY = [
  // A removal deletes the row of the shard it was on, unless a newer version is there. Each
  // statement finds its rows by key (`IN`) before the correlated check: a bare EXISTS would read
  // the whole directory on every batch.
  `DELETE FROM provider_directory AS d
    WHERE d.id IN (SELECT ${col('id')} FROM ${staged('directory', 'providers')} AND ${col('removed')} = 1)
      AND EXISTS (SELECT 1 FROM ${staged('directory', 'providers')}
      AND ${col('id')} = d.id AND o.shard = d.shard AND ${col('removed')} = 1
      AND ${col('version')} >= d.version)`,
  `INSERT INTO directory_tombstones (key, version, shard)
   SELECT 'provider:' || ${col('id')}, ${col('version')}, o.shard
     FROM ${staged('directory', 'providers')} AND ${col('removed')} = 1 ORDER BY o.shard, o.seq
   ON CONFLICT (key) DO UPDATE SET version = excluded.version, shard = excluded.shard
    WHERE excluded.version > directory_tombstones.version`,
  `DELETE FROM directory_tombstones AS d
    WHERE d.key IN (SELECT 'provider:' || ${col('id')} FROM ${staged('directory', 'providers')}
                       AND ${col('removed')} = 0)
      AND EXISTS (SELECT 1 FROM ${staged('directory', 'providers')}
      AND ${col('removed')} = 0 AND d.key = 'provider:' || ${col('id')} AND ${col('version')} > d.version)`,
  `INSERT INTO provider_directory (id, shard, city_id, name_slug, version, updated_at)
   SELECT ${col('id')}, o.shard, ${col('city_id')}, ${col('name_slug')}, ${col('version')},
          ${col('updated_at')}
     FROM ${staged('directory', 'providers')} AND ${col('held')} = 1 ORDER BY o.shard, o.seq
   ON CONFLICT (id) DO UPDATE SET shard = excluded.shard, city_id = excluded.city_id,
     name_slug = excluded.name_slug, version = excluded.version, updated_at = excluded.updated_at
    WHERE excluded.version >= provider_directory.version`,
  `INSERT INTO job_directory (id, shard, city_id, title_slug, version, valid_through, updated_at)
   SELECT ${col('id')}, o.shard, ${col('city_id')}, ${col('title_slug')}, ${col('version')},
          ${col('valid_through')}, ${col('updated_at')}
     FROM ${staged('directory', 'jobs')} ORDER BY o.shard, o.seq
   ON CONFLICT (id) DO UPDATE SET shard = excluded.shard, city_id = excluded.city_id,
     title_slug = excluded.title_slug, version = excluded.version,
     valid_through = excluded.valid_through, updated_at = excluded.updated_at
    WHERE excluded.version >= job_directory.version`,
]

/**
 * The two statements replacing control's copy of `table`'s touched cells: the cells every staged
 * `stats` row names deleted, then each cell's rows from the newest staged row naming it (a cell
 * is on one shard: its city's).
 */
function copyStatements(table: keyof typeof COPIED_STATS): string[] {
  const { columns, cells } = COPIED_STATS[table]
  const cellOf = (row: string) =>
    cells.key.map((k) => `${row} ->> '${k === 'service' ? 'value' : k}'`)
  const named = `SELECT o.shard, o.seq, ${cellOf('t.value')
    .map((c, i) => `${c} AS k${i}`)
    .join(', ')}
      FROM ${staged('stats', 'touched', 't')} AND t.value ->> 'kind' = '${cells.kind}'`
  const key = `(${cells.key.join(', ')})`
  const notNational = table === 'rate_experience_stats' ? 'AND city_id != 0' : ''
  const rowKey = cells.key.map((k) => `r.value ->> '${k}'`)
  const newest = `o.seq = (SELECT MAX(n.seq) FROM (${named}) AS n WHERE n.shard = o.shard AND
      ${rowKey.map((k, i) => `n.k${i} = ${k}`).join(' AND ')})`
  return [
    `DELETE FROM ${table} WHERE ${key} IN (SELECT ${cells.key.map((_, i) => `k${i}`).join(', ')}
       FROM (${named})) ${notNational}`,
    `INSERT OR REPLACE INTO ${table} (${columns.join(', ')})
     SELECT ${columns.map((c) => `r.value ->> '${c}'`).join(', ')}
       FROM ${staged('stats', table)} AND ${newest}`,
  ]
}

/** The shards' sync_touched rows, for control's rollups and purges of what they touched. */
const TOUCHED = `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
  SELECT t.value ->> 'kind', t.value ->> 'value', t.value ->> 'city_id'
    FROM ${staged('stats', 'touched', 't')}`

const RECORDED = [
  `INSERT INTO outbox_applied (shard, seq) SELECT shard, MAX(seq) FROM outbox_staged WHERE true
    GROUP BY shard
   ON CONFLICT (shard) DO UPDATE SET seq = MAX(outbox_applied.seq, excluded.seq)`,
  'DELETE FROM outbox_staged',
]

/**
 * The statements applying `rows` (every shard's pending outbox rows) on control, in the order
 * they go: staged; the gate's log and the purges of new entities; the other purges; the
 * directory; the stats copies and the touched rows (then control's own derivation runs over
 * sync_touched: `recorded` comes after it).
 */
export function outboxStatements(control: D1Database, rows: readonly OutboxRow[]) {
  const copies = (Object.keys(COPIED_STATS) as (keyof typeof COPIED_STATS)[]).flatMap(
    copyStatements,
  )
  return {
    applied: [
      control.prepare(STAGE).bind(JSON.stringify(rows)),
      ...[...NEW_ENTITIES, ...DIRECTORY, ...copies, TOUCHED].map((sql) => control.prepare(sql)),
    ],
    recorded: RECORDED.map((sql) => control.prepare(sql)),
  }
}
