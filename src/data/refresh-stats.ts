import { EXPERIENCE_BANDS } from '../catalog/cost-guides'
import { BADGES } from '../catalog/enums'
import { cityMixSql, controlRollupSql } from './rollups'
import { CONTROL_BLOCK_TABLES, packBlocksSql } from './sitemap-rows'

/** The background check's bit in a provider's badges. */
export const BACKGROUND_CHECK = 2 ** BADGES.findIndex((b) => b.code === 'BACKGROUND_CHECK')

/** The band of `column` (years of experience), as SQL: 0 for the first of EXPERIENCE_BANDS… */
export const bandOf = (column: string) =>
  `CASE ${EXPERIENCE_BANDS.map((b, i) => `WHEN ${column} <= ${b.max} THEN ${i}`).join(' ')} END`

/**
 * Which rows a refresh recomputes: every row, or only those of the services and cities a catalog
 * sync batch touched, as listed in `sync_touched` (src/sync/apply.ts): `listing` rows name a
 * service and city of provider_services, `jobs` rows a job service and city, `keyword` rows an
 * activity keyword.
 */
export type StatsScope = 'all' | 'touched'

const touched = (kind: string, columns = 'value, city_id') =>
  `SELECT ${columns} FROM sync_touched WHERE kind = '${kind}'`

/**
 * SQL: the mean rating of the providers rated, from the sum of their ratings in hundredths (each
 * rating has two decimals): an exact integer, so a sync batch adds and subtracts it
 * (src/sync/stats-by-change.ts) and gets the very value a recompute gives.
 */
const RATING_AVG = 'SUM(ROUND(p.rating * 100)) / (100.0 * SUM(p.rating IS NOT NULL))'

/** `FROM` and `WHERE` of each aggregate, for the scope. */
function sources(scope: StatsScope) {
  const all = scope === 'all'
  const listings = (alias: string) =>
    all
      ? `provider_services ${alias}`
      : `sync_touched t JOIN provider_services ${alias}
           ON ${alias}.service = t.value AND ${alias}.city_id = t.city_id AND t.kind = 'listing'`
  return {
    listings,
    jobs: all
      ? 'jobs j'
      : `sync_touched t JOIN jobs j ON j.service = t.value AND j.city_id = t.city_id AND t.kind = 'jobs'`,
    /** The rows to delete before the aggregate is written again. */
    where: (kind: string, key = '(service, city_id)') =>
      all ? '' : `WHERE ${key} IN (${touched(kind, key === 'keyword' ? 'value' : undefined)})`,
    keywords: (column: string) => (all ? '' : `AND ${column} IN (${touched('keyword', 'value')})`),
  }
}

/** Whether the listings' stats and rollups are derived (see `statsStatements`). */
export interface StatsOptions {
  listings?: boolean
}

/**
 * The statements that recompute service_city_stats and rate_experience_stats from
 * provider_services, job_city_stats from the jobs open at `now` and activity_stats from the
 * activities not yet ended, for `scope`. Their updated_at is when the data last changed (the
 * newest provider update, the newest job posting): pages' Last-Modified and sitemaps' lastmod.
 * Activities carry no date of change, so activity_stats has the refresh time. The national rates
 * by experience (city_id 0) are summed from the states' rows with the other rollups (rollups.ts).
 * With `listings` false the listings' stats and rollups are left out: the sync consumer updates
 * them from the change itself (src/sync/stats-by-change.ts). In one database, exactly the shard
 * part followed by the control part (below), the sitemap blocks cut from its own providers and
 * jobs.
 */
export function statsStatements(
  d1: D1Database,
  now: Date,
  scope: StatsScope,
  options: StatsOptions = {},
): D1PreparedStatement[] {
  return [...shardPart(now, scope, options), ...controlPart(now, scope, options)].map(prepared(d1))
}

/** A part of the derivation (`scope`: every row, or what a sync batch touched), on `d1`. */
const onDatabase =
  (part: (now: Date, scope: StatsScope, options: StatsOptions) => Statement[]) =>
  (d1: D1Database, now: Date, scope: StatsScope = 'all', options: StatsOptions = {}) =>
    part(now, scope, options).map(prepared(d1))

/**
 * When the catalog spans databases (docs/scale.md), a shard's part of `statsStatements`: the
 * stats of its own cities, from its own providers, listings and jobs (every city's, or those a
 * sync batch touched).
 */
export const shardStatsStatements = onDatabase(shardPart)

/**
 * Control's part: the activities' stats, the rollups of many cities (per state, national) from
 * the cities' rows copied from the shards, and (for `all`) the sitemap blocks cut from its cities
 * and its directory. Together with every shard's part, the rows `statsStatements` derives in one
 * database.
 */
export const controlStatsStatements = onDatabase((now, scope, options) =>
  controlPart(now, scope, options, CONTROL_BLOCK_TABLES),
)

function shardPart(now: Date, scope: StatsScope, { listings = true }: StatsOptions): Statement[] {
  const s = sources(scope)
  return [
    ...(listings ? listingStatements(s) : []),
    ...jobStatements(s, now),
    ...(listings ? cityMixSql(scope === 'touched') : []),
  ]
}

function controlPart(
  now: Date,
  scope: StatsScope,
  { listings = true }: StatsOptions,
  /** Where the sitemap blocks are cut from: the catalog's own tables unless named. */
  blocks?: Parameters<typeof packBlocksSql>[0],
): Statement[] {
  return [
    ...activityStatements(sources(scope), now),
    ...controlRollupSql({ touched: scope === 'touched', listings }),
    // A sync batch's rows keep the sitemap blocks by the tables' triggers; all of them packs them.
    ...(scope === 'all' ? packBlocksSql(blocks) : []),
  ]
}

type Statement = string | ((d1: D1Database) => D1PreparedStatement)

const prepared = (d1: D1Database) => (sql: Statement) =>
  typeof sql === 'string' ? d1.prepare(sql) : sql(d1)

function listingStatements(s: ReturnType<typeof sources>): Statement[] {
  return [
    `DELETE FROM service_city_stats ${s.where('listing')}`,
    `INSERT INTO service_city_stats
         (service, city_id, state_code, providers, rate_avg, rate_min, rate_max, pay_unit, updated_at,
          checked, reviewed, reviews, rating_avg)
       SELECT ps.service, ps.city_id, c.state_code, COUNT(*),
              AVG((ps.rate_min + ps.rate_max) / 2.0), MIN(ps.rate_min), MAX(ps.rate_max),
              MIN(ps.pay_unit), MAX(p.updated_at),
              SUM(ps.badges & ${BACKGROUND_CHECK} != 0), SUM(p.rating IS NOT NULL),
              SUM(p.review_count), ${RATING_AVG}
         FROM ${s.listings('ps')} JOIN cities c ON c.id = ps.city_id
         JOIN providers p ON p.id = ps.provider_id
        GROUP BY ps.service, ps.city_id`,
    `DELETE FROM rate_experience_stats ${s.where('listing')}`,
    `INSERT INTO rate_experience_stats (service, city_id, band, providers, rate_avg)
     SELECT ps.service, ps.city_id, ${bandOf('ps.years_experience')},
            COUNT(*), AVG((ps.rate_min + ps.rate_max) / 2.0)
       FROM ${s.listings('ps')} GROUP BY ps.service, ps.city_id, 3`,
  ]
}

function jobStatements(s: ReturnType<typeof sources>, now: Date): Statement[] {
  return [
    `DELETE FROM job_city_stats ${s.where('jobs')}`,
    (d1) =>
      d1
        .prepare(
          `INSERT INTO job_city_stats (service, city_id, state_code, jobs, pay_avg, updated_at)
           SELECT j.service, j.city_id, c.state_code, COUNT(*),
                  AVG(CASE WHEN j.pay_unit = 'hr' THEN (j.pay_min + j.pay_max) / 2.0 END),
                  MAX(j.posted_at)
             FROM ${s.jobs} JOIN cities c ON c.id = j.city_id
            WHERE j.valid_through > ?
            GROUP BY j.service, j.city_id`,
        )
        .bind(now.toISOString().replace(/\.\d{3}Z$/, 'Z')),
  ]
}

function activityStatements(s: ReturnType<typeof sources>, now: Date): Statement[] {
  const at = now.toISOString()
  return [
    `DELETE FROM activity_stats ${s.where('keyword', 'keyword')}`,
    ...(['category', 'subcategory'] as const).map(
      (column) => (d1: D1Database) =>
        d1
          .prepare(
            `INSERT INTO activity_stats (keyword, activities, updated_at)
             SELECT ${column}, COUNT(*), ? FROM activities
              WHERE ${column} IS NOT NULL AND (end_date IS NULL OR end_date >= ?) ${s.keywords(column)}
              GROUP BY ${column}`,
          )
          .bind(at, at.slice(0, 10)),
    ),
  ]
}

/**
 * Recomputes every derived stat in one transaction. `npm run seed` and the import run it after
 * loading; the cron trigger runs it too (src/worker.ts), so hub counts and rate figures always
 * come from the catalog's real rates, never typed in.
 */
export async function refreshStats(d1: D1Database, now: Date): Promise<void> {
  await d1.batch(statsStatements(d1, now, 'all'))
}
