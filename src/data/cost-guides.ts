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

/** The average rate of a service in each of the cities named by slug that has one. */
export function findCityRates(
  db: Db,
  service: string,
  slugs: readonly string[],
): Promise<CityRate[]> {
  return db.all<CityRate>(
    `SELECT c.slug, c.name, c.state_code AS stateCode, s.providers, s.rate_avg AS rateAvg
       FROM cities c
       -- CROSS JOIN keeps the named cities as the outer loop: one index probe each.
       CROSS JOIN service_city_stats s ON s.service = ? AND s.city_id = c.id
      WHERE c.slug IN (${slugs.map(() => '?').join(', ')})`,
    service,
    ...slugs,
  )
}
