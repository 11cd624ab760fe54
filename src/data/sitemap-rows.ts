import type { Db } from './db'

// The reads of sitemaps (src/routes/sitemaps.ts): derived stats for pages about many things,
// blocks of the catalog for pages about one. Every read is bounded by a block's id range or by
// a small derived table, so no sitemap reads or holds the catalog whole.

/** The tables sitemap files are cut from, in blocks of rows in id order. */
export const BLOCK_TABLES = ['cities', 'providers', 'jobs'] as const
export type BlockTable = (typeof BLOCK_TABLES)[number]

/** Where the one database's sitemap rows are: its cities, providers and jobs. */
export const CATALOG_TABLES = { cities: 'cities', providers: 'providers', jobs: 'jobs' } as const

/** The tables a database's sitemap rows of each source are read from. */
export type BlockTables = Readonly<Record<BlockTable, string>>

/** Where control's sitemap rows are: its cities, and its directory of providers and jobs. */
export const CONTROL_BLOCK_TABLES = {
  cities: 'cities',
  providers: 'provider_directory',
  jobs: 'job_directory',
} as const

// The first block of a table starts at the lowest id SQLite has, so every id falls in a block.
const LOWEST_ID = '-9223372036854775808'

/**
 * The statements that cut every table into blocks of `sitemap_caps` rows again, each full but
 * the last (migrations/control/0001_control.sql). Between them, the tables' triggers keep each
 * block's count as rows come and go, splitting a full block in two: the cron and the import run
 * these with the other derived stats (src/data/refresh-stats.ts) to pack the halves again.
 * Ids are the source's own (GeoNames ids for cities, a marketplace's ids for providers and
 * jobs), as far apart as it likes, so blocks are cut by rows, never by id ranges of a set width.
 * `from` names the table each source's rows are counted in: control cuts providers and jobs
 * from its directory (docs/scale.md).
 */
export function packBlocksSql(from: BlockTables = CATALOG_TABLES): string[] {
  return [
    'DELETE FROM sitemap_blocks',
    ...BLOCK_TABLES.map(
      (table) =>
        `INSERT INTO sitemap_blocks (source, first_id, size)
         SELECT '${table}', IIF(n = 0, ${LOWEST_ID}, MIN(id)), COUNT(*) FROM (
           SELECT id, (ROW_NUMBER() OVER (ORDER BY id) - 1)
                      / (SELECT size FROM sitemap_caps WHERE source = '${table}') AS n
             FROM ${from[table]})
          GROUP BY n`,
    ),
    `INSERT OR IGNORE INTO sitemap_blocks SELECT source, ${LOWEST_ID}, 0 FROM sitemap_caps`,
  ]
}

/** How many blocks, none empty, each table has: a few rows, whatever the catalog's size. */
export async function countBlocks(db: Db): Promise<Record<BlockTable, number>> {
  const rows = await db.all<{ source: BlockTable; blocks: number }>(
    `SELECT source, COUNT(*) AS blocks FROM sitemap_blocks WHERE size > 0 GROUP BY source`,
  )
  const counts = { cities: 0, providers: 0, jobs: 0 }
  for (const { source, blocks } of rows) counts[source] = blocks
  return counts
}

/** An inclusive range of ids. */
export interface IdRange {
  first: number
  last: number
}

// The id where the table's (?1) non-empty block at `offset` starts.
const blockStart = (offset: string) => `SELECT first_id FROM sitemap_blocks
  WHERE source = ?1 AND size > 0 ORDER BY first_id LIMIT 1 OFFSET ${offset}`

/**
 * The rows of the n-th block of `table` (n from 1), as consecutive id ranges of at most `part`
 * rows each; none past the last block. Reads the block rows up to the next one and the block's
 * own ids, never the rows of the blocks before it. `from`: where the database keeps each
 * table's rows.
 */
export function findBlock(
  db: Db,
  table: BlockTable,
  n: number,
  part: number,
  from: BlockTables = CATALOG_TABLES,
): Promise<IdRange[]> {
  return db.all<IdRange>(
    `SELECT MIN(id) AS first, MAX(id) AS last
       FROM (SELECT id, (ROW_NUMBER() OVER (ORDER BY id) - 1) / CAST(?4 AS INTEGER) AS part FROM ${from[table]}
              WHERE id >= (${blockStart('?2')})
                AND id <= IFNULL((${blockStart('?3')}) - 1, 9223372036854775807))
      GROUP BY part ORDER BY part`,
    table,
    n - 1,
    n,
    part,
  )
}

export interface CityRow {
  /** A provider service slug (service_city_stats) or a job service slug (job_city_stats). */
  service: string
  cityId: number
  citySlug: string
  count: number
  updatedAt: string
}

/** Providers per service in the cities with ids in [first, last]. */
export function findServiceCityRows(db: Db, first: number, last: number): Promise<CityRow[]> {
  return db.all<CityRow>(
    `SELECT s.service, s.city_id AS cityId, c.slug AS citySlug, s.providers AS count,
            s.updated_at AS updatedAt
       FROM service_city_stats s JOIN cities c ON c.id = s.city_id
      WHERE s.city_id BETWEEN ? AND ? ORDER BY s.city_id, s.service`,
    first,
    last,
  )
}

/** Open jobs per job service in the cities with ids in [first, last]. */
export function findJobCityRows(db: Db, first: number, last: number): Promise<CityRow[]> {
  return db.all<CityRow>(
    `SELECT s.service, s.city_id AS cityId, c.slug AS citySlug, s.jobs AS count,
            s.updated_at AS updatedAt
       FROM job_city_stats s JOIN cities c ON c.id = s.city_id
      WHERE s.city_id BETWEEN ? AND ? ORDER BY s.city_id, s.service`,
    first,
    last,
  )
}

/** Per service and state, the providers of its largest city and the newest date (as findStateLeaders). */
export function findStateRows(
  db: Db,
): Promise<{ service: string; stateCode: string; providers: number; updatedAt: string }[]> {
  return db.all(
    `SELECT service, state_code AS stateCode, leader AS providers, updated_at AS updatedAt
       FROM service_state_stats`,
  )
}

/** Providers per service nationally, and when their data last changed: a row per state summed. */
export function findNationalRows(
  db: Db,
): Promise<{ service: string; providers: number; updatedAt: string }[]> {
  return db.all(
    `SELECT service, SUM(providers) AS providers, MAX(updated_at) AS updatedAt
       FROM service_state_stats GROUP BY service`,
  )
}

export function findActivityRows(db: Db): Promise<{ keyword: string; activities: number }[]> {
  return db.all('SELECT keyword, activities FROM activity_stats')
}

export interface EntityRow {
  id: number
  slug: string
  updatedAt: string
}

/**
 * Up to `limit` providers with ids in (after, last], in id order, from `from`'s table of them
 * (the catalog's, or control's directory, whose rows carry the same columns).
 */
export function findProviderRows(
  db: Db,
  from: BlockTables,
  after: number,
  last: number,
  limit: number,
): Promise<EntityRow[]> {
  return db.all<EntityRow>(
    `SELECT id, name_slug AS slug, updated_at AS updatedAt FROM ${from.providers}
      WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`,
    after,
    last,
    limit,
  )
}

/**
 * Up to `limit` jobs still open at `openUntil` with ids in (after, last], in id order, from
 * `from`'s table of them (the directory's `updated_at` is the job's posting time).
 */
export function findOpenJobRows(
  db: Db,
  from: BlockTables,
  after: number,
  last: number,
  openUntil: string,
  limit: number,
): Promise<EntityRow[]> {
  return db.all<EntityRow>(
    `SELECT id, title_slug AS slug, ${from.jobs === 'jobs' ? 'posted_at' : 'updated_at'} AS updatedAt
       FROM ${from.jobs}
      WHERE id > ? AND id <= ? AND valid_through > ? ORDER BY id LIMIT ?`,
    after,
    last,
    openUntil,
    limit,
  )
}
