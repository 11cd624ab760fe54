import type { EncodedSketch } from './purge-sketch'
import { foldCells } from './purge-sketch'

/**
 * The purge sketch's snapshot in D1 (migrations/control/0001_control.sql): what a cold isolate
 * reads in one piece, in the same batch (one round trip, one replica's state) as the purge rows
 * after it, so no purge falls between the two. In D1 rather than KV: KV is eventually consistent
 * (a minute or more), so the rows after an older snapshot would be many more; in D1 the snapshot
 * and the rows agree by `seq`. Written by whichever isolate claims it first, at most every
 * SNAPSHOT_EVERY_MS and only once SNAPSHOT_AFTER_ROWS rows have been appended since the last one
 * (docs/caching.md, "Bounded purge knowledge").
 *
 * Beside the cells a snapshot keeps them folded FOLD times (part -1): a cold isolate reads that
 * first, a quarter of the bytes, and the whole parts in the background (src/cache/generations.ts).
 */

export const SNAPSHOT_EVERY_MS = 10_000
export const SNAPSHOT_AFTER_ROWS = 5_000
/** How many times the part a cold isolate reads first is folded (src/cache/purge-sketch.ts). */
export const FOLD = 4
/** The part that holds the folded cells. */
const FOLDED_PART = -1

/** Characters of base64 per part: under D1's 2 MB limit on a row. */
const PART_CHARS = 1_900_000

/** The newest complete snapshot of `cells` cells: one statement of the cold read's batch. */
const NEWEST = (cells: number) =>
  `SELECT id FROM purge_snapshots WHERE complete = 1 AND cells = ${cells} ORDER BY id DESC LIMIT 1`

export interface SnapshotHead {
  id: number
  seq: number
  made_at: number
  unit_now: number
  unit_max: number
}

/**
 * The statements reading the newest snapshot: its head and its parts, in order: with `folded`
 * only its folded part (or, a snapshot written without one, its whole parts).
 */
export function snapshotReads(
  session: D1DatabaseSession,
  cells: number,
  { folded }: { folded: boolean },
): D1PreparedStatement[] {
  const parts = `FROM purge_snapshot_parts WHERE snapshot = (${NEWEST(cells)})`
  const which = folded
    ? `AND (part = ${FOLDED_PART} OR NOT EXISTS (SELECT 1 ${parts} AND part = ${FOLDED_PART}))`
    : 'AND part >= 0'
  return [
    session.prepare(
      `SELECT id, seq, made_at, unit_now, unit_max FROM purge_snapshots WHERE id = (${NEWEST(cells)})`,
    ),
    session.prepare(`SELECT cells ${parts} ${which} ORDER BY part`),
  ]
}

/** SQL: the seq the rows after the newest snapshot start from (0 without one). */
export const SNAPSHOT_SEQ = (cells: number) =>
  `coalesce((SELECT seq FROM purge_snapshots WHERE id = (${NEWEST(cells)})), 0)`

/** The newest snapshot's head (any size): where a warm isolate learns when one is due. */
export const NEWEST_HEAD_SQL =
  'SELECT id, seq, made_at, unit_now, unit_max FROM purge_snapshots WHERE complete = 1 ORDER BY id DESC LIMIT 1'

/**
 * The sketch a snapshot's head and parts hold (its `size` cells, or folded FOLD times), or null
 * when it has none or is damaged.
 */
export function decodeSnapshot(
  head: SnapshotHead | undefined,
  parts: readonly { cells: string }[],
  size: number,
): EncodedSketch | null {
  if (!head || parts.length === 0) return null
  const cells = fromBase64(parts.map((p) => p.cells).join(''))
  if (cells.length !== size && cells.length !== size / FOLD) return null
  return { cells, unitNow: head.unit_now, unitMax: head.unit_max }
}

/**
 * Writes `sketch` as the snapshot of every purge row up to `seq`, if no snapshot was claimed in
 * the last SNAPSHOT_EVERY_MS: a small conditional write first (the claim), then the parts and
 * the completion in one batch, which also deletes the older ones. Whether it wrote one.
 */
export async function writeSnapshot(
  db: D1Database,
  encode: () => EncodedSketch,
  { seq, now, cells }: { seq: number; now: number; cells: number },
): Promise<boolean> {
  const claim = await db
    .prepare(
      `INSERT INTO purge_snapshots (seq, made_at, unit_now, unit_max, cells)
       SELECT ?1, ?2, 0, 0, ?3 WHERE NOT EXISTS (SELECT 1 FROM purge_snapshots WHERE made_at > ?4)`,
    )
    .bind(seq, now, cells, now - SNAPSHOT_EVERY_MS)
    .run()
  if (claim.meta.changes !== 1) return false
  const id = claim.meta.last_row_id
  const sketch = encode()
  const text = toBase64(sketch.cells)
  const insert = 'INSERT INTO purge_snapshot_parts (snapshot, part, cells) VALUES (?, ?, ?)'
  const parts = [db.prepare(insert).bind(id, FOLDED_PART, toBase64(foldCells(sketch.cells, FOLD)))]
  for (let at = 0, part = 0; at < text.length; at += PART_CHARS, part++)
    parts.push(db.prepare(insert).bind(id, part, text.slice(at, at + PART_CHARS)))
  await db.batch([
    ...parts,
    db
      .prepare('UPDATE purge_snapshots SET unit_now = ?, unit_max = ?, complete = 1 WHERE id = ?')
      .bind(sketch.unitNow, sketch.unitMax, id),
    db.prepare('DELETE FROM purge_snapshot_parts WHERE snapshot < ?').bind(id),
    db.prepare('DELETE FROM purge_snapshots WHERE id < ?').bind(id),
  ])
  return true
}

interface Base64Bytes {
  fromBase64?: (text: string) => Uint8Array
}

/** Bytes from base64, with the runtime's own decoder where it has one. */
export function fromBase64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as Base64Bytes).fromBase64
  if (native) return native(text)
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Base64 of `bytes`, with the runtime's own encoder where it has one. */
export function toBase64(bytes: Uint8Array): string {
  const native = (bytes as unknown as { toBase64?: () => string }).toBase64
  if (native) return native.call(bytes)
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
