// Which of the single database's derivation statements run on a database of the split catalog
// (docs/scale.md): the stats of a shard's cities there, activities and rollups on control. The
// derivations (src/data/refresh-stats.ts, src/data/rollups.ts) are written once for one database;
// until they are split by database themselves, the routed apply keeps, of each table's run of
// statements (its DELETE then its INSERTs), the runs whose every table the database holds.
// A test holds these lists to the tables migrations/catalog and migrations/control create.

/** The tables of a shard (migrations/catalog). */
export const SHARD_TABLES: ReadonlySet<string> = new Set([
  'cities',
  'providers',
  'provider_services',
  'reviews',
  'service_city_stats',
  'catalog_meta',
  'jobs',
  'job_city_stats',
  'rate_experience_stats',
  'sync_versions',
  'sync_touched',
  'city_service_mixes',
  'outbox',
  'listing_stats_before',
  'service_mixes_before',
])

/** The tables of control (migrations/control). */
export const CONTROL_TABLES: ReadonlySet<string> = new Set([
  'cities',
  'service_city_stats',
  'catalog_meta',
  'job_city_stats',
  'rate_experience_stats',
  'activities',
  'activity_stats',
  'purge_log',
  'city_additions',
  'purges',
  'guest_messages',
  'cron_steps',
  'sync_versions',
  'sync_touched',
  'sync_dead',
  'zip_codes',
  'service_state_stats',
  'city_service_mixes',
  'activity_ends',
  'rate_experience_state_stats',
  'sitemap_caps',
  'sitemap_blocks',
  'pending_purges',
  'cron_cursors',
  'purge_snapshots',
  'purge_snapshot_parts',
  'sync_applied',
  'provider_directory',
  'job_directory',
  'directory_tombstones',
  'outbox_applied',
  'outbox_staged',
])

const KNOWN = new Set([...SHARD_TABLES, ...CONTROL_TABLES])

/** The known tables `sql` names (after FROM, JOIN, INTO or UPDATE). */
export function tablesNamed(sql: string): string[] {
  const names = [...sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/gi)].map((m) => m[1] ?? '')
  return [...new Set(names.filter((name) => KNOWN.has(name)))]
}

/** The table a statement writes: the first it names. */
const written = (sql: string) => tablesNamed(sql)[0] ?? ''

/** A statement as built, kept to be made again on the database it is kept for. */
interface Recorded {
  sql: string
  params: unknown[]
}

/** What `build` prepares, recorded rather than prepared. */
function record(build: (db: D1Database) => D1PreparedStatement[]): Recorded[] {
  const statement = (sql: string, params: unknown[] = []) => ({
    sql,
    params,
    bind: (...bound: unknown[]) => statement(sql, bound),
  })
  const recorder = { prepare: (sql: string) => statement(sql) }
  return build(recorder as unknown as D1Database) as unknown as Recorded[]
}

/**
 * The statements `build` makes for the single database, made on `db` (which holds `tables`):
 * each run of statements writing one table kept whole when `db` holds every table the run
 * names, dropped whole otherwise (a DELETE is never kept without the INSERT that refills it).
 */
export function keptOn(
  db: D1Database,
  tables: ReadonlySet<string>,
  build: (db: D1Database) => D1PreparedStatement[],
): D1PreparedStatement[] {
  const runs: Recorded[][] = []
  for (const statement of record(build)) {
    const last = runs[runs.length - 1]
    if (last && written(last[0]?.sql ?? '') === written(statement.sql)) last.push(statement)
    else runs.push([statement])
  }
  return runs
    .filter((run) => run.every(({ sql }) => tablesNamed(sql).every((t) => tables.has(t))))
    .flat()
    .map(({ sql, params }) => db.prepare(sql).bind(...params))
}
