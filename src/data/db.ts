import type { Timing } from '../observability/timing'
import type { Trail } from '../observability/trail'
import type { DerivedReads } from './derived-reads'
import { readsDerivedOnly } from './derived-reads'
import { shownText } from '../lib/text-rule'

export type Param = string | number | null

/** What reads need of D1: a database, or a session of D1's Sessions API (src/request/read-session.ts). */
export type D1Reads = Pick<D1Database, 'prepare' | 'batch'>

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

const ONE_FAILED = Symbol('one statement of the batch failed')

/** One statement waiting to be sent, and where its rows go. */
interface Queued {
  sql: string
  params: Param[]
  resolve: (rows: unknown[]) => void
  reject: (error: unknown) => void
}

/**
 * D1 for one request: every read counted in `timing` and told to `trail`. With `derived`, the
 * isolate's (src/memory.ts), reads of derived tables alone are kept in memory; without it, every
 * read goes to D1.
 *
 * Reads issued together (in the same turn of the event loop, as a page's `Promise.all` issues
 * them) are sent as one `batch`: one subrequest, one round trip, however many statements. Each
 * round trip is one `d1` count in `timing`.
 */
export function openDb(
  d1: D1Reads,
  timing: Timing,
  { trail, derived }: { trail?: Trail; derived?: DerivedReads } = {},
): Db {
  let queue: Queued[] | null = null

  function memoised<T>(sql: string, params: Param[]): Promise<T[]> {
    if (!derived || !readsDerivedOnly(sql)) return read<T>(sql, params)
    const entry = derived.of(JSON.stringify([sql, params]))
    if (!entry.stale || entry.loading) trail?.add('d1', `memory: ${oneLine(sql).slice(0, 72)}`)
    return entry.get({ read: () => read<T>(sql, params) }) as Promise<T[]>
  }

  function read<T>(sql: string, params: Param[]): Promise<T[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      if (!queue) {
        const sent = (queue = [])
        // Once the reads issued with this one have joined it.
        queueMicrotask(() => {
          queue = null
          void send(sent)
        })
      }
      queue.push({ sql, params, resolve, reject })
    }) as Promise<T[]>
  }

  /**
   * The statements as one round trip. A batch that fails for one statement's mistake (an SQL
   * error, not a blip) is sent again statement by statement, so only that read fails, as if
   * each had been sent alone.
   */
  async function send(queued: Queued[]): Promise<void> {
    try {
      const results = await attempt(d1, timing, trail, queued)
      if (results === ONE_FAILED) await Promise.all(queued.map((q) => send([q])))
      else queued.forEach((q, i) => q.resolve(shownRows(results[i] ?? [])))
    } catch (error) {
      for (const q of queued) q.reject(error)
    }
  }

  return {
    all: (sql, ...params) => memoised(sql, params),
    first: async <T>(sql: string, ...params: Param[]) =>
      (await memoised<T>(sql, params))[0] ?? null,
  }
}

/** The rows of each statement, retried as documented; ONE_FAILED for a batch's mistake. */
async function attempt(
  d1: D1Reads,
  timing: Timing,
  trail: Trail | undefined,
  queued: Queued[],
): Promise<unknown[][] | typeof ONE_FAILED> {
  const what = queued.map((q) => oneLine(q.sql).slice(0, 80)).join('; ')
  for (let attempt = 0; ; attempt++) {
    const start = performance.now()
    try {
      const statements = queued.map((q) => d1.prepare(q.sql).bind(...q.params))
      const results = await withDeadline(
        statements.length === 1 && statements[0]
          ? statements[0].all().then((r) => [r])
          : d1.batch(statements),
        READ_DEADLINE_MS,
        `D1 read: ${what}`,
      )
      const ms = performance.now() - start
      timing.add('d1', ms)
      const rows = results.map((r) => r.results)
      queued.forEach((q, i) =>
        trail?.add('d1', oneLine(q.sql).slice(0, 80), {
          rows: rows[i]?.length ?? 0,
          ms: Math.round(ms),
        }),
      )
      return rows
    } catch (error) {
      timing.add('d1', performance.now() - start)
      trail?.add('d1', `failed: ${String(error).slice(0, 80)}`, { attempt })
      if (error instanceof StorageError) throw error
      if (queued.length > 1 && !isTransient(error)) return ONE_FAILED
      if (attempt >= READ_RETRIES || !isTransient(error)) {
        throw new StorageError(`D1 read failed: ${what}`, { cause: error })
      }
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt))
    }
  }
}

/**
 * The last guard of the text rule (src/lib/text-rule.ts): every text a page reads from D1 as a
 * page may show it, so a row stored before the rule, or around it, cannot put a control
 * character into a page, its JSON-LD or its data twin. A text with nothing to take out is left
 * as it is, at the cost of one regular-expression test.
 */
function shownRows(rows: unknown[]): unknown[] {
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue
    const record = row as Record<string, unknown>
    for (const key in record) {
      const value = record[key]
      if (typeof value === 'string') record[key] = shownText(value)
    }
  }
  return rows
}
