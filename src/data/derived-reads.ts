import { Kept } from '../lib/kept'

/**
 * Tables that only the cron's refresh writes (and the place data): a read of these alone is kept
 * in the isolate's memory for a minute, so a page pays D1 round trips for its live rows only.
 * The refresh forgets them at once in its own isolate; others catch up within the minute.
 */
const DERIVED_TABLES = new Set([
  'cities',
  'service_city_stats',
  'job_city_stats',
  'rate_experience_stats',
  'activity_stats',
  'service_state_stats',
  'city_service_mixes',
  'activity_ends',
])
const DERIVED_READ_TTL_MS = 60_000
const MAX_DERIVED_READS = 2_000

// The answer for each statement: the statements are a fixed set.
const derivedOnly = new Map<string, boolean>()

/** Whether every table `sql` reads is derived. */
export function readsDerivedOnly(sql: string): boolean {
  let only = derivedOnly.get(sql)
  if (only === undefined) {
    // Comments left out: "-- CROSS JOIN keeps cities as the outer loop" names no table, and
    // read as one it kept those reads from ever being kept.
    const code = sql.replace(/--[^\n]*/g, '')
    const tables = [...code.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)/gi)].map((m) =>
      m[1]?.toLowerCase(),
    )
    only = tables.length > 0 && tables.every((t) => t !== undefined && DERIVED_TABLES.has(t))
    derivedOnly.set(sql, only)
  }
  return only
}

/** An isolate's derived reads, by statement and parameters. A failed read is not kept. */
export class DerivedReads {
  readonly #reads = new Map<string, Kept<unknown[]>>()
  /** The newest purge the isolate knows of (src/cache/generations.ts). */
  readonly #newestPurge: () => number
  /** The newest purge these reads have been forgotten for. */
  #purge = 0

  constructor(newestPurge: () => number = () => 0) {
    this.#newestPurge = newestPurge
  }

  /** The kept read of `key`; past MAX_DERIVED_READS of them, all are dropped first. */
  of(key: string): Kept<unknown[]> {
    this.#forgetBeforePurge()
    let kept = this.#reads.get(key)
    if (!kept) {
      if (this.#reads.size >= MAX_DERIVED_READS) this.#reads.clear()
      kept = new Kept({ maxAgeMs: DERIVED_READ_TTL_MS })
      this.#reads.set(key, kept)
    }
    return kept
  }

  /** Forgets every read: the cron's refresh has just written the tables again. */
  clear(): void {
    this.#reads.clear()
  }

  /**
   * Forgets every read once the isolate has learnt of a purge newer than the last it forgot them
   * for: catalog sync writes the derived tables and records its purges in one transaction
   * (docs/sync.md), so a page rendered again after the purge never shows older counts.
   */
  #forgetBeforePurge(): void {
    const newest = this.#newestPurge()
    if (newest <= this.#purge) return
    this.#purge = newest
    this.clear()
  }
}
