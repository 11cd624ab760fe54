// The outbox between a shard and control (docs/scale.md, "How sync routes a batch"). A shard's
// part of a batch writes, in its own transaction, the control writes its changes imply as rows of
// its `outbox`; control applies every shard's pending rows in one batch of its own, in `seq`
// order, and records the last row it applied of each shard (`outbox_applied`), so a retry that
// sends the same rows again applies none of them twice.
//
// The kinds of outbox rows, each a JSON body:
// - `purge` {at, tags}: purged at once; `pending` {at, tags}: held back to coalesce;
// - `new` {at, tags, key, id}: purged only when the entity is new to the whole catalog, which
//   control's directory decides (a provider moving in is new to its shard, not to the catalog);
// - `addition` {slug, key, id}: logged for the gate when control's directory has no such id;
// - `directory` {providers, jobs}: the directory rows of the batch's providers and jobs as the
//   shard holds them now, a removed provider as its tombstone;
// - `stats` {touched, service_city_stats, rate_experience_stats, city_service_mixes,
//   job_city_stats}: the shard's sync_touched rows (control's rollups and purges are derived
//   from them) and the stats rows of the touched cells as they now are: control's copies of
//   those cells are replaced by the newest shard's rows.

/** One pending outbox row, as a shard returns it and control stages it. */
export interface OutboxRow {
  shard: number
  seq: number
  kind: string
  body: string
}

/** SQL: the rows of `table` as JSON objects of `columns`, where `where`. */
const rowsOf = (table: string, columns: readonly string[], where: string) =>
  `(SELECT json_group_array(json_object(${columns.map((c) => `'${c}', s.${c}`).join(', ')}))
      FROM ${table} AS s WHERE ${where})`

const LISTING_CELLS = `(s.service, s.city_id) IN
  (SELECT value, city_id FROM sync_touched WHERE kind = 'listing')`

/** The stats tables control keeps copies of, with their columns and the cells a batch touched. */
export const COPIED_STATS = {
  service_city_stats: {
    columns: [
      'service',
      'city_id',
      'state_code',
      'providers',
      'rate_avg',
      'rate_min',
      'rate_max',
      'pay_unit',
      'updated_at',
      'checked',
      'reviewed',
      'reviews',
      'rating_avg',
    ],
    cells: { kind: 'listing', key: ['service', 'city_id'] },
    where: LISTING_CELLS,
  },
  rate_experience_stats: {
    columns: ['service', 'city_id', 'band', 'providers', 'rate_avg'],
    cells: { kind: 'listing', key: ['service', 'city_id'] },
    where: `${LISTING_CELLS} AND s.city_id != 0`,
  },
  city_service_mixes: {
    columns: ['city_id', 'services', 'providers'],
    cells: { kind: 'listing', key: ['city_id'] },
    where: `s.city_id IN (SELECT city_id FROM sync_touched WHERE kind = 'listing')`,
  },
  job_city_stats: {
    columns: ['service', 'city_id', 'state_code', 'jobs', 'pay_avg', 'updated_at'],
    cells: { kind: 'jobs', key: ['service', 'city_id'] },
    where: `(s.service, s.city_id) IN (SELECT value, city_id FROM sync_touched WHERE kind = 'jobs')`,
  },
} as const

/** SQL (on a shard, before sync_touched is emptied): the `stats` row of what the batch touched. */
const STATS_OUTBOX = `INSERT INTO outbox (kind, body)
  SELECT 'stats', json_object(
    'touched', (SELECT json_group_array(json_object('kind', kind, 'value', value, 'city_id', city_id))
                  FROM sync_touched),
    ${Object.entries(COPIED_STATS)
      .map(([table, { columns, where }]) => `'${table}', ${rowsOf(table, columns, where)}`)
      .join(',\n    ')})
  WHERE EXISTS (SELECT 1 FROM sync_touched)`

/**
 * SQL (on a shard, at the end of its batch): the `directory` row of the providers (`?1`, ids)
 * and jobs (`?2`) the batch changed.
 */
const DIRECTORY_OUTBOX = `INSERT INTO outbox (kind, body)
  SELECT 'directory', json_object(
    'providers', (SELECT json_group_array(json_object('id', v.id, 'version', s.version,
        'removed', s.removed, 'held', p.id IS NOT NULL, 'city_id', p.city_id,
        'name_slug', p.name_slug, 'updated_at', p.updated_at))
      FROM (SELECT CAST(value AS INTEGER) AS id FROM json_each(?1)) AS v
      JOIN sync_versions AS s ON s.key = 'provider:' || v.id
      LEFT JOIN providers AS p ON p.id = v.id),
    'jobs', (SELECT json_group_array(json_object('id', j.id, 'version', s.version,
        'city_id', j.city_id, 'title_slug', j.title_slug, 'valid_through', j.valid_through,
        'updated_at', j.posted_at))
      FROM json_each(?2) AS v JOIN jobs AS j ON j.id = v.value
      JOIN sync_versions AS s ON s.key = 'job:' || j.id))
  WHERE json_array_length(?1) + json_array_length(?2) > 0`

/** SQL (on a shard, last in its batch): every outbox row control has not yet applied. */
export const PENDING_OUTBOX = 'SELECT seq, kind, body FROM outbox WHERE seq > ?1 ORDER BY seq'

/**
 * The statements ending a shard's part of a batch of `messages`, before sync_touched is emptied:
 * its `stats` and `directory` outbox rows.
 */
export function shardOutboxStatements(
  db: D1Database,
  { providers, jobs }: { providers: readonly number[]; jobs: readonly number[] },
): D1PreparedStatement[] {
  return [
    db.prepare(STATS_OUTBOX),
    db.prepare(DIRECTORY_OUTBOX).bind(JSON.stringify(providers), JSON.stringify(jobs)),
  ]
}

/** The statements opening a shard's part: its outbox rows control has applied, deleted. */
export function outboxCleanup(db: D1Database, applied: number): D1PreparedStatement {
  return db.prepare('DELETE FROM outbox WHERE seq <= ?').bind(applied)
}
