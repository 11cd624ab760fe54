// The small catalog route tests run against: the seed's twenty cities and a ring of real
// places around Atlanta (for nearby-city links and thin pages), and the ZIP codes around them,
// as INSERT statements.
import { TABLES } from './city-rows'
import { generateCatalog } from './generate-catalog'
import { catalogPlaces, placesNear } from './places'
import { insertStatements } from './sql'
import { zipRowsNear } from './zips'

export const TEST_SCALE = 0.25

export function testCatalogStatements(now: Date): string[] {
  const places = [...catalogPlaces(20), ...placesNear('atlanta-ga', 40, 12)]
  const statements: string[] = []
  for (const rows of generateCatalog(places, { scale: TEST_SCALE, seed: 1, now })) {
    for (const table of TABLES) {
      statements.push(...insertStatements(table, rows[table]))
    }
  }
  statements.push(...insertStatements('zip_codes', zipRowsNear(places, 5)))
  return statements
}
