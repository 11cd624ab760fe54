// The progress line's ETA: from the rate of the recent work, not the average since the start,
// none until that rate can be told; and the seed's estimate of its total from the first cities.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Sample } from '../../scripts/progress'
import { MIN_WINDOW_MS, recentRate, secondsLeft, WINDOW_MS } from '../../scripts/progress'
import { generateInThread } from '../../scripts/seed/generate-thread'

/** Feeds `points` ([ms, done]) through `recentRate`, returning the last result. */
function feed(points: [number, number][]) {
  let samples: Sample[] = []
  let rate: number | null = null
  for (const [at, done] of points) ({ samples, rate } = recentRate(samples, { at, done }))
  return { samples, rate }
}

describe('recentRate', () => {
  it('has no rate until the samples span the minimum window', () => {
    expect(feed([[0, 0]]).rate).toBeNull()
    expect(
      feed([
        [0, 0],
        [MIN_WINDOW_MS - 1, 5_000],
      ]).rate,
    ).toBeNull()
    expect(
      feed([
        [0, 0],
        [MIN_WINDOW_MS, 5_000],
      ]).rate,
    ).toBe(1_000)
  })

  it('follows the recent work, not the average since the start', () => {
    // A slow start (100/s for a minute, as while a seed starts up), then 1,000/s for 30 s.
    const points: [number, number][] = []
    for (let s = 0; s <= 60; s++) points.push([s * 1000, s * 100])
    for (let s = 1; s <= 30; s++) points.push([(60 + s) * 1000, 6_000 + s * 1000])
    const { samples, rate } = feed(points)
    expect(rate).toBe(1_000)
    // The average since the start would be 36,000 / 90 s = 400/s.
    expect(samples[0]?.at).toBe(90_000 - WINDOW_MS)
  })
})

describe('secondsLeft', () => {
  it('is what remains at the rate', () => {
    expect(secondsLeft(40_000, 100_000, 1_000)).toBe(60)
  })

  it('is not told without a rate or a total, or once done', () => {
    expect(secondsLeft(40_000, 100_000, null)).toBeNull()
    expect(secondsLeft(40_000, undefined, 1_000)).toBeNull()
    expect(secondsLeft(40_000, 100_000, 0)).toBeNull()
    expect(secondsLeft(100_000, 100_000, 1_000)).toBeNull()
  })
})

it("estimates the seed's total from its first cities within a tenth", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'care-progress-'))
  try {
    const options = { cities: 60, scale: 0.3, seed: 1, now: '2026-11-01T00:00:00Z' }
    const catalog = generateInThread({ ...options, file: join(dir, 'catalog.ndjson') })
    const estimates: number[] = []
    let read = 0
    for await (const { line } of catalog.lines) {
      read = line
      if (read % 2_000 === 0) estimates.push(catalog.total(read))
    }
    expect(estimates.length).toBeGreaterThan(3)
    // The first estimate comes after the first city alone: a seed city, the largest of all.
    for (const estimate of estimates) expect(Math.abs(estimate / read - 1)).toBeLessThan(0.1)
    expect(catalog.total(read)).toBe(read)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
