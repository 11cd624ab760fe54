import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import type { WaitUntil } from '../lib/kept'
import { POLICIES } from './policies'
import type { SketchSize } from './purge-sketch'
import { PurgeSketch, RECENT_MS, SKETCH_SIZE, tagHash, UNIT_MS } from './purge-sketch'
import type { SnapshotHead } from './purge-snapshot'
import {
  decodeSnapshot,
  NEWEST_HEAD_SQL,
  SNAPSHOT_AFTER_ROWS,
  SNAPSHOT_EVERY_MS,
  SNAPSHOT_SEQ,
  snapshotReads,
  writeSnapshot,
} from './purge-snapshot'

/**
 * Purges are generations: a cached page stored before the newest purge of any of its tags is
 * never served again, fresh or stale, not even when rendering fails (a purge is a removal).
 *
 * Each purge appends one row per tag to D1's `purges` table (migrations/control/0001_control.sql). The
 * sequence only grows, so an isolate asks "what changed since the newest row I have seen" in one
 * indexed read (`WHERE seq > ?`), in the background, every READ_EVERY_MS, and keeps the newest
 * purge time of each tag in a fixed amount of memory (src/cache/purge-sketch.ts). A cold isolate
 * reads a snapshot of that memory and the rows after it in one round trip
 * (src/cache/purge-snapshot.ts). Knowledge older than REFRESH_MS serves nothing: the request
 * waits for a read, at most PURGE_STATE_DEADLINE_MS, else renders (docs/caching.md).
 */

/** The longest a page stays in the cache: fresh, then kept for stale-if-error. */
const LONGEST_KEEP_MS =
  Math.max(...Object.values(POLICIES).map((p) => p.sMaxage + p.staleIfError)) * 1000
/** A purge is remembered a day longer than any page it could concern: 9 days. */
export const PURGE_KEEP_MS = LONGEST_KEEP_MS + 86_400_000

/** A tag too long for any page's URL is refused by the purge endpoint. */
export const MAX_TAG_BYTES = 900

/**
 * How long a request waits for a read of the purges when this isolate's are not current (a cold
 * isolate, or one idle past REFRESH_MS). Past it, the request goes on without them: stored copies
 * are rendered again, not served (docs/caching.md).
 */
export const PURGE_STATE_DEADLINE_MS = 250
/** The oldest purge knowledge a stored copy is served on: a purge shows within this. */
export const REFRESH_MS = 5_000
/**
 * How often a busy isolate reads new purges, in the background: half of REFRESH_MS, so a busy
 * isolate's knowledge is always current and only an idle one's request ever waits.
 */
export const READ_EVERY_MS = REFRESH_MS / 2

/**
 * How long a replica may lag the primary (src/request/read-session.ts): a page whose tags were
 * purged within this is read at the bookmark of that purge, and a page read from a replica is
 * stored only if none of its tags was purged within this before the read (docs/data.md).
 */
export const REPLICATION_WINDOW_MS = 60_000

/** Rows read per query: the rows after the snapshot are read in pages of this many. */
const PAGE_ROWS = 10_000
/** Bookmarks kept for the recent window: one per read, a few per second at most. */
const MOST_BOOKMARKS = 256

interface PurgeRow {
  seq: number
  at: number
  tag: string
}

/** A D1 session's bookmark once it had seen every purge row up to `seq`, and when. */
interface SeenAt {
  seq: number
  bookmark: string
  at: number
}

/** How a page's reads must be constrained: by a bookmark that covers rows up to `seq`. */
export type ReadNeed = null | 'primary' | { bookmark: string; seq: number }

/**
 * What an isolate knows of purges (src/memory.ts): the newest purge time of each tag, read from
 * D1 and added to as this isolate records purges itself, in a fixed amount of memory.
 */
export class KnownPurges {
  readonly #sketch: PurgeSketch
  /** The newest row read: the next read asks only for rows after it. */
  #seq = 0
  /** Where the last read's D1 session stood: the next read sees nothing older (replication). */
  #bookmark: string | null = null
  /** Bookmarks of the recent window's reads and writes, by seq. */
  #seen: SeenAt[] = []
  #known = false
  /** When the last read that ended well began: knowledge is current as of then. */
  #readAt = 0
  /** When the next background read is due. */
  #due = 0
  #loading: Promise<void> | undefined
  /** Every purge recorded before this moment is known: a read from the primary began then. */
  #completeBefore = 0
  /** The newest snapshot in D1 as last seen: when it is old, this isolate may write one. */
  #snapshot = { seq: 0, madeAt: 0 }
  /** The newest purge known (src/request/read-session.ts). */
  newest = 0
  /**
   * While the cells are a folded snapshot's (a cold read's first: purge-snapshot.ts), every purge
   * recorded since, to raise again over the whole snapshot once it is read; null once it is.
   */
  #unrefined: Raises | null = null
  /** The folded snapshot's seq: the whole one read after must be as new. */
  #foldedSeq = 0
  /** Whether the cells are still a folded snapshot's, read too new: none is written from them. */
  #folded = false
  #refining: Promise<void> | undefined

  constructor(size: SketchSize = SKETCH_SIZE, now = Date.now()) {
    this.#sketch = new PurgeSketch(now, size)
  }

  /** Whether a first read has ended well: until then nothing is known of purges. */
  get known(): boolean {
    return this.#known
  }

  /** Whether what is known is recent enough to serve a stored copy on (REFRESH_MS). */
  get current(): boolean {
    return this.#known && Date.now() - this.#readAt <= REFRESH_MS
  }

  /** Whether a read is due: the last one is older than READ_EVERY_MS, or failed that long ago. */
  get due(): boolean {
    return Date.now() >= this.#due
  }

  get loading(): boolean {
    return this.#loading !== undefined
  }

  /** Bytes held in typed arrays (fixed); the bench measures the heap as a whole. */
  get bytes(): number {
    return this.#sketch.bytes
  }

  /** The newest purge of any of `tags`, 0 when none was purged within PURGE_KEEP_MS. */
  newestOf(tags: readonly string[]): number {
    let newest = 0
    for (const tag of tags) newest = Math.max(newest, this.#sketch.newestOf(tagHash(tag)))
    return newest < Date.now() - PURGE_KEEP_MS ? 0 : newest
  }

  /** Counts a purge at once: this isolate's own (`seq` of its rows if known), or rows read. */
  record(tags: readonly string[], at: number, seq = 0): void {
    const now = Date.now()
    // Older than any stored page: it concerns none.
    if (at < now - PURGE_KEEP_MS) return
    for (const tag of tags) {
      const hash = tagHash(tag)
      this.#sketch.record(hash, at, seq, now)
      // The whole snapshot never read in so long: the folded cells stay (safe, more renders).
      if (this.#unrefined && !this.#unrefined.add(hash, at)) this.#unrefined = null
    }
    this.newest = Math.max(this.newest, at)
  }

  /**
   * What a read of a page with `tags` needs, given the purges of the last `window` ms: nothing
   * (null: any replica), a bookmark that covers them all, or the primary when one of them is
   * known without one (read-session.ts).
   */
  readNeed(tags: readonly string[], now: number, window = REPLICATION_WINDOW_MS): ReadNeed {
    const after = now - window
    let newestSeq = 0
    for (const tag of tags) {
      const hash = tagHash(tag)
      const recent = this.#sketch.recentOf(hash)
      const purgedRecently = recent !== undefined && recent.at >= after
      // A purge that left the window early (a burst, a snapshot) has no bookmark.
      if (this.#sketch.sketchedOf(hash) >= after || (purgedRecently && recent.seq === 0))
        return 'primary'
      if (purgedRecently) newestSeq = Math.max(newestSeq, recent.seq)
    }
    if (newestSeq === 0) return null
    const seen = this.#seen.find((s) => s.seq >= newestSeq)
    return seen ? { bookmark: seen.bookmark, seq: seen.seq } : 'primary'
  }

  /**
   * Whether a page with `tags`, read at `since` through a session that saw every row up to
   * `covers` and stood at `reached` once read, may be stored: none of its tags was purged in the
   * window before the read, or each such purge was covered: by the bookmark the session was
   * opened at, or by where it stood, when that is no older than a bookmark that saw them. D1
   * orders bookmarks as strings (its own sessions keep the greater of two), so a replica whose
   * bookmark is at least that one has the changes those purges followed.
   */
  readCovers(
    tags: readonly string[],
    since: number,
    covers: number,
    reached: string | null = null,
  ): boolean {
    const need = this.readNeed(tags, since)
    if (need === null) return true
    if (need === 'primary') return false
    return need.seq <= covers || (reached !== null && reached.localeCompare(need.bookmark) >= 0)
  }

  /** Remembers a session's bookmark once it has seen the rows up to `seq`. */
  #saw(seq: number, bookmark: string | null, now: number): void {
    if (!bookmark || seq === 0) return
    const kept = this.#seen.filter((s) => s.at >= now - RECENT_MS)
    let at = kept.length
    while (at > 0 && (kept[at - 1]?.seq ?? 0) > seq) at--
    kept.splice(at, 0, { seq, bookmark, at: now })
    this.#seen = kept.slice(-MOST_BOOKMARKS)
  }

  /**
   * Reads the purges recorded since the last read (a cold isolate: the newest snapshot and the
   * rows after it), one read at a time, from the primary if asked (else from where the last read
   * stood). A failure is reported and leaves what is known as it was; the next read is then due
   * READ_EVERY_MS later.
   */
  refresh(db: D1Database, report: Report = logProblem, primary = false): Promise<void> {
    this.#loading ??= this.#read(db, primary)
      .catch((error: unknown) => report('cache: purges unreadable', { error: String(error) }))
      .finally(() => {
        this.#due = Date.now() + READ_EVERY_MS
        this.#loading = undefined
      })
    return this.#loading
  }

  /**
   * Starts a read in the background (`waitUntil`) if one is due and none is under way; after it,
   * writes a snapshot if one is due.
   */
  refreshIfDue(db: D1Database, waitUntil: WaitUntil, report: Report = logProblem): void {
    if (this.due && !this.loading)
      waitUntil(this.refresh(db, report).then(() => this.#snapshotIfDue(db, report)))
    if (this.#unrefined && this.#known && !this.#refining) waitUntil(this.refine(db, report))
  }

  /**
   * After a cold read of the folded snapshot: reads the whole one (as new) and sets the cells to
   * it, raised again by every purge recorded since, so pages the folded cells read as purged for
   * nothing are served again. A failure leaves the folded cells (still safe) for the next try.
   */
  refine(db: D1Database, report: Report = logProblem): Promise<void> {
    this.#refining ??= this.#readWhole(db)
      .catch((error: unknown) => report('cache: purge snapshot unread', { error: String(error) }))
      .finally(() => (this.#refining = undefined))
    return this.#refining
  }

  async #readWhole(db: D1Database): Promise<void> {
    if (!this.#unrefined) return
    const session = db.withSession(this.#bookmark ?? 'first-unconstrained')
    const cells = this.#sketch.size.cells
    const [head, parts] = await session.batch<unknown>(
      snapshotReads(session, cells, { folded: false }),
    )
    const top = head?.results[0] as SnapshotHead | undefined
    const whole = decodeSnapshot(top, (parts?.results ?? []) as { cells: string }[], cells)
    const raises = this.#unrefined
    if (!top || !whole || whole.cells.length !== cells || top.seq < this.#foldedSeq || !raises)
      return
    this.#sketch.replace(whole, raises.all(), Date.now())
    this.newest = Math.max(this.newest, whole.unitMax * UNIT_MS)
    this.#unrefined = null
    this.#folded = false
  }

  /** Counts this isolate's own purge, written to D1 as rows up to `seq` by a session at `bookmark`. */
  recordWritten(tags: readonly string[], at: number, seq: number, bookmark: string | null): void {
    this.record(tags, at, bookmark ? seq : 0)
    this.#saw(seq, bookmark, Date.now())
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
    let page = this.#known
      ? await this.#rowsAfter(session, since)
      : await this.#cold(session, since)
    for (;;) {
      for (const row of page) {
        this.record([row.tag], row.at, row.seq)
        this.#seq = Math.max(this.#seq, row.seq)
      }
      if (page.length < PAGE_ROWS) break
      page = await this.#rowsAfter(session, since)
    }
    this.#bookmark = session.getBookmark() ?? this.#bookmark
    this.#saw(this.#seq, this.#bookmark, Date.now())
    if (primary) this.#completeBefore = Math.max(this.#completeBefore, began)
    this.#known = true
    this.#readAt = Math.max(this.#readAt, began)
  }

  /** The rows after the newest seen, with the newest snapshot's head (to know when one is due). */
  async #rowsAfter(session: D1DatabaseSession, since: number): Promise<PurgeRow[]> {
    const [rows, head] = await session.batch<unknown>([
      session.prepare(ROWS_AFTER_SQL).bind(this.#seq, since, PAGE_ROWS),
      session.prepare(NEWEST_HEAD_SQL),
    ])
    this.#sawSnapshot(head?.results[0] as SnapshotHead | undefined)
    return (rows?.results ?? []) as PurgeRow[]
  }

  /** A cold isolate's read: the newest snapshot and the rows after it, in one round trip. */
  async #cold(session: D1DatabaseSession, since: number): Promise<PurgeRow[]> {
    const cells = this.#sketch.size.cells
    const [head, parts, rows] = await session.batch<unknown>([
      ...snapshotReads(session, cells, { folded: true }),
      session
        .prepare(
          `SELECT seq, at, tag FROM purges WHERE seq > ${SNAPSHOT_SEQ(cells)} AND at >= ? ORDER BY seq LIMIT ?`,
        )
        .bind(since, PAGE_ROWS),
    ])
    const top = head?.results[0] as SnapshotHead | undefined
    const sketch = decodeSnapshot(top, (parts?.results ?? []) as { cells: string }[], cells)
    if (top && sketch) {
      if (sketch.cells.length !== cells) {
        this.#unrefined = new Raises(MOST_UNREFINED)
        this.#foldedSeq = top.seq
        this.#folded = true
      }
      this.#sketch.load(sketch, Date.now())
      this.#seq = Math.max(this.#seq, top.seq)
      this.newest = Math.max(this.newest, sketch.unitMax * UNIT_MS)
    }
    this.#sawSnapshot(top)
    return (rows?.results ?? []) as PurgeRow[]
  }

  #sawSnapshot(head: SnapshotHead | undefined): void {
    if (head && head.made_at >= this.#snapshot.madeAt)
      this.#snapshot = { seq: head.seq, madeAt: head.made_at }
  }

  /**
   * Writes a snapshot of this isolate's knowledge when the newest one is SNAPSHOT_EVERY_MS old
   * and SNAPSHOT_AFTER_ROWS rows behind; every isolate sees it due at once, so each claims it
   * only one time in SNAPSHOT_CHANCE, and the claim lets one through (purge-snapshot.ts).
   */
  async #snapshotIfDue(db: D1Database, report: Report): Promise<void> {
    const now = Date.now()
    const due =
      this.#seq - this.#snapshot.seq >= SNAPSHOT_AFTER_ROWS &&
      now - this.#snapshot.madeAt >= SNAPSHOT_EVERY_MS &&
      Math.random() * SNAPSHOT_CHANCE < 1
    if (due) await this.writeSnapshot(db, report, now)
  }

  /**
   * Writes a snapshot of what this isolate knows unless another was claimed lately; whether it
   * wrote one.
   */
  async writeSnapshot(db: D1Database, report: Report = logProblem, now = Date.now()) {
    // Folded cells read too new: a snapshot of them would pass that on to every cold isolate.
    if (this.#folded) return false
    const seq = this.#seq
    try {
      const cells = this.#sketch.size.cells
      const wrote = await writeSnapshot(db, () => this.#sketch.encode(now), { seq, now, cells })
      if (wrote) this.#snapshot = { seq, madeAt: now }
      return wrote
    } catch (error) {
      report('cache: purge snapshot not written', { error: String(error) })
      return false
    }
  }
}

/**
 * Purges recorded over folded cells past which the whole snapshot is no longer awaited: about two
 * minutes of the stream, in 768 KB held only until it is read.
 */
const MOST_UNREFINED = 1 << 16

/** Tags' hashes and purge times in fixed arrays. */
class Raises {
  readonly #hashes: Uint32Array
  readonly #ats: Float64Array
  #count = 0
  constructor(size: number) {
    this.#hashes = new Uint32Array(size)
    this.#ats = new Float64Array(size)
  }

  /** Adds one; false when full. */
  add(hash: number, at: number): boolean {
    if (this.#count === this.#hashes.length) return false
    this.#hashes[this.#count] = hash
    this.#ats[this.#count++] = at
    return true
  }

  *all(): Generator<{ hash: number; at: number }> {
    for (let i = 0; i < this.#count; i++)
      yield { hash: this.#hashes[i] ?? 0, at: this.#ats[i] ?? 0 }
  }
}

/** One in how many isolates that find a snapshot due try to claim it, per read. */
const SNAPSHOT_CHANCE = 8

const ROWS_AFTER_SQL =
  'SELECT seq, at, tag FROM purges WHERE seq > ? AND at >= ? ORDER BY seq LIMIT ?'

/**
 * Whether the purges are current for this request (read within REFRESH_MS). In a busy isolate
 * they are, and the answer is at once, a due read running in the background (`waitUntil`): a hit
 * never waits for one. A cold isolate, or one idle past REFRESH_MS, starts a read and waits for
 * it at most PURGE_STATE_DEADLINE_MS.
 */
export async function purgesKnown(
  known: KnownPurges,
  db: D1Database,
  waitUntil: WaitUntil,
  report: Report = logProblem,
): Promise<boolean> {
  if (known.current) {
    known.refreshIfDue(db, waitUntil, report)
    return true
  }
  // A failed read is tried again READ_EVERY_MS later, not by every request meanwhile.
  if (!known.loading && !known.due) return false
  const loading = known.refresh(db, report)
  waitUntil(loading)
  return (await settlesWithin(loading, PURGE_STATE_DEADLINE_MS)) && known.current
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

/**
 * Records a purge of `tags` at `at` in D1, then in this isolate's memory at once, with the
 * bookmark of its write: this isolate's next read of a page with those tags waits for a replica
 * that has it (src/request/read-session.ts).
 */
export async function recordPurge(
  known: KnownPurges,
  db: D1Database,
  tags: readonly string[],
  at: number,
): Promise<void> {
  const session = db.withSession('first-primary')
  const { meta } = await session
    .prepare('INSERT INTO purges (at, tag) SELECT ?, value FROM json_each(?)')
    .bind(at, JSON.stringify(tags))
    .run()
  known.recordWritten(tags, at, meta.last_row_id, session.getBookmark())
}

/** Deletes the purge rows no stored page can be older than (the cron). */
export async function forgetOldPurges(db: D1Database, now: number): Promise<number> {
  const { meta } = await db
    .prepare('DELETE FROM purges WHERE at < ?')
    .bind(now - PURGE_KEEP_MS)
    .run()
  return meta.changes
}
