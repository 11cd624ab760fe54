import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PURGE_KEEP_MS } from '../../src/cache/generations'
import type { SketchSize } from '../../src/cache/purge-sketch'
import type { EncodedSketch } from '../../src/cache/purge-sketch'
import { foldCells, PurgeSketch, RECENT_MS, tagHash, UNIT_MS } from '../../src/cache/purge-sketch'

// The purge knowledge of src/cache/purge-sketch.ts against an exact model: whatever purges, reads,
// snapshots (a cold isolate loading one, whole or folded, then the rows after it, and the whole
// one over the folded one later, raised again by what it recorded meanwhile) and clock moves, a page stored
// before the newest purge of one of its tags never reads as servable. Tiny sizes, so tags share
// cells and the window overflows all the time.

const TINY: SketchSize = { cells: 64, hashes: 3, recent: 4 }
const TAGS = Array.from({ length: 24 }, (_, i) => `provider:${i}`)
const DAY = 86_400_000

type Step =
  | { kind: 'purge'; tags: number[] }
  | { kind: 'store'; tags: number[] }
  | { kind: 'wait'; ms: number }
  | { kind: 'cold'; folded: boolean }
  | { kind: 'refine' }

const tagSet = fc.uniqueArray(fc.nat({ max: TAGS.length - 1 }), { minLength: 1, maxLength: 4 })
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('purge' as const), tags: tagSet }),
  fc.record({ kind: fc.constant('store' as const), tags: tagSet }),
  fc.record({
    kind: fc.constant('wait' as const),
    // From a millisecond to beyond the window, a unit, and (rarely) days: the base moves.
    ms: fc.oneof(
      fc.integer({ min: 1, max: 2_000 }),
      fc.integer({ min: 1, max: RECENT_MS + UNIT_MS }),
      fc.integer({ min: 1, max: 20 * DAY }),
    ),
  }),
  fc.record({ kind: fc.constant('cold' as const), folded: fc.boolean() }),
  fc.constant({ kind: 'refine' as const }),
)

describe('the purge sketch', () => {
  it('never makes a purged page servable, whatever purges, reads and snapshots', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), (steps) => {
        let now = Date.UTC(2026, 0, 1)
        let sketch = new PurgeSketch(now, TINY)
        // The exact model: every purge of each tag, and the rows since the last snapshot.
        const purged: { tag: number; at: number }[] = []
        let rowsAfterSnapshot: { tag: number; at: number }[] = []
        const pages: { tags: number[]; storedAt: number }[] = []
        // After a folded load: the whole snapshot, and what was recorded since.
        let whole: { snapshot: EncodedSketch; raises: { hash: number; at: number }[] } | null = null
        for (const s of steps) {
          if (s.kind === 'wait') now += s.ms
          if (s.kind === 'purge')
            for (const tag of s.tags) {
              const hash = tagHash(TAGS[tag] ?? '')
              sketch.record(hash, now, 1, now)
              whole?.raises.push({ hash, at: now })
              purged.push({ tag, at: now })
              rowsAfterSnapshot.push({ tag, at: now })
            }
          if (s.kind === 'store') pages.push({ tags: s.tags, storedAt: now })
          if (s.kind === 'cold') {
            // Another isolate writes a snapshot now; a cold one loads it and reads no rows after.
            const snapshot = sketch.encode(now)
            const cold = new PurgeSketch(now, TINY)
            cold.load(
              s.folded ? { ...snapshot, cells: foldCells(snapshot.cells, 4) } : snapshot,
              now,
            )
            whole = s.folded ? { snapshot, raises: [] } : null
            sketch = cold
            rowsAfterSnapshot = []
          }
          if (s.kind === 'refine' && whole) {
            sketch.replace(whole.snapshot, whole.raises, now)
            whole = null
          }
          for (const page of pages) {
            // Pages older than any kept purge are gone from the cache: nothing to check.
            if (page.storedAt < now - PURGE_KEEP_MS) continue
            const newestTruth = Math.max(
              0,
              ...purged.filter((p) => page.tags.includes(p.tag)).map((p) => p.at),
            )
            const known = Math.max(...page.tags.map((t) => sketch.newestOf(tagHash(TAGS[t] ?? ''))))
            if (newestTruth >= page.storedAt) expect(known).toBeGreaterThanOrEqual(page.storedAt)
          }
        }
      }),
      { numRuns: 300 },
    )
  })

  it('keeps, over the whole snapshot read after a folded one, what it recorded meanwhile', () => {
    const size: SketchSize = { cells: 1 << 12, hashes: 4, recent: 8 }
    let now = Date.UTC(2026, 0, 1)
    const writer = new PurgeSketch(now, size)
    for (let i = 0; i < 40; i++) writer.record(tagHash(`provider:old${i}`), now - DAY, i, now)
    const snapshot = writer.encode(now)
    const cold = new PurgeSketch(now, size)
    cold.load({ ...snapshot, cells: foldCells(snapshot.cells, 4) }, now)
    const stored = now
    now += 1_000
    const purged = tagHash('provider:purged-meanwhile')
    cold.record(purged, now, 41, now)
    // Past the window: the purge is in the cells alone, which the whole snapshot replaces.
    now += RECENT_MS + UNIT_MS
    cold.record(tagHash('provider:later'), now, 42, now)
    expect(cold.recentOf(purged)).toBeUndefined()
    cold.replace(snapshot, [{ hash: purged, at: stored + 1_000 }], now)
    expect(cold.newestOf(purged)).toBeGreaterThanOrEqual(stored + 1_000)
    // The whole snapshot's cells: a tag never purged reads as such again.
    expect(cold.newestOf(tagHash('provider:never'))).toBe(0)
  })

  it('is exact within the window, and rounds up by at most a unit after it', () => {
    const now = Date.UTC(2026, 0, 1, 12)
    const sketch = new PurgeSketch(now)
    const hash = tagHash('url:/babysitters/atlanta-ga')
    sketch.record(hash, now - 1_234, 5, now)
    expect(sketch.newestOf(hash)).toBe(now - 1_234)
    expect(sketch.recentOf(hash)).toEqual({ at: now - 1_234, seq: 5 })
    // Another purge past the window moves this one into the cells, rounded up to its minute.
    const later = now + RECENT_MS + 1
    sketch.record(tagHash('provider:1'), later, 6, later)
    expect(sketch.recentOf(hash)).toBeUndefined()
    expect(sketch.newestOf(hash)).toBeGreaterThanOrEqual(now - 1_234)
    expect(sketch.newestOf(hash)).toBeLessThan(now - 1_234 + UNIT_MS)
    // A tag never purged reads 0 (no other tag shares all its cells in a near-empty sketch).
    expect(sketch.newestOf(tagHash('provider:2'))).toBe(0)
  })

  it('holds the same memory however many purges it counts', () => {
    const now = Date.UTC(2026, 0, 1)
    const sketch = new PurgeSketch(now)
    const before = sketch.bytes
    for (let i = 0; i < 200_000; i++) sketch.record(tagHash(`provider:${i}`), now + i, i, now + i)
    expect(sketch.bytes).toBe(before)
    expect(before).toBeLessThanOrEqual(16 * 1024 * 1024)
  })
})
