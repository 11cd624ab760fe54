import type { Timing } from '../observability/timing'
import type { Trail } from '../observability/trail'

export type Param = string | number | null

/** The read side of D1 that data functions get: counted, timed, retried. */
export interface Db {
  all<T>(sql: string, ...params: Param[]): Promise<T[]>
  first<T>(sql: string, ...params: Param[]): Promise<T | null>
}

/** SPEC section 9: storage reads during server rendering retry a transient failure up to 3 times. */
export const READ_RETRIES = 3

// Errors D1 documents as safe to retry for a read. An SQL error (syntax, missing column) is a
// bug, not a blip, and is thrown at once.
const TRANSIENT =
  /network connection lost|storage caused object to be reset|object to be reset|reset because its code was updated|internal error|timed? ?out|temporarily unavailable|overloaded/i

/** D1 failed (after retrying a transient failure): the page answers 503, or a stale copy. */
export class StorageError extends Error {}

/**
 * A read slower than this is storage failing too: the page is served stale or answers 503
 * rather than keep a visitor waiting. Not retried: a slow database needs less load, not more.
 */
export const READ_DEADLINE_MS = 2_500

async function withDeadline<T>(read: Promise<T>, sql: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const what = sql.replace(/\s+/g, ' ').slice(0, 80)
      reject(new StorageError(`D1 read over ${READ_DEADLINE_MS} ms: ${what}`))
    }, READ_DEADLINE_MS)
  })
  try {
    return await Promise.race([read, late])
  } finally {
    clearTimeout(timer)
  }
}

export function isTransient(error: unknown): boolean {
  return error instanceof Error && TRANSIENT.test(error.message)
}

/**
 * Tables that only the cron's refresh writes (and the place data): a read of these alone is kept
 * in this isolate's memory for a minute, so a page pays D1 round trips for its live rows only.
 * The refresh forgets them at once in its own isolate; others catch up within the minute.
 */
const DERIVED_TABLES = new Set([
  'cities',
  'service_city_stats',
  'job_city_stats',
  'rate_experience_stats',
  'activity_stats',
])
const DERIVED_READ_TTL_MS = 60_000
const MAX_DERIVED_READS = 2_000
const derivedReads = new Map<string, { rows: Promise<unknown[]>; until: number }>()

/** Whether every table `sql` reads is derived. */
export function readsDerivedOnly(sql: string): boolean {
  const tables = [...sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)/gi)].map((m) => m[1]?.toLowerCase())
  return tables.length > 0 && tables.every((t) => t !== undefined && DERIVED_TABLES.has(t))
}

export function forgetDerivedReads(): void {
  derivedReads.clear()
}

export function openDb(d1: D1Database, timing: Timing, trail?: Trail): Db {
  function memoised<T>(sql: string, params: Param[]): Promise<T[]> {
    if (!readsDerivedOnly(sql)) return read<T>(sql, params)
    const key = JSON.stringify([sql, params])
    const now = Date.now()
    const kept = derivedReads.get(key)
    if (kept && now < kept.until) {
      trail?.add('d1', `memory: ${sql.replace(/\s+/g, ' ').slice(0, 72)}`)
      return kept.rows as Promise<T[]>
    }
    if (derivedReads.size >= MAX_DERIVED_READS) derivedReads.clear()
    const rows = read<T>(sql, params)
    derivedReads.set(key, { rows, until: now + DERIVED_READ_TTL_MS })
    // A failed read is not kept: the next request asks D1 again.
    rows.catch(() => derivedReads.delete(key))
    return rows
  }

  async function read<T>(sql: string, params: Param[]): Promise<T[]> {
    for (let attempt = 0; ; attempt++) {
      const start = performance.now()
      try {
        const { results } = await withDeadline(
          d1
            .prepare(sql)
            .bind(...params)
            .all<T>(),
          sql,
        )
        const ms = performance.now() - start
        timing.add('d1', ms)
        trail?.add('d1', sql.replace(/\s+/g, ' ').slice(0, 80), {
          rows: results.length,
          ms: Math.round(ms),
        })
        return results
      } catch (error) {
        timing.add('d1', performance.now() - start)
        trail?.add('d1', `failed: ${String(error).slice(0, 80)}`, { attempt })
        if (error instanceof StorageError) throw error
        if (attempt >= READ_RETRIES || !isTransient(error)) {
          const message = `D1 read failed: ${sql.replace(/\s+/g, ' ').slice(0, 80)}`
          throw new StorageError(message, { cause: error })
        }
        await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt))
      }
    }
  }
  return {
    all: (sql, ...params) => memoised(sql, params),
    first: async <T>(sql: string, ...params: Param[]) =>
      (await memoised<T>(sql, params))[0] ?? null,
  }
}
