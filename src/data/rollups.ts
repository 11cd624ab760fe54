import { SERVICES } from '../catalog/services'

// Rollups of the catalog that keep a page's reads the same size at any scale
// (migrations/0016_scale_free_reads.sql): per state from service_city_stats, per city the
// providers of each set of services, per keyword the activities ending each day.

const TOUCHED_STATES = `SELECT t.value, c.state_code FROM sync_touched t
  JOIN cities c ON c.id = t.city_id WHERE t.kind = 'listing'`
const TOUCHED_CITIES = `SELECT city_id FROM sync_touched WHERE kind = 'listing'`
const TOUCHED_KEYWORDS = `SELECT value FROM sync_touched WHERE kind = 'keyword'`

// A touched city's listings of every service, by the (service, city) index: provider_services
// has no index on the city alone.
const TOUCHED_LISTINGS = `(SELECT DISTINCT city_id AS touched FROM sync_touched WHERE kind = 'listing')
  JOIN provider_services INDEXED BY provider_services_recommended
    ON service IN (${SERVICES.map((s) => `'${s.slug}'`).join(', ')}) AND city_id = touched`

/**
 * The statements that recompute every rollup, or with `touched` those of what a catalog sync
 * batch touched (sync_touched); to run after service_city_stats (src/data/refresh-stats.ts).
 */
export function rollupSql({ touched }: { touched: boolean }): string[] {
  const only = (key: string, rows: string) => (touched ? `WHERE ${key} IN (${rows})` : '')
  const states = only('(service, state_code)', TOUCHED_STATES)
  return [
    `DELETE FROM service_state_stats ${states}`,
    `INSERT INTO service_state_stats
     SELECT service, state_code, SUM(providers), COUNT(*), MAX(providers),
            SUM(rate_avg * providers), MIN(rate_min), MAX(rate_max), MIN(pay_unit),
            MAX(updated_at), SUM(checked), SUM(reviewed), SUM(reviews), SUM(rating_avg * reviewed)
       FROM service_city_stats INDEXED BY service_city_stats_state ${states}
      GROUP BY service, state_code`,
    `DELETE FROM city_service_mixes ${only('city_id', TOUCHED_CITIES)}`,
    `INSERT INTO city_service_mixes
     SELECT city_id, services, COUNT(*) FROM (
       SELECT city_id, group_concat(service, ',' ORDER BY service) AS services
         FROM ${touched ? TOUCHED_LISTINGS : 'provider_services'} GROUP BY city_id, provider_id)
      GROUP BY city_id, services`,
    `DELETE FROM activity_ends ${only('keyword', TOUCHED_KEYWORDS)}`,
    ...['category', 'subcategory'].map(
      (column) =>
        `INSERT INTO activity_ends
         SELECT ${column}, COALESCE(end_date, 'ongoing'), COUNT(*) FROM activities
          WHERE ${column} IS NOT NULL ${touched ? `AND ${column} IN (${TOUCHED_KEYWORDS})` : ''}
          GROUP BY 1, 2`,
    ),
  ]
}
