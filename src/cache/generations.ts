import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import type { WaitUntil } from '../lib/kept'
import { POLICIES } from './policies'

/**
 * Purges are generations: a cached page stored before the newest purge of any of its tags is
 * never served again, fresh or stale, not even when rendering fails (a purge is a removal).
 *
 * Each purge appends one row per tag to D1's `purges` table (migrations/0007_purges.sql). The
 * sequence only grows, so an isolate asks "what changed since the newest row I have seen" in one
 * indexed read (`WHERE seq > ?`), in the background, at most every REFRESH_MS, and keeps the
 * newest purge time of each tag in memory. Rows and generations older than PURGE_KEEP_MS concern
 * no page still in the cache: the cron deletes the rows, each isolate forgets the generations.
 */

/** The longest a page stays in the cache: fresh, then kept for stale-if-error. */
const LONGEST_KEEP_MS =
  Math.max(...Object.values(POLICIES).map((p) => p.sMaxage + p.staleIfError)) * 1000
/** A purge is remembered a day longer than any page it could concern: 9 days. */
export const PURGE_KEEP_MS = LONGEST_KEEP_MS + 86_400_000

/** A tag too long for any page's URL is refused by the purge endpoint. */
export const MAX_TAG_BYTES = 900

/**
 * How long a request waits for this isolate's first read of the purges. Past it, the request goes
 * on without them: stored copies are rendered again, not served (docs/caching.md). Only a cold
 * isolate ever waits; once the purges are known, requests never wait for a refresh.
 */
export const PURGE_STATE_DEADLINE_MS = 250
/** How often an isolate asks D1 for new purges, in the background: a purge shows within this. */
export const REFRESH_MS = 5_000

/**
 * How long after a purge this isolate's renders read from D1's primary
 * (src/request/read-session.ts). With read replication on, a replica may lag the primary by a
 * few seconds: a page re-rendered just after a data change and its purge must not be stored
 * again from an older copy (docs/data.md).
 */
export const PRIMARY_AFTER_PURGE_MS = 60_000

/** Rows read per query: a cold isolate reads the 9 days' rows in pages of this many. */
const PAGE_ROWS = 10_000
/** How often the generations past PURGE_KEEP_MS are forgotten. */
const FORGET_EVERY_MS = 60_000

interface PurgeRow {
  seq: number
  at: number
  tag: string
}

/**
 * What an isolate knows of purges (src/memory.ts): the newest purge time of each tag,
 * read from D1 and added to as this isolate records purges itself.
 */
export class KnownPurges {
  readonly #generations = new Map<string, number>()
  /** The newest row read: the next read asks only for rows after it. */
  #seq = 0
  /** Where the last read's D1 session stood: the next read sees nothing older (replication). */
  #bookmark: string | null = null
  #known = false
  /** When the next background read is due. */
  #due = 0
  #forgottenAt = 0
  #loading: Promise<void> | undefined
  /** Every purge recorded before this moment is known: a read from the primary began then. */
  #completeBefore = 0
  /** The newest purge known (src/request/read-session.ts). */
  newest = 0

  /** Whether a first read has ended well: until then nothing is known of purges. */
  get known(): boolean {
    return this.#known
  }

  /** Whether a read is due: the last one is older than REFRESH_MS, or failed that long ago. */
  get due(): boolean {
    return Date.now() >= this.#due
  }

  get loading(): boolean {
    return this.#loading !== undefined
  }

  /** Tags remembered (the bench measures their memory). */
  get size(): number {
    return this.#generations.size
  }

  /** The newest purge of any of `tags`, 0 when none was purged within PURGE_KEEP_MS. */
  newestOf(tags: readonly string[]): number {
    let newest = 0
    for (const tag of tags) newest = Math.max(newest, this.#generations.get(tag) ?? 0)
    return newest
  }

  /** Counts a purge at once: this isolate's own, or rows read from D1. */
  record(tags: readonly string[], at: number): void {
    for (const tag of tags)
      this.#generations.set(tag, Math.max(this.#generations.get(tag) ?? 0, at))
    this.newest = Math.max(this.newest, at)
  }

  /**
   * Reads the purges recorded since the last read (all of the last PURGE_KEEP_MS the first time),
   * one read at a time, from the primary if asked (else from where the last read stood). A
   * failure is reported and leaves what is known as it was; the next read is then due REFRESH_MS
   * later.
   */
  refresh(db: D1Database, report: Report = logProblem, primary = false): Promise<void> {
    this.#loading ??= this.#read(db, primary)
      .catch((error: unknown) => report('cache: purges unreadable', { error: String(error) }))
      .finally(() => {
        this.#due = Date.now() + REFRESH_MS
        this.#loading = undefined
      })
    return this.#loading
  }

  /** Starts a read in the background (`waitUntil`) if one is due and none is under way. */
  refreshIfDue(db: D1Database, waitUntil: WaitUntil, report: Report = logProblem): void {
    if (this.due && !this.loading) waitUntil(this.refresh(db, report))
  }

  /**
   * Whether every purge recorded before `at` is known, reading them from the primary unless a
   * read from it began since (waiting at most PURGE_STATE_DEADLINE_MS): what a page rendered from
   * a replica is checked against before it is stored (src/cache/edge-cache.ts).
   */
  async completeBefore(at: number, db: D1Database, report: Report = logProblem): Promise<boolean> {
    // A read already under way may have begun earlier, or not on the primary: then one more.
    for (let tries = 0; this.#completeBefore < at && tries < 2; tries++) {
      const read = this.refresh(db, report, true)
      if (!(await settlesWithin(read, PURGE_STATE_DEADLINE_MS))) return false
    }
    return this.#completeBefore >= at
  }

  async #read(db: D1Database, primary: boolean): Promise<void> {
    const began = Date.now()
    const session = db.withSession(
      primary ? 'first-primary' : (this.#bookmark ?? 'first-unconstrained'),
    )
    const since = began - PURGE_KEEP_MS
    for (;;) {
      const { results } = await session
        .prepare('SELECT seq, at, tag FROM purges WHERE seq > ? AND at >= ? ORDER BY seq LIMIT ?')
        .bind(this.#seq, since, PAGE_ROWS)
        .all<PurgeRow>()
      for (const row of results) {
        this.record([row.tag], row.at)
        this.#seq = Math.max(this.#seq, row.seq)
      }
      if (results.length < PAGE_ROWS) break
    }
    this.#bookmark = session.getBookmark() ?? this.#bookmark
    if (primary) this.#completeBefore = Math.max(this.#completeBefore, began)
    this.#known = true
    this.#forget(since)
  }

  /** Generations older than PURGE_KEEP_MS concern no stored page: memory stays bounded. */
  #forget(before: number): void {
    if (Date.now() - this.#forgottenAt < FORGET_EVERY_MS) return
    this.#forgottenAt = Date.now()
    for (const [tag, at] of this.#generations) if (at < before) this.#generations.delete(tag)
  }
}

/**
 * Whether the purges are known for this request. Once they are, the answer is at once and a
 * due read runs in the background (`waitUntil`): a hit never waits for one. A cold isolate starts
 * its first read and waits for it at most PURGE_STATE_DEADLINE_MS.
 */
export async function purgesKnown(
  known: KnownPurges,
  db: D1Database,
  waitUntil: WaitUntil,
  report: Report = logProblem,
): Promise<boolean> {
  if (known.known) {
    known.refreshIfDue(db, waitUntil, report)
    return true
  }
  // A failed first read is tried again REFRESH_MS later, not by every request meanwhile.
  if (!known.loading && !known.due) return false
  const loading = known.refresh(db, report)
  waitUntil(loading)
  return (await settlesWithin(loading, PURGE_STATE_DEADLINE_MS)) && known.known
}

/** Whether `promise` settles within `ms`; it runs on either way. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([promise.then(() => true), late])
  } finally {
    clearTimeout(timer)
  }
}

/** Records a purge of `tags` at `at` in D1, then in this isolate's memory at once. */
export async function recordPurge(
  known: KnownPurges,
  db: D1Database,
  tags: readonly string[],
  at: number,
): Promise<void> {
  await db
    .prepare('INSERT INTO purges (at, tag) SELECT ?, value FROM json_each(?)')
    .bind(at, JSON.stringify(tags))
    .run()
  known.record(tags, at)
}

/** Deletes the purge rows no stored page can be older than (the cron). */
export async function forgetOldPurges(db: D1Database, now: number): Promise<number> {
  const { meta } = await db
    .prepare('DELETE FROM purges WHERE at < ?')
    .bind(now - PURGE_KEEP_MS)
    .run()
  return meta.changes
}
