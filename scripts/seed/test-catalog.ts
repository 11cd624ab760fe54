// The small catalog route tests run against: the twenty SEED_CITIES and a ring of real
// places around Atlanta (for nearby-city links and thin pages), as the NDJSON lines of change
// messages `npm run import` reads: test/setup.ts loads them through the import's own code. The
// ZIP codes around them, for the search form, are INSERT statements: not catalog data.
import { catalogLines } from './catalog-lines'
import { catalogPlaces, placesNear } from './places'
import { insertStatements } from './sql'
import { zipRowsNear } from './zips'

export const TEST_SCALE = 0.25

const testPlaces = () => [...catalogPlaces(20), ...placesNear('atlanta-ga', 40, 12)]

export function testCatalogLines(now: Date): string[] {
  return [...catalogLines(testPlaces(), { scale: TEST_SCALE, seed: 1, now })].flat()
}

/** The ZIP codes within 5 miles of the test catalog's places. */
export function testZipStatements(): string[] {
  return [...insertStatements('zip_codes', zipRowsNear(testPlaces(), 5))]
}
