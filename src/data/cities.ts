import { box, milesBetween } from '../lib/geo'
import type { Db } from './db'

export interface City {
  id: number
  slug: string
  name: string
  stateCode: string
  lat: number
  lng: number
  population: number
}

export const CITY_COLUMNS = 'id, slug, name, state_code AS stateCode, lat, lng, population'

/**
 * A city by its slug, from D1. Pages find a city through the isolate's copy of every city first
 * (`Cities` of src/data/kept-cities.ts), which asks this only for a slug it does not hold.
 */
export function findCity(db: Db, slug: string): Promise<City | null> {
  return db.first<City>(`SELECT ${CITY_COLUMNS} FROM cities WHERE slug = ?`, slug)
}

/**
 * A city as a read names it: by id, or as the city of a job or a provider, when the page knows
 * only that (then the read finds the city itself, and needs no round trip before it).
 */
export type CityOf = number | { job: number } | { provider: number }

/** The SQL value of a city's id, and its parameter. */
export function cityIdOf(city: CityOf): [string, number] {
  if (typeof city === 'number') return ['?', city]
  if ('job' in city) return ['(SELECT city_id FROM jobs WHERE id = ?)', city.job]
  return ['(SELECT city_id FROM providers WHERE id = ?)', city.provider]
}

export interface NearbyCity extends City {
  providers: number
  miles: number
}

interface Nearby {
  radiusMiles?: number
  limit?: number
  minProviders?: number
}

/**
 * The `limit` rows nearest `city` within `radiusMiles`. On a large catalog the box holds a
 * hundred cities or more for the handful shown, so only those shown are copied.
 */
function nearest<T extends City>(city: City, rows: T[], radiusMiles: number, limit: number) {
  const within: { row: T; miles: number }[] = []
  for (const row of rows) {
    const miles = milesBetween(city, row)
    if (miles <= radiusMiles) within.push({ row, miles })
  }
  return within
    .sort((a, b) => a.miles - b.miles)
    .slice(0, limit)
    .map(({ row, miles }) => ({ ...row, miles }))
}

/** Cities within `radiusMiles` of `city` that have providers of `service`, nearest first. */
export async function findNearbyCities(
  db: Db,
  city: City,
  service: string,
  { radiusMiles = 60, limit = 8, minProviders = 1 }: Nearby = {},
): Promise<NearbyCity[]> {
  const rows = await db.all<City & { providers: number }>(
    `SELECT c.id, c.slug, c.name, c.state_code AS stateCode, c.lat, c.lng, c.population, s.providers
       FROM cities c
       -- CROSS JOIN keeps cities as the outer loop: a latitude band of the cities_lat index.
       CROSS JOIN service_city_stats s ON s.service = ? AND s.city_id = c.id
      WHERE c.lat BETWEEN ? AND ? AND c.lng BETWEEN ? AND ? AND c.id != ? AND s.providers >= ?`,
    service,
    ...box(city, radiusMiles),
    city.id,
    minProviders,
  )
  return nearest(city, rows, radiusMiles, limit)
}

/**
 * How far a directory looks for its nearest cities: past the first ring only when it holds
 * none, so a small town far from others still links somewhere (docs/pages.md, "Nearby places").
 */
const NEARBY_RINGS = [60, 250, 1000]

/** The nearest cities that have providers of `service`: the first ring that holds any. */
export async function findNearestCities(
  db: Db,
  city: City,
  service: string,
  { limit = 8, minProviders = 1 }: Omit<Nearby, 'radiusMiles'> = {},
): Promise<NearbyCity[]> {
  for (const radiusMiles of NEARBY_RINGS) {
    const found = await findNearbyCities(db, city, service, { radiusMiles, limit, minProviders })
    if (found.length) return found
  }
  return []
}

/** Cities within `radiusMiles` of `city` with at least one service of `minProviders` or more
 * (`providers` is then that best service's count). */
export async function findNearbyHubs(
  db: Db,
  city: City,
  { radiusMiles = 60, limit = 8, minProviders = 1 }: Nearby = {},
): Promise<NearbyCity[]> {
  // The latitude band first (cities_lat), then each candidate's best service by its own index.
  const rows = await db.all<City & { providers: number }>(
    `SELECT * FROM (
       SELECT c.id, c.slug, c.name, c.state_code AS stateCode, c.lat, c.lng, c.population,
              (SELECT MAX(s.providers) FROM service_city_stats s WHERE s.city_id = c.id) AS providers
         FROM cities c
        WHERE c.lat BETWEEN ? AND ? AND c.lng BETWEEN ? AND ? AND c.id != ?)
      WHERE providers >= ?`,
    ...box(city, radiusMiles),
    city.id,
    minProviders,
  )
  return nearest(city, rows, radiusMiles, limit)
}
