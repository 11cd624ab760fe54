import type { Timing } from '../observability/timing'
import type { Trail } from '../observability/trail'
import type { DerivedReads } from './derived-reads'
import { readsDerivedOnly } from './derived-reads'

export type Param = string | number | null

/** What reads need of D1: a database, or a session of D1's Sessions API (src/request/read-session.ts). */
export type D1Reads = Pick<D1Database, 'prepare'>

/** The read side of D1 that data functions get: counted, timed, retried. */
export interface Db {
  all<T>(sql: string, ...params: Param[]): Promise<T[]>
  first<T>(sql: string, ...params: Param[]): Promise<T | null>
}

/** Storage reads during server rendering retry a transient failure up to 3 times (docs/data.md). */
export const READ_RETRIES = 3

// Errors D1 documents as safe to retry for a read. An SQL error (syntax, missing column) is a
// bug, not a blip, and is thrown at once.
const TRANSIENT =
  /network connection lost|storage caused object to be reset|object to be reset|reset because its code was updated|internal error|timed? ?out|temporarily unavailable|overloaded/i

/** D1 failed (after retrying a transient failure): the page answers 503, or a stale copy. */
export class StorageError extends Error {}

/**
 * A read slower than this is storage failing too: the page is served stale or answers 503
 * rather than keep a visitor waiting. A page waits for at most one round trip before its first
 * byte (docs/data.md), which takes tens of milliseconds even from far away; half a second is a
 * database in trouble. Not retried: a slow database needs less load, not more.
 */
export const READ_DEADLINE_MS = 500

// Each statement's one-line form, for traces and errors: the statements are a fixed set.
const oneLines = new Map<string, string>()
function oneLine(sql: string): string {
  let line = oneLines.get(sql)
  if (line === undefined) oneLines.set(sql, (line = sql.replace(/\s+/g, ' ')))
  return line
}

/** `work`, or a StorageError once it has taken `ms`: `what` names it in the error. */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageError(`${what} over ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

export function isTransient(error: unknown): boolean {
  return error instanceof Error && TRANSIENT.test(error.message)
}

/**
 * D1 for one request: every read counted in `timing` and told to `trail`. With `derived`, the
 * isolate's (src/memory.ts), reads of derived tables alone are kept in memory; without it, every
 * read goes to D1.
 */
export function openDb(
  d1: D1Reads,
  timing: Timing,
  { trail, derived }: { trail?: Trail; derived?: DerivedReads } = {},
): Db {
  function memoised<T>(sql: string, params: Param[]): Promise<T[]> {
    if (!derived || !readsDerivedOnly(sql)) return read<T>(sql, params)
    const entry = derived.of(JSON.stringify([sql, params]))
    if (!entry.stale || entry.loading) trail?.add('d1', `memory: ${oneLine(sql).slice(0, 72)}`)
    return entry.get({ read: () => read<T>(sql, params) }) as Promise<T[]>
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
          READ_DEADLINE_MS,
          `D1 read: ${oneLine(sql).slice(0, 80)}`,
        )
        const ms = performance.now() - start
        timing.add('d1', ms)
        trail?.add('d1', oneLine(sql).slice(0, 80), {
          rows: results.length,
          ms: Math.round(ms),
        })
        return results
      } catch (error) {
        timing.add('d1', performance.now() - start)
        trail?.add('d1', `failed: ${String(error).slice(0, 80)}`, { attempt })
        if (error instanceof StorageError) throw error
        if (attempt >= READ_RETRIES || !isTransient(error)) {
          const message = `D1 read failed: ${oneLine(sql).slice(0, 80)}`
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
