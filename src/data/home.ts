import { LARGE_CITY_POPULATION } from '../catalog/cities'
import type { Db } from './db'

// The reads of the home page (src/routes/home.tsx): all derived tables, all issued at once.

export interface NationalCount {
  service: string
  providers: number
  updatedAt: string
}

/**
 * Providers of each of `services` across the country, and when their data last changed: a row
 * per state (service_state_stats).
 */
export function findNationalCounts(db: Db, services: readonly string[]): Promise<NationalCount[]> {
  return db.all<NationalCount>(
    `SELECT service, SUM(providers) AS providers, MAX(updated_at) AS updatedAt
       FROM service_state_stats WHERE service IN (${services.map(() => '?').join(', ')})
      GROUP BY service`,
    ...services,
  )
}

export interface LargeCity {
  slug: string
  name: string
  stateCode: string
  population: number
  /** The providers of the city's largest page among `services`. */
  providers: number
}

/**
 * The `limit` most populous large cities (LARGE_CITY_POPULATION) with a page of `services` of at
 * least `minProviders` (so their hub is worth a link), largest first: a range of the population
 * index, each city's best service read by its own index.
 */
export function findLargestCities(
  db: Db,
  services: readonly string[],
  { limit = 24, minProviders = 1 } = {},
): Promise<LargeCity[]> {
  const best = `(SELECT MAX(s.providers) FROM service_city_stats s
                  WHERE s.city_id = c.id AND s.service IN (${services.map(() => '?').join(', ')}))`
  return db.all<LargeCity>(
    `SELECT c.slug, c.name, c.state_code AS stateCode, c.population, ${best} AS providers
       FROM cities c INDEXED BY cities_population
      WHERE c.population >= ? AND ${best} >= ?
      ORDER BY c.population DESC LIMIT ?`,
    ...services,
    LARGE_CITY_POPULATION,
    ...services,
    minProviders,
    limit,
  )
}
