// US ZIP codes from the `zipcodes` package (the Census Bureau's ZIP positions, with the post
// office's place name), as rows of `zip_codes`: the search form finds the city nearest a ZIP.
import { createRequire } from 'node:module'
import { STATES } from '../../src/catalog/states'
import type { Row } from './city-rows'
import type { Place } from './places'

interface ZipEntry {
  zip: string
  latitude: number
  longitude: number
  city: string
  state: string
}

let all: Row[] | null = null

/** Every ZIP code of a state the catalog knows, in ZIP order. */
export function zipRows(): Row[] {
  if (all) return all
  const { codes } = createRequire(import.meta.url)('zipcodes/lib/codes.js') as {
    codes: Record<string, ZipEntry>
  }
  all = Object.values(codes)
    .filter((z) => /^\d{5}$/.test(z.zip) && STATES[z.state] && Number.isFinite(z.latitude))
    .sort((a, b) => a.zip.localeCompare(b.zip))
    .map((z) => ({
      zip: z.zip,
      lat: z.latitude,
      lng: z.longitude,
      city: z.city,
      state_code: z.state,
    }))
  return all
}

/** The ZIP codes within `miles` of any of `places`, for small test catalogs. */
export function zipRowsNear(places: readonly Place[], miles: number): Row[] {
  const d = miles / 69
  return zipRows().filter((z) =>
    places.some(
      (p) => Math.abs(Number(z.lat) - p.lat) < d && Math.abs(Number(z.lng) - p.lng) < d * 1.4,
    ),
  )
}
