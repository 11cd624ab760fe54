import { LARGE_CITY_POPULATION } from '../catalog/cities'
import type { Db } from './db'

export interface ExperienceRate {
  band: number
  providers: number
  rateAvg: number
}

/** Rates by years of experience of a service in a city, or in the country with `cityId` 0. */
export function findExperienceRates(
  db: Db,
  service: string,
  cityId: number,
): Promise<ExperienceRate[]> {
  return db.all<ExperienceRate>(
    `SELECT band, providers, rate_avg AS rateAvg FROM rate_experience_stats
      WHERE service = ? AND city_id = ? ORDER BY band`,
    service,
    cityId,
  )
}

export interface CityRate {
  slug: string
  name: string
  stateCode: string
  providers: number
  rateAvg: number
}

/** The average rate of a service in the cities of a state with `minProviders` rates or more, largest first. */
export function findStateRates(
  db: Db,
  service: string,
  stateCode: string,
  { limit = 6, minProviders = 1 } = {},
): Promise<CityRate[]> {
  return db.all<CityRate>(
    `SELECT c.slug, c.name, c.state_code AS stateCode, s.providers, s.rate_avg AS rateAvg
       FROM service_city_stats s INDEXED BY service_city_stats_state
       JOIN cities c ON c.id = s.city_id
      WHERE s.service = ? AND s.state_code = ? AND s.providers >= ?
      ORDER BY s.providers DESC LIMIT ?`,
    service,
    stateCode,
    minProviders,
    limit,
  )
}

/**
 * The average rate of a service in every large city (LARGE_CITY_POPULATION) with
 * `minProviders` rates or more, largest first, with its coordinates: a hundred-odd rows at the
 * largest scale, read on the population index.
 */
export function findLargeCityRates(
  db: Db,
  service: string,
  { minProviders = 1 } = {},
): Promise<(CityRate & { lat: number; lng: number })[]> {
  return db.all<CityRate & { lat: number; lng: number }>(
    `SELECT c.slug, c.name, c.state_code AS stateCode, c.lat, c.lng, s.providers,
            s.rate_avg AS rateAvg
       FROM cities c INDEXED BY cities_population
       -- CROSS JOIN keeps the large cities as the outer loop: one index probe each.
       CROSS JOIN service_city_stats s ON s.service = ? AND s.city_id = c.id
      WHERE c.population >= ? AND s.providers >= ?
      ORDER BY c.population DESC`,
    service,
    LARGE_CITY_POPULATION,
    minProviders,
  )
}
