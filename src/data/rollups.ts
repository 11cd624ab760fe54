import { SERVICES } from '../catalog/services'

// Rollups of the catalog that keep a page's reads the same size at any scale
// (migrations/control/0001_control.sql): per state from service_city_stats, per city the
// providers of each set of services, per keyword the activities ending each day. And the national
// rates by experience, summed from their states (migrations/control/0001_control.sql), so
// a sync batch re-sums a touched service from a few dozen rows, not from every city's.

const TOUCHED_STATES = `SELECT t.value, c.state_code FROM sync_touched t
  JOIN cities c ON c.id = t.city_id WHERE t.kind = 'listing'`
const TOUCHED_CITIES = `SELECT city_id FROM sync_touched WHERE kind = 'listing'`
const TOUCHED_KEYWORDS = `SELECT value FROM sync_touched WHERE kind = 'keyword'`
const TOUCHED_SERVICES = `SELECT value FROM sync_touched WHERE kind = 'listing'`

// The rate rows of the cities of a touched service and state: the cities listing the service
// there (service_city_stats, by its state index), each then by rate_experience_stats's key.
const TOUCHED_STATE_RATES = `(SELECT DISTINCT t.value AS touched_service, c.state_code AS touched_state
    FROM sync_touched t JOIN cities c ON c.id = t.city_id WHERE t.kind = 'listing')
  JOIN service_city_stats s INDEXED BY service_city_stats_state
    ON s.service = touched_service AND s.state_code = touched_state
  JOIN rate_experience_stats r ON r.service = s.service AND r.city_id = s.city_id`

// A touched city's listings of every service, by the (service, city) index: provider_services
// has no index on the city alone.
const TOUCHED_LISTINGS = `(SELECT DISTINCT city_id AS touched FROM sync_touched WHERE kind = 'listing')
  JOIN provider_services INDEXED BY provider_services_recommended
    ON service IN (${SERVICES.map((s) => `'${s.slug}'`).join(', ')}) AND city_id = touched`

// The sums of rates and ratings are exact: a city's rate_avg times its providers gives back the
// sum of its mid rates (halves of whole dollars) once rounded to a half, its rating_avg times
// its providers rated the sum of their ratings in hundredths. So a sync batch that adds and
// subtracts a change (src/sync/stats-by-change.ts) ends on the very sums recomputed here.
const RATE_SUM = (avg: string, count: string) => `SUM(ROUND(${avg} * ${count} * 2) / 2.0)`
const RATING_SUM = 'SUM(ROUND(rating_avg * reviewed * 100)) / 100.0'

type Only = (key: string, rows: string) => string

const onlyOf =
  (touched: boolean): Only =>
  (key, rows) =>
    touched ? `WHERE ${key} IN (${rows})` : ''

/**
 * The statements that recompute every rollup, or with `touched` those of what a catalog sync
 * batch touched (sync_touched); to run after service_city_stats and the cities' rows of
 * rate_experience_stats (src/data/refresh-stats.ts). With `listings` false, only the activities'.
 */
export function rollupSql({
  touched,
  listings = true,
}: {
  touched: boolean
  listings?: boolean
}): string[] {
  return [...(listings ? cityMixSql(touched) : []), ...controlRollupSql({ touched, listings })]
}

/**
 * The providers of each set of services per city, from the city's own listings: a shard
 * computes its cities' rows (docs/scale.md), control holds copies.
 */
export function cityMixSql(touched: boolean): string[] {
  return [
    `DELETE FROM city_service_mixes ${onlyOf(touched)('city_id', TOUCHED_CITIES)}`,
    `INSERT INTO city_service_mixes
     SELECT city_id, services, COUNT(*) FROM (
       SELECT city_id, group_concat(service, ',' ORDER BY service) AS services
         FROM ${touched ? TOUCHED_LISTINGS : 'provider_services'} GROUP BY city_id, provider_id)
      GROUP BY city_id, services`,
  ]
}

/**
 * The rollups of many cities (per state, and the national rates by experience) and of the
 * activities: everything but the cities' own rows, so control's part of the stats when the
 * catalog spans databases, recomputed from the city rows copied from the shards (all of them, or
 * with `touched` those of what a sync batch touched). With `listings` false, only the activities'.
 */
export function controlRollupSql({
  touched,
  listings = true,
}: {
  touched: boolean
  listings?: boolean
}): string[] {
  return [
    ...(listings ? areaRollupSql(touched) : []),
    ...activityRollupSql(touched, onlyOf(touched)),
  ]
}

function areaRollupSql(touched: boolean): string[] {
  const states = onlyOf(touched)('(service, state_code)', TOUCHED_STATES)
  const services = touched ? `AND service IN (${TOUCHED_SERVICES})` : ''
  return [
    `DELETE FROM service_state_stats ${states}`,
    `INSERT INTO service_state_stats
     SELECT service, state_code, SUM(providers), COUNT(*), MAX(providers),
            ${RATE_SUM('rate_avg', 'providers')}, MIN(rate_min), MAX(rate_max), MIN(pay_unit),
            MAX(updated_at), SUM(checked), SUM(reviewed), SUM(reviews), ${RATING_SUM}
       FROM service_city_stats INDEXED BY service_city_stats_state ${states}
      GROUP BY service, state_code`,
    `DELETE FROM rate_experience_state_stats ${states}`,
    `INSERT INTO rate_experience_state_stats
     SELECT r.service, s.state_code, r.band, SUM(r.providers), ${RATE_SUM('r.rate_avg', 'r.providers')}
       FROM ${touched ? TOUCHED_STATE_RATES : 'rate_experience_stats r JOIN service_city_stats s ON s.service = r.service AND s.city_id = r.city_id'}
      GROUP BY r.service, s.state_code, r.band`,
    `DELETE FROM rate_experience_stats WHERE city_id = 0 ${services}`,
    `INSERT INTO rate_experience_stats (service, city_id, band, providers, rate_avg)
     SELECT service, 0, band, SUM(providers), SUM(rate_sum) / SUM(providers)
       FROM rate_experience_state_stats WHERE true ${services} GROUP BY service, band`,
  ]
}

function activityRollupSql(touched: boolean, only: Only): string[] {
  return [
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
