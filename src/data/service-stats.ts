import type { PayUnit } from '../catalog/enums'
import { SERVICES } from '../catalog/services'
import type { CityOf } from './cities'
import { cityIdOf } from './cities'
import type { Db } from './db'

/** Aggregates of service_city_stats (migrations/catalog/0001_catalog.sql, 0015_answer_stats.sql). */
export interface RateStats {
  providers: number
  rateAvg: number
  rateMin: number
  rateMax: number
  payUnit: PayUnit
  updatedAt: string
  /** Providers with the background check badge. */
  checked: number
  /** Providers with at least one review, their reviews in all, and their mean rating. */
  reviewed: number
  reviews: number
  ratingAvg: number | null
}

export function findCityStats(db: Db, service: string, cityId: number): Promise<RateStats | null> {
  return db.first<RateStats>(
    `SELECT providers, rate_avg AS rateAvg, rate_min AS rateMin, rate_max AS rateMax,
            pay_unit AS payUnit, updated_at AS updatedAt, checked, reviewed, reviews,
            rating_avg AS ratingAvg
       FROM service_city_stats WHERE service = ? AND city_id = ?`,
    service,
    cityId,
  )
}

// The states' rows (service_state_stats) summed: rates weighted by providers, ratings by the
// providers reviewed, so the country is a row per state whatever the number of cities.
const AREA_STATS = `SELECT SUM(providers) AS providers, SUM(cities) AS cities,
       SUM(rate_sum) / SUM(providers) AS rateAvg,
       MIN(rate_min) AS rateMin, MAX(rate_max) AS rateMax,
       MIN(pay_unit) AS payUnit, MAX(updated_at) AS updatedAt,
       SUM(checked) AS checked, SUM(reviewed) AS reviewed, SUM(reviews) AS reviews,
       SUM(rating_sum) / SUM(reviewed) AS ratingAvg
  FROM service_state_stats`

type AreaStats = RateStats & { cities: number }

/** The service across the country: provider-weighted mean rate, range, counts. */
export async function findNationalStats(db: Db, service: string): Promise<AreaStats | null> {
  const row = await db.first<AreaStats>(`${AREA_STATS} WHERE service = ?`, service)
  return row && row.providers ? row : null
}

/** The service across a state, as across the country. */
export async function findStateStats(
  db: Db,
  service: string,
  stateCode: string,
): Promise<AreaStats | null> {
  const row = await db.first<AreaStats>(
    `${AREA_STATS} WHERE service = ? AND state_code = ?`,
    service,
    stateCode,
  )
  return row && row.providers ? row : null
}

export interface CityCount {
  slug: string
  name: string
  stateCode: string
  providers: number
}

const CITY_COUNT = `SELECT c.slug, c.name, c.state_code AS stateCode, s.providers
  FROM service_city_stats s JOIN cities c ON c.id = s.city_id`

export function findTopCities(
  db: Db,
  service: string,
  { limit = 12, minProviders = 1 } = {},
): Promise<CityCount[]> {
  return db.all<CityCount>(
    `${CITY_COUNT} WHERE s.service = ? AND s.providers >= ? ORDER BY s.providers DESC LIMIT ?`,
    service,
    minProviders,
    limit,
  )
}

/**
 * The most cities a state page reads and links, those with the most providers: a state of the
 * 1M-provider catalog has hundreds, and a page linking them all grows with the catalog
 * (docs/pages.md, "Nearby places"; the directories' sitemaps list every city).
 */
export const MAX_STATE_CITIES = 24

export function findStateCities(
  db: Db,
  service: string,
  stateCode: string,
  { limit = MAX_STATE_CITIES, minProviders = 1 } = {},
): Promise<(CityCount & { id: number; population: number })[]> {
  return db.all<CityCount & { id: number; population: number }>(
    `SELECT c.id, c.slug, c.name, c.state_code AS stateCode, c.population, s.providers
       FROM service_city_stats s JOIN cities c ON c.id = s.city_id
      WHERE s.service = ? AND s.state_code = ? AND s.providers >= ?
      ORDER BY s.providers DESC, s.city_id LIMIT ?`,
    service,
    stateCode,
    minProviders,
    limit,
  )
}

export interface StateCount {
  stateCode: string
  providers: number
  cities: number
}

/** Per state: providers of the service and how many of its cities are worth a link. */
export function findStateCounts(db: Db, service: string, minProviders = 1): Promise<StateCount[]> {
  return db.all<StateCount>(
    `SELECT state_code AS stateCode, SUM(providers) AS providers, COUNT(*) AS cities
       FROM service_city_stats WHERE service = ? AND providers >= ?
      GROUP BY state_code ORDER BY state_code`,
    service,
    minProviders,
  )
}

/**
 * Per service, the providers of its largest city in a state: a state page is worth a link
 * when that city's page is (seo/indexability.ts).
 */
export function findStateLeaders(
  db: Db,
  state: string | { provider: number },
): Promise<ServiceCount[]> {
  const code =
    typeof state === 'string'
      ? '?'
      : '(SELECT c.state_code FROM providers p JOIN cities c ON c.id = p.city_id WHERE p.id = ?)'
  return db.all<ServiceCount>(
    `SELECT service, leader AS providers, updated_at AS updatedAt FROM service_state_stats
      WHERE service IN (${SERVICES.map(() => '?').join(', ')}) AND state_code = ${code}`,
    ...SERVICES.map((s) => s.slug),
    typeof state === 'string' ? state : state.provider,
  )
}

export interface ServiceCount {
  service: string
  providers: number
  /** When the newest of the counted providers last changed. */
  updatedAt: string
}

export function findCityServices(db: Db, city: CityOf): Promise<ServiceCount[]> {
  const [id, param] = cityIdOf(city)
  return db.all<ServiceCount>(
    `SELECT service, providers, updated_at AS updatedAt FROM service_city_stats WHERE city_id = ${id}`,
    param,
  )
}
