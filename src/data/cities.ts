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

const CITY_COLUMNS = 'id, slug, name, state_code AS stateCode, lat, lng, population'

export function findCity(db: Db, slug: string): Promise<City | null> {
  return db.first<City>(`SELECT ${CITY_COLUMNS} FROM cities WHERE slug = ?`, slug)
}

export interface NearbyCity extends City {
  providers: number
  miles: number
}

/** Cities within `radiusMiles` of `city` that have providers of `service`, nearest first. */
export async function findNearbyCities(
  db: Db,
  city: City,
  service: string,
  { radiusMiles = 60, limit = 8, minProviders = 1 } = {},
): Promise<NearbyCity[]> {
  const dLat = radiusMiles / MILES_PER_DEGREE
  const dLng = dLat / Math.max(Math.cos((city.lat * Math.PI) / 180), 0.01)
  const rows = await db.all<City & { providers: number }>(
    `SELECT c.id, c.slug, c.name, c.state_code AS stateCode, c.lat, c.lng, c.population, s.providers
       FROM cities c
       -- CROSS JOIN keeps cities as the outer loop: a latitude band of the cities_lat index.
       CROSS JOIN service_city_stats s ON s.service = ? AND s.city_id = c.id
      WHERE c.lat BETWEEN ? AND ? AND c.lng BETWEEN ? AND ? AND c.id != ? AND s.providers >= ?`,
    service,
    city.lat - dLat,
    city.lat + dLat,
    city.lng - dLng,
    city.lng + dLng,
    city.id,
    minProviders,
  )
  return rows
    .map((c) => ({ ...c, miles: milesBetween(city, c) }))
    .filter((c) => c.miles <= radiusMiles)
    .sort((a, b) => a.miles - b.miles)
    .slice(0, limit)
}

export const MILES_PER_DEGREE = 69.0

/** Great-circle distance in miles (haversine). */
export function milesBetween(
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLng = (b.lng - a.lng) * rad
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)))
}
