import { Kept } from '../request/kept'
import type { City } from './cities'
import type { D1Reads } from './db'

/** How long an isolate trusts its copy of the cities before reading them again, in the background. */
export const CITIES_MAX_AGE_MS = 5 * 60_000

/** Every city, by slug. */
export type CityIndex = ReadonlyMap<string, City>

/**
 * The cities table, kept whole in an isolate's memory (src/request/memory.ts): a page about a
 * city finds it without a round trip before its other reads, which all need it. Place data
 * changes only with the catalog; 20,000 rows (about 3 MB) at the largest scale.
 */
export const keptCities = (): Kept<CityIndex> => new Kept({ maxAgeMs: CITIES_MAX_AGE_MS })

export const CITY_COLUMNS = 'id, slug, name, state_code AS stateCode, lat, lng, population'

export async function readCityIndex(d1: D1Reads): Promise<CityIndex> {
  const { results } = await d1.prepare(`SELECT ${CITY_COLUMNS} FROM cities`).all<City>()
  return new Map(results.map((city) => [city.slug, city]))
}
