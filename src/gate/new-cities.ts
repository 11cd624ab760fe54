import type { Report } from '../observability/reporter'
import type { GateMeta } from './gate-filter'

/** How long an isolate trusts what it last heard of cities added after its gate's build. */
export const NEW_CITIES_MAX_AGE_MS = 60_000

/** More new cities than this between two builds wait for the next build (the cron, every 10 min). */
export const MAX_NEW_CITIES = 5_000

const NONE: ReadonlySet<string> = new Set()

// What this isolate last heard: the slugs added after the build numbered `after`, and when.
let known: { after: number; slugs: ReadonlySet<string>; checkedAt: number } | null = null
let refreshing: Promise<void> | null = null

/**
 * The slugs of cities added after the gate was built, as this isolate last heard from D1. Never
 * waits for D1: when what it knows is older than a minute, or of another build, it asks again in
 * the background, so a rejected slug still costs no read on its request. Empty for a gate built
 * before the build recorded its position in the city log.
 */
export function citiesAddedAfter(
  meta: GateMeta,
  d1: D1Database,
  waitUntil: (p: Promise<unknown>) => void,
  report: Report,
): ReadonlySet<string> {
  const after = meta.cityAdditions
  if (after === undefined) return NONE
  const stale =
    !known || known.after !== after || Date.now() - known.checkedAt >= NEW_CITIES_MAX_AGE_MS
  if (stale && !refreshing) waitUntil(refresh(d1, after, report))
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

function refresh(d1: D1Database, after: number, report: Report): Promise<void> {
  refreshing ??= findCitiesAddedAfter(d1, after)
    .then((slugs) => {
      known = { after, slugs: new Set(slugs), checkedAt: Date.now() }
    })
    .catch((error: unknown) => {
      // Keep what was known (a superset is harmless: D1 decides) and ask again in a minute.
      known = { after, slugs: known?.slugs ?? NONE, checkedAt: Date.now() }
      report('gate: new cities could not be read', { error: String(error) })
    })
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

/** Forgets what this isolate heard (with the gate itself: tests, and after a rebuild). */
export function forgetNewCities(): void {
  known = null
}
