import type { Place } from '../queries/search-query'
import { box, milesBetween } from '../lib/geo'
import type { Db } from './db'

// Reads behind the search form (docs/pages.md, "Search"): the catalog's cities a typed place may
// mean, a ZIP code's position, and the nearest city that has providers of a service.

export interface PlaceMatch extends Point {
  slug: string
  name: string
  stateCode: string
  population: number
}

export interface Point {
  lat: number
  lng: number
}

export interface ZipCode extends Point {
  zip: string
  city: string
  stateCode: string
}

export function findZip(db: Db, zip: string): Promise<ZipCode | null> {
  return db.first<ZipCode>(
    'SELECT zip, lat, lng, city, state_code AS stateCode FROM zip_codes WHERE zip = ?',
    zip,
  )
}

/** Close matches are read by the slug's first letters, most populous first: enough to rank. */
const CANDIDATES = 200
const PREFIX_LETTERS = 3

/**
 * The catalog's cities a typed city may mean: `exact`, those of that name (in the named state,
 * when one was), and `close`, names starting with what was typed, then names sharing its first
 * letters (a typo: "Atlnta"), each most populous first. Two index ranges of `cities.slug`, read
 * at once.
 */
export async function findPlaceMatches(
  db: Db,
  place: Extract<Place, { kind: 'city' }>,
  limit: number,
): Promise<{ exact: PlaceMatch[]; close: PlaceMatch[] }> {
  const { name, stateCode } = place
  const prefix = name.slice(0, PREFIX_LETTERS)
  // Slugs are [a-z0-9-]: every slug starting with `s` sorts from `s` to below `s` + '~'.
  const [named, around] = await Promise.all([
    db.all<PlaceMatch>(
      `SELECT ${MATCH_COLUMNS} FROM cities WHERE slug >= ? AND slug < ? AND length(slug) = ?
        ORDER BY population DESC LIMIT ${CANDIDATES}`,
      `${name}-`,
      `${name}-~`,
      name.length + 3,
    ),
    db.all<PlaceMatch>(
      `SELECT ${MATCH_COLUMNS} FROM cities WHERE slug >= ? AND slug < ?
        ORDER BY population DESC LIMIT ${CANDIDATES}`,
      prefix,
      `${prefix}~`,
    ),
  ])
  const inState = (m: PlaceMatch) => !stateCode || m.stateCode === stateCode
  const exact = named.filter(inState)
  const nameOf = (m: PlaceMatch) => m.slug.slice(0, -3)
  const score = (m: PlaceMatch) =>
    (nameOf(m).startsWith(name) ? 100 : sharedLetters(nameOf(m), name)) + (inState(m) ? 1 : 0)
  const close = [...named.filter((m) => !inState(m)), ...around]
    .filter(
      (m, i, all) =>
        !exact.some((e) => e.slug === m.slug) && all.findIndex((o) => o.slug === m.slug) === i,
    )
    .map((m) => ({ m, score: score(m) }))
    .sort((a, b) => b.score - a.score || b.m.population - a.m.population)
    .slice(0, limit)
    .map(({ m }) => m)
  return { exact: exact.slice(0, limit), close }
}

const MATCH_COLUMNS = 'slug, name, state_code AS stateCode, lat, lng, population'

function sharedLetters(a: string, b: string): number {
  let n = 0
  while (n < a.length && n < b.length && a[n] === b[n]) n++
  return n
}

export interface ServedCity {
  slug: string
  name: string
  stateCode: string
  miles: number
}

/**
 * How far the nearest city with providers is looked for, in widening rings: most searches end in
 * the first, and the last spans the country (Hawaii to California is 2,400 miles).
 */
const RINGS = [25, 100, 400, 3000]

/** The city nearest `point` that has providers of `service`, or null when none has any. */
export async function findNearestServed(
  db: Db,
  point: Point,
  service: string,
): Promise<ServedCity | null> {
  for (const miles of RINGS) {
    const rows = await db.all<ServedCity & Point>(
      `SELECT c.slug, c.name, c.state_code AS stateCode, c.lat, c.lng
         FROM cities c
         -- CROSS JOIN keeps cities as the outer loop: a latitude band of the cities_lat index.
         CROSS JOIN service_city_stats s ON s.service = ? AND s.city_id = c.id
        WHERE c.lat BETWEEN ? AND ? AND c.lng BETWEEN ? AND ? AND s.providers > 0`,
      service,
      ...box(point, miles),
    )
    const nearest = rows
      .map((c) => ({
        slug: c.slug,
        name: c.name,
        stateCode: c.stateCode,
        miles: milesBetween(point, c),
      }))
      .filter((c) => c.miles <= miles)
      .sort((a, b) => a.miles - b.miles)[0]
    if (nearest) return nearest
  }
  return null
}
