import { BACKGROUND_CHECK, bandOf } from '../data/refresh-stats'
import type { CatalogMessage } from './messages'
import { entityKey } from './messages'

// The listings' stats by what changed (docs/sync.md, "Derived stats by change"): a batch first
// sums what its providers' listings contribute to the stats (listing_stats_before,
// service_mixes_before: migrations/catalog/0002_stats_by_change.sql), and at its end adds what they
// contribute after and subtracts those sums, in service_city_stats, rate_experience_stats (the
// cities' and the nation's), service_state_stats, rate_experience_state_stats and
// city_service_mixes. A change reads its own providers' rows and the stats rows they count in,
// never the rest of their city or state, and writes only the stats rows whose values moved.
//
// Counts and sums add and subtract exactly (rates are whole dollars, so mid rates are halves;
// ratings are summed in hundredths: src/data/rollups.ts), so the result is the very row a
// recompute gives. A minimum, a maximum or a newest time cannot be subtracted: when what left
// held it and what came in does not reach it, that one row's is read again (from the city's
// listings by their index, or the state's cities), which a change of rates or a removal of the
// newest provider can need, a profile edit almost never.

/** SQL selecting `id`: the batch's providers before it (`?1` their ids, `?2` its reviews, newer). */
const BEFORE = `SELECT value AS id FROM json_each(?1)
  UNION SELECT r.provider_id FROM json_each(?2) AS j JOIN reviews AS r ON r.id = j.value ->> 'id'
   WHERE COALESCE((SELECT version FROM sync_versions WHERE key = j.value ->> 'key'), -1)
         < j.value ->> 'version'`

/**
 * The same providers after it: the reviews' providers are those the batch listed for their
 * rating (src/sync/apply.ts), read by the same test of the version, while the reviews it removed
 * are gone.
 */
const AFTER = `SELECT value AS id FROM json_each(?1)
  UNION SELECT CAST(value AS INTEGER) FROM sync_touched WHERE kind = 'rating'`

/** SQL: what the listings of `providers` contribute, per service, city and band. */
const contributions = (providers: string) => `SELECT ps.service, ps.city_id,
    ${bandOf('ps.years_experience')} AS band, c.state_code, COUNT(*) AS providers,
    SUM((ps.rate_min + ps.rate_max) / 2.0) AS mid_sum, SUM(ps.badges & ${BACKGROUND_CHECK} != 0) AS checked,
    SUM(p.rating IS NOT NULL) AS reviewed, SUM(p.review_count) AS reviews,
    COALESCE(SUM(ROUND(p.rating * 100)), 0) AS rating100, MIN(ps.rate_min) AS rate_min,
    MAX(ps.rate_max) AS rate_max, MAX(p.updated_at) AS updated_at, MIN(ps.pay_unit) AS pay_unit
  FROM (${providers}) AS a JOIN provider_services AS ps ON ps.provider_id = a.id
  JOIN providers AS p ON p.id = ps.provider_id JOIN cities AS c ON c.id = ps.city_id
  GROUP BY ps.service, ps.city_id, band`

/** SQL: the sets of services of `providers`, counted per city. */
const mixes = (providers: string) => `SELECT city_id, services, COUNT(*) AS providers FROM (
    SELECT ps.city_id, group_concat(ps.service, ',' ORDER BY ps.service) AS services
      FROM (${providers}) AS a JOIN provider_services AS ps ON ps.provider_id = a.id
     GROUP BY ps.provider_id, ps.city_id)
  GROUP BY city_id, services`

/** The CTE `change`: each contribution before (n = -1) and after (n = 1). */
const CHANGE = `change AS (SELECT -1 AS n, * FROM listing_stats_before
  UNION ALL SELECT 1, * FROM (${contributions(AFTER)}))`

/** SQL: the change's sums per `key` (columns of `change`), and what left and came in of each extreme. */
const deltas = (key: string) => `d AS (SELECT ${key},
    ${key.includes('state_code') ? '' : 'MIN(state_code) AS state_code,'} MIN(pay_unit) AS pay_unit, SUM(n * providers) AS providers, SUM(n * mid_sum) AS mid_sum,
    SUM(n * checked) AS checked, SUM(n * reviewed) AS reviewed, SUM(n * reviews) AS reviews,
    SUM(n * rating100) AS rating100,
    MIN(CASE WHEN n < 0 THEN rate_min END) AS out_min, MIN(CASE WHEN n > 0 THEN rate_min END) AS in_min,
    MAX(CASE WHEN n < 0 THEN rate_max END) AS out_max, MAX(CASE WHEN n > 0 THEN rate_max END) AS in_max,
    MAX(CASE WHEN n < 0 THEN updated_at END) AS out_at, MAX(CASE WHEN n > 0 THEN updated_at END) AS in_at
  FROM change GROUP BY ${key})`

/** SQL: `s.column` plus the change's `d.column` (a row not there yet counts as 0). */
const plus = (column: string) => `(COALESCE(s.${column}, 0) + d.${column})`

/** SQL: the sum of the rows' mid rates a stored mean and count stand for, exact (see above). */
const midSum = (avg: string, count: string) => `COALESCE(ROUND(${avg} * ${count} * 2) / 2.0, 0)`

/**
 * SQL: the new extreme of `column` (`low`: a minimum) from the stored `s.column`, what left
 * (`d.out`) and what came in (`d.in`); `again` when what left held it and nothing reached it.
 */
function extreme(column: string, out: string, into: string, low: boolean, again: string): string {
  const [beyond, reaches, pick] = low ? ['>', '<=', 'MIN'] : ['<', '>=', 'MAX']
  const stored = `s.${column}`
  return `CASE WHEN ${stored} IS NULL OR d.${out} IS NULL OR d.${out} ${beyond} ${stored}
                 OR d.${into} ${reaches} ${stored}
            THEN ${pick}(COALESCE(${stored}, d.${into}), COALESCE(d.${into}, ${stored}))
            ELSE (${again}) END`
}

/** Only the changed rows of an upsert are written: `columns` compared with the new values. */
const changedOnly = (columns: readonly string[]) =>
  `DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}
   WHERE (${columns.join(', ')}) IS NOT (${columns.map((c) => `excluded.${c}`).join(', ')})`

/**
 * The two statements for a stats table keyed by `key` (columns of `d` and of the table alike):
 * its rows the change empties deleted, then the others written where their values moved.
 */
function upkeep(
  table: string,
  key: readonly string[],
  ctes: string,
  values: Record<string, string>,
): string[] {
  const on = key.map((k) => `s.${k} = d.${k}`).join(' AND ')
  const columns = Object.keys(values)
  const kept = columns.filter((c) => !key.includes(c))
  return [
    `WITH ${ctes} DELETE FROM ${table} WHERE (${key.join(', ')}) IN
       (SELECT ${key.map((k) => `d.${k}`).join(', ')} FROM d JOIN ${table} AS s ON ${on}
         WHERE ${plus('providers')} <= 0)`,
    `WITH ${ctes} INSERT INTO ${table} (${columns.join(', ')})
       SELECT ${Object.values(values).join(', ')} FROM d LEFT JOIN ${table} AS s ON ${on}
        WHERE ${plus('providers')} > 0
       ON CONFLICT (${key.join(', ')}) ${changedOnly(kept)}`,
  ]
}

/** service_city_stats: a city's extremes read again from its listings of the service. */
function cityStats(): string[] {
  const cell = 'service = d.service AND city_id = d.city_id'
  return upkeep(
    'service_city_stats',
    ['service', 'city_id'],
    `${CHANGE}, ${deltas('service, city_id')}`,
    {
      service: 'd.service',
      city_id: 'd.city_id',
      state_code: 'd.state_code',
      providers: plus('providers'),
      rate_avg: `(${midSum('s.rate_avg', 's.providers')} + d.mid_sum) / ${plus('providers')}`,
      rate_min: extreme(
        'rate_min',
        'out_min',
        'in_min',
        true,
        `SELECT MIN(rate_min) FROM provider_services WHERE ${cell}`,
      ),
      rate_max: extreme(
        'rate_max',
        'out_max',
        'in_max',
        false,
        `SELECT MAX(rate_max) FROM provider_services WHERE ${cell}`,
      ),
      pay_unit: 'COALESCE(s.pay_unit, d.pay_unit)',
      updated_at: extreme(
        'updated_at',
        'out_at',
        'in_at',
        false,
        `SELECT MAX(p.updated_at) FROM provider_services AS ps JOIN providers AS p ON p.id = ps.provider_id
        WHERE ps.service = d.service AND ps.city_id = d.city_id`,
      ),
      checked: plus('checked'),
      reviewed: plus('reviewed'),
      reviews: plus('reviews'),
      rating_avg: `(COALESCE(ROUND(s.rating_avg * s.reviewed * 100), 0) + d.rating100) / (100.0 * ${plus('reviewed')})`,
    },
  )
}

/**
 * service_state_stats, after the cities' rows: a city counts once it has providers; the leader
 * is the largest city's count (one row by the state index); extremes read again from the
 * state's cities.
 */
function stateStats(): string[] {
  const state = 'service = d.service AND state_code = d.state_code'
  const cities = `cells AS (SELECT service, city_id, SUM(n * providers) AS moved FROM change GROUP BY service, city_id),
    counted AS (SELECT x.service, c.state_code,
        SUM(COALESCE(s.providers, 0) > 0) - SUM(COALESCE(s.providers, 0) - x.moved > 0) AS cities
      FROM cells AS x JOIN cities AS c ON c.id = x.city_id
      LEFT JOIN service_city_stats AS s ON s.service = x.service AND s.city_id = x.city_id
     GROUP BY x.service, c.state_code),
    d AS (SELECT e.*, counted.cities FROM e JOIN counted USING (service, state_code))`
  const ctes = `${CHANGE}, ${deltas('service, state_code').replace(/^d AS/, 'e AS')}, ${cities}`
  const fromCities = (aggregate: string) =>
    `SELECT ${aggregate} FROM service_city_stats INDEXED BY service_city_stats_state WHERE ${state}`
  return upkeep('service_state_stats', ['service', 'state_code'], ctes, {
    service: 'd.service',
    state_code: 'd.state_code',
    providers: plus('providers'),
    cities: plus('cities'),
    leader: `(SELECT providers FROM service_city_stats INDEXED BY service_city_stats_state
               WHERE ${state} ORDER BY providers DESC LIMIT 1)`,
    rate_sum: `COALESCE(s.rate_sum, 0) + d.mid_sum`,
    rate_min: extreme('rate_min', 'out_min', 'in_min', true, fromCities('MIN(rate_min)')),
    rate_max: extreme('rate_max', 'out_max', 'in_max', false, fromCities('MAX(rate_max)')),
    pay_unit: 'COALESCE(s.pay_unit, d.pay_unit)',
    updated_at: extreme('updated_at', 'out_at', 'in_at', false, fromCities('MAX(updated_at)')),
    checked: plus('checked'),
    reviewed: plus('reviewed'),
    reviews: plus('reviews'),
    rating_sum: `CASE WHEN ${plus('reviewed')} > 0
      THEN (COALESCE(ROUND(s.rating_sum * 100), 0) + d.rating100) / 100.0 END`,
  })
}

/**
 * rate_experience_stats by city, and (with `rollups`) the nation's (city 0) and
 * rate_experience_state_stats.
 */
function rateStats(rollups: boolean): string[] {
  const bands = (columns: string, key: string) => `${CHANGE}, d AS (SELECT ${columns},
      SUM(n * providers) AS providers, SUM(n * mid_sum) AS mid_sum FROM change GROUP BY ${key})`
  const rates = (ctes: string) =>
    upkeep('rate_experience_stats', ['service', 'city_id', 'band'], ctes, {
      service: 'd.service',
      city_id: 'd.city_id',
      band: 'd.band',
      providers: plus('providers'),
      rate_avg: `(${midSum('s.rate_avg', 's.providers')} + d.mid_sum) / ${plus('providers')}`,
    })
  const byState = 'service, state_code, band'
  const cities = rates(bands('service, city_id, band', 'service, city_id, band'))
  if (!rollups) return cities
  return [
    ...cities,
    ...rates(bands('service, 0 AS city_id, band', 'service, band')),
    ...upkeep(
      'rate_experience_state_stats',
      ['service', 'state_code', 'band'],
      bands(byState, byState),
      {
        service: 'd.service',
        state_code: 'd.state_code',
        band: 'd.band',
        providers: plus('providers'),
        rate_sum: 'COALESCE(s.rate_sum, 0) + d.mid_sum',
      },
    ),
  ]
}

/** city_service_mixes: each provider's set of services before and after. */
function mixStats(): string[] {
  const ctes = `m AS (SELECT -1 AS n, * FROM service_mixes_before
      UNION ALL SELECT 1, * FROM (${mixes(AFTER)})),
    d AS (SELECT city_id, services, SUM(n * providers) AS providers FROM m GROUP BY city_id, services)`
  return upkeep('city_service_mixes', ['city_id', 'services'], ctes, {
    city_id: 'd.city_id',
    services: 'd.services',
    providers: plus('providers'),
  })
}

/** What the batch's messages name: providers by id, and reviews (whose provider is in D1). */
function named(messages: readonly CatalogMessage[]): [string, string] {
  const providers = new Set<number>()
  const reviews: { id: number; key: string; version: number }[] = []
  for (const m of messages) {
    if (m.kind.startsWith('provider')) providers.add(m.id)
    if (m.kind === 'review.added') providers.add(m.entity.providerId)
    if (m.kind.startsWith('review.'))
      reviews.push({ id: m.id, key: entityKey(m), version: m.version })
  }
  return [JSON.stringify([...providers]), JSON.stringify(reviews)]
}

/** The statements a batch of `messages` runs first: what its providers contribute before it. */
export function statsBefore(
  db: D1Database,
  messages: readonly CatalogMessage[],
): D1PreparedStatement[] {
  return statsBeforeOf(db, ...named(messages))
}

/**
 * The same for the providers of `providers` (JSON of their ids) and those of the reviews of
 * `reviews` (JSON of their ids, keys and versions): a provider's move between shards names its
 * id alone (src/sync/move.ts).
 */
export function statsBeforeOf(
  db: D1Database,
  providers: string,
  reviews = '[]',
): D1PreparedStatement[] {
  return [
    `INSERT INTO listing_stats_before ${contributions(BEFORE)}`,
    `INSERT INTO service_mixes_before ${mixes(BEFORE)}`,
  ].map((sql) => db.prepare(sql).bind(providers, reviews))
}

/**
 * The statements a batch of `messages` runs once it changed its rows and providers' ratings,
 * before sync_touched is emptied: every listing stat moved by the change, the sums before
 * emptied. With `rollups` false (a shard's part: docs/scale.md) only its cities' rows: control
 * sums the states' and the nation's from its copies of every city's.
 */
export function statsByChange(
  db: D1Database,
  messages: readonly CatalogMessage[],
  { rollups = true }: { rollups?: boolean } = {},
): D1PreparedStatement[] {
  return statsByChangeOf(db, named(messages)[0], { rollups })
}

/** The same for the providers of `providers` (JSON of their ids) and those rated anew. */
export function statsByChangeOf(
  db: D1Database,
  providers: string,
  { rollups = true }: { rollups?: boolean } = {},
): D1PreparedStatement[] {
  const statements = [
    ...cityStats(),
    ...(rollups ? stateStats() : []),
    ...rateStats(rollups),
    ...mixStats(),
  ]
  return [
    ...statements.map((sql) => db.prepare(sql).bind(providers)),
    db.prepare('DELETE FROM listing_stats_before'),
    db.prepare('DELETE FROM service_mixes_before'),
  ]
}
