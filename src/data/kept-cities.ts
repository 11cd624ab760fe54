import type { WaitUntil } from '../lib/kept'
import { Kept } from '../lib/kept'
import { shownText } from '../lib/text-rule'
import type { Trail } from '../observability/trail'
import type { City } from './cities'
import { CITY_COLUMNS, findCity } from './cities'
import type { D1Reads, Db } from './db'

/** How long an isolate trusts its copy of the cities before reading them again, in the background. */
export const CITIES_MAX_AGE_MS = 5 * 60_000

/** Every city, by slug. */
export type CityIndex = ReadonlyMap<string, City>

/**
 * The cities table, kept whole in an isolate's memory (src/memory.ts): a page about a
 * city finds it without a round trip before its other reads, which all need it. Place data
 * changes only with the catalog; 20,000 rows (about 3 MB) at the largest scale.
 */
export const keptCities = (): Kept<CityIndex> => new Kept({ maxAgeMs: CITIES_MAX_AGE_MS })

export async function readCityIndex(d1: D1Reads): Promise<CityIndex> {
  const { results } = await d1.prepare(`SELECT ${CITY_COLUMNS} FROM cities`).all<City>()
  // Under the text rule's last guard, as every read of a page (src/data/db.ts).
  return new Map(results.map((city) => [city.slug, { ...city, name: shownText(city.name) }]))
}

/** How a request finds a city (`c.get('cities')`). */
export interface Cities {
  /**
   * A city by its slug: from the isolate's copy of every city when it has one (no round trip),
   * else from D1 (a fresh isolate, a city added since the copy was read). Never waits for the
   * copy: one past its age is read again in the background.
   */
  find(slug: string): Promise<City | null>
}

/** The cities of one request: the isolate's `kept` copy, read through `d1`, else `db`. */
export function citiesOf(
  kept: Kept<CityIndex>,
  { d1, db, waitUntil, trail }: { d1: D1Reads; db: Db; waitUntil: WaitUntil; trail?: Trail },
): Cities {
  function index(): CityIndex | null {
    if (kept.stale && !kept.loading)
      waitUntil(
        kept.load({ read: () => readCityIndex(d1) }).catch((error: unknown) => {
          trail?.add('d1', `cities not read: ${String(error).slice(0, 80)}`)
        }),
      )
    return kept.value ?? null
  }
  return { find: async (slug) => index()?.get(slug) ?? findCity(db, slug) }
}
