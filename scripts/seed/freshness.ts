/**
 * A seeded catalog is dated by the day the seed ran: its jobs close and its activities end from
 * then on, so a local state seeded weeks ago would serve seed-city job listings with nothing
 * open. Past this age `npm start` seeds again (about 20 s at the default scale, quiet).
 */
export const MAX_SEED_AGE_DAYS = 3

const DAY_MS = 86_400_000

/** What the catalog_meta table says about the catalog in the local D1. */
export interface SeededCatalog {
  version: string | null
  seededAt: string | null
}

export type SeedVerdict = { seed: false } | { seed: true; reason: string }

/** Whether to seed again, and why: forced, never seeded, changed, or too old for its dates. */
export function seedVerdict(
  stored: SeededCatalog,
  version: string,
  now: Date,
  force = false,
): SeedVerdict {
  if (force) return { seed: true, reason: 'forced' }
  if (stored.version === null) return { seed: true, reason: 'no catalog yet' }
  if (stored.version !== version)
    return { seed: true, reason: 'the migrations, the generator or its options changed' }
  const seededAt = stored.seededAt === null ? NaN : Date.parse(stored.seededAt)
  if (Number.isNaN(seededAt)) return { seed: true, reason: 'the catalog has no seeding date' }
  const days = (now.getTime() - seededAt) / DAY_MS
  if (days > MAX_SEED_AGE_DAYS)
    return {
      seed: true,
      reason: `seeded ${Math.floor(days)} days ago, its jobs and activities are closing`,
    }
  return { seed: false }
}
