import type { Db } from './db'

// The reads of sitemaps (src/routes/sitemaps.ts): derived stats for pages about many things,
// id ranges of the catalog for pages about one. Every read is bounded by an id range or by a
// small derived table, so no sitemap holds the catalog in memory.

/** How many rows each kind of sitemap file is cut from: files are blocks of them in id order. */
export interface SitemapBounds {
  cities: number
  providers: number
  jobs: number
}

export type BlockTable = keyof SitemapBounds

// Counted, never sized by the largest id: ids are the source's own (GeoNames ids for cities, a
// marketplace's ids for providers and jobs), as far apart as it likes.
export async function findSitemapBounds(db: Db): Promise<SitemapBounds> {
  const row = await db.first<SitemapBounds>(
    `SELECT (SELECT COUNT(*) FROM cities) AS cities, (SELECT COUNT(*) FROM providers) AS providers,
            (SELECT COUNT(*) FROM jobs) AS jobs`,
  )
  return { cities: row?.cities ?? 0, providers: row?.providers ?? 0, jobs: row?.jobs ?? 0 }
}

/** An inclusive range of ids. */
export interface IdRange {
  first: number
  last: number
}

/**
 * The n-th block of `size` rows of `table` in id order (n from 1), as consecutive id ranges of at
 * most `part` rows each; none past the last block.
 */
export function findBlock(
  db: Db,
  table: BlockTable,
  n: number,
  size: number,
  part: number,
): Promise<IdRange[]> {
  return db.all<IdRange>(
    `SELECT MIN(id) AS first, MAX(id) AS last
       FROM (SELECT id, (ROW_NUMBER() OVER (ORDER BY id) - 1) / CAST(? AS INTEGER) AS part
               FROM (SELECT id FROM ${table} ORDER BY id LIMIT ? OFFSET ?))
      GROUP BY part ORDER BY part`,
    part,
    size,
    (n - 1) * size,
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
    `SELECT service, state_code AS stateCode, MAX(providers) AS providers,
            MAX(updated_at) AS updatedAt
       FROM service_city_stats GROUP BY service, state_code`,
  )
}

/** Providers per service nationally, and when their data last changed. */
export function findNationalRows(
  db: Db,
): Promise<{ service: string; providers: number; updatedAt: string }[]> {
  return db.all(
    `SELECT service, SUM(providers) AS providers, MAX(updated_at) AS updatedAt
       FROM service_city_stats GROUP BY service`,
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

/** Up to `limit` providers with ids in (after, last], in id order. */
export function findProviderRows(
  db: Db,
  after: number,
  last: number,
  limit: number,
): Promise<EntityRow[]> {
  return db.all<EntityRow>(
    `SELECT id, name_slug AS slug, updated_at AS updatedAt FROM providers
      WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`,
    after,
    last,
    limit,
  )
}

/** Up to `limit` jobs still open at `openUntil` with ids in (after, last], in id order. */
export function findOpenJobRows(
  db: Db,
  after: number,
  last: number,
  openUntil: string,
  limit: number,
): Promise<EntityRow[]> {
  return db.all<EntityRow>(
    `SELECT id, title_slug AS slug, posted_at AS updatedAt FROM jobs
      WHERE id > ? AND id <= ? AND valid_through > ? ORDER BY id LIMIT ?`,
    after,
    last,
    openUntil,
    limit,
  )
}
