/**
 * An isolate's purge knowledge in a fixed amount of memory, whatever the purge rate
 * (docs/caching.md, "Bounded purge knowledge"): the newest purge time of each tag, as
 *
 * - a **recent window**: the purges of the last RECENT_MS, exact to the millisecond, each with
 *   the `seq` of its row (which D1 session saw it: src/request/read-session.ts), in a ring of a
 *   fixed number of entries;
 * - a **max-sketch** of everything older: a fixed array of cells, each tag hashed to `hashes` of
 *   them; a purge raises each of its cells to its time (in whole UNIT_MS, rounded up), and a tag
 *   reads as the lowest of its cells. A cell only ever rises, so a tag never reads older than its
 *   newest purge: another tag sharing all its cells can only make it read newer (a page rendered
 *   again for nothing), never older (a purged page served).
 *
 * A purge leaves the window when it is RECENT_MS old, or earlier when the ring is full (a burst):
 * it then reads rounded up, which is safe too.
 */

export interface SketchSize {
  /** Cells of the max-sketch: a power of two. */
  cells: number
  /** Cells per tag. */
  hashes: number
  /** Entries of the recent window's ring. */
  recent: number
}

/** 8 MiB of cells and about 2 MB of window: the bench measures the whole (docs/performance.md). */
export const SKETCH_SIZE: SketchSize = { cells: 1 << 22, hashes: 6, recent: 1 << 16 }

/** The sketch's unit of time: a purge older than the window reads as the end of its minute. */
export const UNIT_MS = 60_000
/** How long a purge is kept exact; longer than the replication window (read-session.ts). */
export const RECENT_MS = 120_000

/** A cell holds 1 + units since `base` in 16 bits (0: no purge): about 45 days of range. */
const MAX_CELL = 0xffff

/** FNV-1a over the tag's UTF-16 units: a tag's 32-bit hash, the same in every isolate. */
export function tagHash(tag: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < tag.length; i++) h = Math.imul(h ^ tag.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** A second, independent hash from the first (murmur3's finaliser), odd so it steps every cell. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return ((h ^ (h >>> 16)) | 1) >>> 0
}

/** A snapshot of the sketch as a cold isolate loads it (src/cache/purge-snapshot.ts). */
export interface EncodedSketch {
  /** One byte per cell: how long before `unitNow` its newest purge was (`ageOfByte`). */
  cells: Uint8Array
  /** The unit (UNIT_MS since the epoch) the ages count back from. */
  unitNow: number
  /** The newest unit of any cell: what a cell of age 0 or less reads as. */
  unitMax: number
}

// A snapshot stores each cell's age in one byte, in classes that grow by a fixed ratio up to
// HORIZON_UNITS, so an age reads at most about 4 % younger than it is (a page rendered again for
// nothing, never served purged): 255 is age 0 or less, 254…1 are classes 0…253, 0 is no purge.
const HORIZON_UNITS = 13_000
const RATIO = Math.pow(HORIZON_UNITS, 1 / 253)
const CLASS_FLOOR = Array.from({ length: 254 }, (_, k) => Math.floor(Math.pow(RATIO, k)))

function byteOfAge(age: number): number {
  if (age <= 0) return 255
  if (age > HORIZON_UNITS) return 0
  let k = Math.min(253, Math.floor(Math.log(age) / Math.log(RATIO)))
  while (k > 0 && (CLASS_FLOOR[k] ?? 0) > age) k--
  return 254 - k
}

/** The youngest age a byte stands for (never younger than the truth: `byteOfAge`). */
function ageOfByte(byte: number): number {
  return CLASS_FLOOR[254 - byte] ?? 0
}

export class PurgeSketch {
  readonly size: SketchSize
  readonly #cells: Uint16Array
  /** A cell's value v > 0 stands for unit `base + v`. */
  #base: number
  readonly #hash: Uint32Array
  readonly #at: Float64Array
  readonly #seq: Float64Array
  /** The ring's oldest entry and how many it holds. */
  #head = 0
  #count = 0
  /** The newest ring slot of each hash (its top 30 bits: a small integer key). */
  readonly #slots = new Map<number, number>()

  constructor(now: number, size: SketchSize = SKETCH_SIZE) {
    this.size = size
    this.#cells = new Uint16Array(size.cells)
    this.#base = PurgeSketch.#baseAt(now)
    this.#hash = new Uint32Array(size.recent)
    this.#at = new Float64Array(size.recent)
    this.#seq = new Float64Array(size.recent)
  }

  /** Bytes of typed arrays held: fixed at construction (the window's map adds about 2 MB). */
  get bytes(): number {
    return this.#cells.byteLength + this.#hash.byteLength + this.#at.byteLength * 2
  }

  /** Counts the purge of a tag (its hash) at `at`, from a row `seq` (0: not yet in a row read). */
  record(hash: number, at: number, seq: number, now: number): void {
    this.#leaveWindow(now)
    if (this.#count === this.size.recent) this.#fold(now)
    const slot = (this.#head + this.#count) % this.size.recent
    this.#hash[slot] = hash
    this.#at[slot] = at
    this.#seq[slot] = seq
    this.#count++
    const key = hash >>> 2
    const before = this.#slots.get(key)
    // Two tags on one key share its newest entry: each then reads at least as new as it is.
    if (before === undefined || (this.#at[before] ?? 0) <= at) this.#slots.set(key, slot)
  }

  /** The newest purge of the tag (its hash), or 0: never older than the truth. */
  newestOf(hash: number): number {
    return Math.max(this.recentOf(hash)?.at ?? 0, this.sketchedOf(hash))
  }

  /** The tag's newest purge in the recent window, with its row's seq; undefined if none. */
  recentOf(hash: number): { at: number; seq: number } | undefined {
    const slot = this.#slots.get(hash >>> 2)
    if (slot === undefined) return undefined
    return { at: this.#at[slot] ?? 0, seq: this.#seq[slot] ?? 0 }
  }

  /** Moves the purges older than RECENT_MS out of the window, into the cells. */
  #leaveWindow(now: number): void {
    while (this.#count > 0 && (this.#at[this.#head] ?? 0) < now - RECENT_MS) this.#fold(now)
  }

  /** The ring's oldest entry, into the cells. */
  #fold(now: number): void {
    const slot = this.#head
    const hash = this.#hash[slot] ?? 0
    this.#raise(hash, this.#unitOf(this.#at[slot] ?? 0), now)
    if (this.#slots.get(hash >>> 2) === slot) this.#slots.delete(hash >>> 2)
    this.#head = (slot + 1) % this.size.recent
    this.#count--
  }

  #unitOf(at: number): number {
    return Math.ceil(at / UNIT_MS)
  }

  #raise(hash: number, unit: number, now: number): void {
    if (unit - this.#base > MAX_CELL) this.#rebase(now)
    const value = Math.min(MAX_CELL, unit - this.#base)
    if (value <= 0) return
    const step = mix(hash)
    const mask = this.size.cells - 1
    for (let i = 0; i < this.size.hashes; i++) {
      const cell = (hash + Math.imul(i, step)) & mask
      if ((this.#cells[cell] ?? 0) < value) this.#cells[cell] = value
    }
  }

  /** The tag's newest purge as the cells hold it (all but the recent window), or 0. */
  sketchedOf(hash: number): number {
    const step = mix(hash)
    const mask = this.size.cells - 1
    let lowest = MAX_CELL
    for (let i = 0; i < this.size.hashes && lowest > 0; i++)
      lowest = Math.min(lowest, this.#cells[(hash + Math.imul(i, step)) & mask] ?? 0)
    return lowest === 0 ? 0 : (this.#base + lowest) * UNIT_MS
  }

  /** The base for `now`: the horizon (no page is older) lies past it, the future far ahead. */
  static #baseAt(now: number): number {
    return Math.floor(now / UNIT_MS) - HORIZON_UNITS - 1
  }

  /**
   * Moves the base up to `now`'s, about once a month: cells past the horizon concern no page, so
   * they are emptied. A time further ahead than the range (a clock gone wrong) is then held as the
   * range's end, still newer than any page.
   */
  #rebase(now: number): void {
    const base = Math.max(this.#base, PurgeSketch.#baseAt(now))
    const shift = base - this.#base
    for (let i = 0; i < this.#cells.length; i++) {
      const v = this.#cells[i] ?? 0
      this.#cells[i] = v > shift ? v - shift : 0
    }
    this.#base = base
  }

  /** The sketch with the window folded in (nothing changed here), one byte a cell. */
  encode(now: number): EncodedSketch {
    const unitNow = this.#unitOf(now)
    let unitMax = 0
    const cells = new Uint8Array(this.size.cells)
    for (let i = 0; i < cells.length; i++) {
      const v = this.#cells[i] ?? 0
      if (v === 0) continue
      unitMax = Math.max(unitMax, this.#base + v)
      cells[i] = byteOfAge(unitNow - (this.#base + v))
    }
    const mask = this.size.cells - 1
    for (let n = 0; n < this.#count; n++) {
      const slot = (this.#head + n) % this.size.recent
      const hash = this.#hash[slot] ?? 0
      const unit = this.#unitOf(this.#at[slot] ?? 0)
      unitMax = Math.max(unitMax, unit)
      const byte = byteOfAge(unitNow - unit)
      const step = mix(hash)
      for (let i = 0; i < this.size.hashes; i++) {
        const cell = (hash + Math.imul(i, step)) & mask
        if ((cells[cell] ?? 0) < byte) cells[cell] = byte
      }
    }
    return { cells, unitNow, unitMax }
  }

  /**
   * Raises the cells to a snapshot's: each reads at least as new as it. The snapshot has this
   * sketch's cells, or is folded (`foldCells`): its cell `i` then stands for every cell whose
   * index ends in `i`'s bits, read as new as the newest of them.
   */
  load(snapshot: EncodedSketch, now: number): void {
    const mask = this.#maskOf(snapshot)
    const valueOf = this.#valuesOf(snapshot, now)
    const mine = this.#cells
    const { cells } = snapshot
    for (let i = 0; i < mine.length; i++) {
      const value = valueOf[cells[i & mask] ?? 0] ?? 0
      if (value > (mine[i] ?? 0)) mine[i] = value
    }
  }

  /**
   * Sets the cells to a whole snapshot's, then raises them again by `raises` (hash, time): every
   * purge known beyond the snapshot. What a folded snapshot loaded first read too new is then
   * read as the whole one says, and nothing known since is lost.
   */
  replace(
    snapshot: EncodedSketch,
    raises: Iterable<{ hash: number; at: number }>,
    now: number,
  ): void {
    if (snapshot.cells.length !== this.size.cells) throw new Error('purge snapshot: another size')
    const valueOf = this.#valuesOf(snapshot, now)
    const mine = this.#cells
    const { cells } = snapshot
    for (let i = 0; i < mine.length; i++) mine[i] = valueOf[cells[i] ?? 0] ?? 0
    // A purge whose tag's window entry is at least as new is raised when that leaves, as any.
    for (const { hash, at } of raises)
      if (!this.#heldFor(hash, at)) this.#raise(hash, this.#unitOf(at), now)
  }

  /** Whether the window's newest entry of the key is this very tag's, purged at `at` or later. */
  #heldFor(hash: number, at: number): boolean {
    const slot = this.#slots.get(hash >>> 2)
    return slot !== undefined && this.#hash[slot] === hash && (this.#at[slot] ?? 0) >= at
  }

  #maskOf({ cells }: EncodedSketch): number {
    const fold = this.size.cells / cells.length
    if (!Number.isInteger(fold) || (fold & (fold - 1)) !== 0)
      throw new Error('purge snapshot: another size')
    return cells.length - 1
  }

  /** Each byte's cell value, worked out once: a cold isolate raises 4 million cells from it. */
  #valuesOf({ unitNow, unitMax }: EncodedSketch, now: number): Uint16Array {
    if (unitMax - this.#base > MAX_CELL) this.#rebase(now)
    const valueOf = new Uint16Array(256)
    for (let byte = 1; byte < 256; byte++) {
      const unit = byte === 255 ? unitMax : unitNow - ageOfByte(byte)
      valueOf[byte] = Math.max(0, Math.min(MAX_CELL, unit - this.#base))
    }
    return valueOf
  }
}

/**
 * The cells folded `fold` times (a power of two): cell `i` the newest of every cell whose index
 * ends in `i`'s bits. A tag hashed to the folded cells reads at least as new as in the whole
 * (more pages rendered again for nothing, never one served purged), from a snapshot `fold` times
 * smaller: what a cold isolate reads first.
 */
export function foldCells(cells: Uint8Array, fold: number): Uint8Array {
  const folded = cells.slice(0, cells.length / fold)
  for (let at = folded.length; at < cells.length; at += folded.length)
    for (let i = 0; i < folded.length; i++) {
      const byte = cells[at + i] ?? 0
      if (byte > (folded[i] ?? 0)) folded[i] = byte
    }
  return folded
}
