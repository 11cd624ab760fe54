import type { Report } from '../observability/reporter'
import type { WaitUntil } from '../lib/kept'
import { Kept } from '../lib/kept'
import type { GateMeta } from './gate-filter'

/** How long an isolate trusts what it last heard of cities added after its gate's build. */
export const NEW_CITIES_MAX_AGE_MS = 60_000

/** More new cities than this between two builds wait for the next build (the cron, every 10 min). */
export const MAX_NEW_CITIES = 5_000

const NONE: ReadonlySet<string> = new Set()

/** What an isolate last heard: the slugs added after the build numbered `after`. */
export interface NewCities {
  after: number
  slugs: ReadonlySet<string>
}

/** An isolate's copy of the cities added after its gate's build (src/memory.ts). */
export const keptNewCities = (): Kept<NewCities> => new Kept({ maxAgeMs: NEW_CITIES_MAX_AGE_MS })

/**
 * The slugs of cities added after the gate was built, as the isolate last heard from D1. Never
 * waits for D1: when what it knows is older than a minute, or of another build, it asks again in
 * the background, so a rejected slug still costs no read on its request. Empty for a gate built
 * before the build recorded its position in the city log.
 */
export function citiesAddedAfter(
  kept: Kept<NewCities>,
  meta: GateMeta,
  d1: D1Database,
  waitUntil: WaitUntil,
  report: Report,
): ReadonlySet<string> {
  const after = meta.cityAdditions
  const current = knownNewCities(kept, meta)
  if (current || after === undefined) return current ?? NONE
  waitUntil(
    kept.load({
      read: async () => ({ after, slugs: new Set(await findCitiesAddedAfter(d1, after)) }),
      // Keep what was known (a superset is harmless: D1 decides) and ask again in a minute.
      recover: (error, previous) => {
        report('gate: new cities could not be read', { error: String(error) })
        return { after, slugs: previous?.slugs ?? NONE }
      },
    }),
  )
  return kept.value?.slugs ?? NONE
}

/**
 * What `citiesAddedAfter` answers without asking D1 again, or null when it would ask: what is
 * known is older than a minute or of another build, and no read is running.
 */
export function knownNewCities(kept: Kept<NewCities>, meta: GateMeta): ReadonlySet<string> | null {
  const after = meta.cityAdditions
  if (after === undefined) return NONE
  const known = kept.value
  if ((kept.stale || known?.after !== after) && !kept.loading) return null
  return known?.slugs ?? NONE
}

/** The slugs of the city log past `after` (migrations/0006_city_additions.sql): a key range. */
export async function findCitiesAddedAfter(d1: D1Database, after: number): Promise<string[]> {
  const { results } = await d1
    .prepare('SELECT slug FROM city_additions WHERE seq > ? ORDER BY seq LIMIT ?')
    .bind(after, MAX_NEW_CITIES)
    .all<{ slug: string }>()
  return results.map((r) => r.slug)
}
