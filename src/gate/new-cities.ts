import type { Report } from '../observability/reporter'
import type { Deadline, WaitUntil } from '../lib/kept'
import { Kept, LATE } from '../lib/kept'
import type { GateMeta } from './gate-filter'

/** How long an isolate trusts what it last heard of cities added after its gate's build. */
export const NEW_CITIES_MAX_AGE_MS = 60_000

/** More new cities than this between two builds wait for the next build (the cron, every 10 min). */
export const MAX_NEW_CITIES = 5_000

const NONE: ReadonlySet<string> = new Set()

/**
 * A change's purge is recorded at most this long before its D1 batch commits (D1 ends a query
 * within 30 s): additions read later than that after a purge include what the purge is for.
 */
export const COMMIT_WITHIN_MS = 30_000

/**
 * What an isolate last heard: the slugs added after the build numbered `after`, in a read that
 * covers every purge up to `purge` (src/cache/generations.ts): those the isolate knew of when the
 * read began, and those recorded COMMIT_WITHIN_MS before it.
 */
export interface NewCities {
  after: number
  slugs: ReadonlySet<string>
  purge: number
}

/**
 * The additions an isolate knows of, and whether they are current enough to refuse a slug that
 * is not among them: read for this build, within the minute, and since the newest purge the
 * isolate knows of. Catalog sync records a purge with every addition (docs/sync.md), so an
 * isolate that has seen the purge of a new city or provider reads the log again before it
 * refuses one.
 */
export interface Additions {
  slugs: ReadonlySet<string>
  current: boolean
}

/** An isolate's copy of the additions, and the newest purge it knows of (read on each use). */
export interface AdditionsState {
  kept: Kept<NewCities>
  newestPurge: () => number
}

/** An isolate's additions after its gate's build (src/memory.ts). */
export const keptNewCities = (newestPurge: () => number): AdditionsState => ({
  kept: new Kept({ maxAgeMs: NEW_CITIES_MAX_AGE_MS }),
  newestPurge,
})

/**
 * What is known of the additions after `meta`'s build, without asking D1. A superset (another
 * build's) is harmless: D1 decides.
 */
export function knownNewCities({ kept, newestPurge }: AdditionsState, meta: GateMeta): Additions {
  const after = meta.cityAdditions
  if (after === undefined) return { slugs: NONE, current: true }
  const known = kept.value
  const current =
    known !== undefined && known.after === after && !kept.stale && known.purge >= newestPurge()
  return { slugs: known?.slugs ?? NONE, current }
}

/**
 * `knownNewCities`, asking D1 again in the background when they are not current: never waits.
 * Empty for a gate built before the build recorded its position in the city log.
 */
export function citiesAddedAfter(
  state: AdditionsState,
  meta: GateMeta,
  d1: D1Database,
  waitUntil: WaitUntil,
  report: Report,
): Additions {
  const additions = knownNewCities(state, meta)
  if (!additions.current && !state.kept.loading && meta.cityAdditions !== undefined)
    waitUntil(state.kept.load(additionsLoad(state, meta.cityAdditions, d1, report)))
  return additions
}

/**
 * The additions once current, waiting for D1 at most `deadline.ms` (a read already past a
 * deadline is not waited for again); null when they are still not current then.
 */
export async function currentNewCities(
  state: AdditionsState,
  meta: GateMeta,
  d1: D1Database,
  deadline: Deadline,
  report: Report,
): Promise<Additions | null> {
  const after = meta.cityAdditions
  if (after === undefined || knownNewCities(state, meta).current) return knownNewCities(state, meta)
  // Known but behind a purge or of another build: as stale as past its age.
  state.kept.expire()
  const read = await state.kept.getWithin(additionsLoad(state, after, d1, report), deadline)
  if (read === LATE) return null
  const additions = knownNewCities(state, meta)
  return additions.current ? additions : null
}

function additionsLoad(
  { newestPurge, kept }: AdditionsState,
  after: number,
  d1: D1Database,
  report: Report,
) {
  const purge = Math.max(newestPurge(), Date.now() - COMMIT_WITHIN_MS)
  return {
    read: async (): Promise<NewCities> => ({
      after,
      slugs: new Set(await findCitiesAddedAfter(d1, after)),
      purge,
    }),
    // Keep what was known (a superset is harmless: D1 decides) and ask again in a minute.
    recover: (error: unknown, previous: NewCities | undefined): NewCities => {
      report('gate: new cities could not be read', { error: String(error) })
      return { after, slugs: previous?.slugs ?? kept.value?.slugs ?? NONE, purge }
    },
  }
}

/** The slugs of the city log past `after` (migrations/control/0001_control.sql): a key range. */
export async function findCitiesAddedAfter(d1: D1Database, after: number): Promise<string[]> {
  const { results } = await d1
    .prepare('SELECT slug FROM city_additions WHERE seq > ? ORDER BY seq LIMIT ?')
    .bind(after, MAX_NEW_CITIES)
    .all<{ slug: string }>()
  return results.map((r) => r.slug)
}
