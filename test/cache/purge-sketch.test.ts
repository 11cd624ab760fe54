import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PURGE_KEEP_MS } from '../../src/cache/generations'
import type { SketchSize } from '../../src/cache/purge-sketch'
import { PurgeSketch, RECENT_MS, tagHash, UNIT_MS } from '../../src/cache/purge-sketch'

// The purge knowledge of src/cache/purge-sketch.ts against an exact model: whatever purges, reads,
// snapshots (a cold isolate loading one, then the rows after it) and clock moves, a page stored
// before the newest purge of one of its tags never reads as servable. Tiny sizes, so tags share
// cells and the window overflows all the time.

const TINY: SketchSize = { cells: 64, hashes: 3, recent: 4 }
const TAGS = Array.from({ length: 24 }, (_, i) => `provider:${i}`)
const DAY = 86_400_000

type Step =
  | { kind: 'purge'; tags: number[] }
  | { kind: 'store'; tags: number[] }
  | { kind: 'wait'; ms: number }
  | { kind: 'cold' }

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
  fc.constant({ kind: 'cold' as const }),
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
        for (const s of steps) {
          if (s.kind === 'wait') now += s.ms
          if (s.kind === 'purge')
            for (const tag of s.tags) {
              sketch.record(tagHash(TAGS[tag] ?? ''), now, 1, now)
              purged.push({ tag, at: now })
              rowsAfterSnapshot.push({ tag, at: now })
            }
          if (s.kind === 'store') pages.push({ tags: s.tags, storedAt: now })
          if (s.kind === 'cold') {
            // Another isolate writes a snapshot now; a cold one loads it and reads no rows after.
            const cold = new PurgeSketch(now, TINY)
            cold.load(sketch.encode(now), now)
            sketch = cold
            rowsAfterSnapshot = []
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
