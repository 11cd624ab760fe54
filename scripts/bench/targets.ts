// The speed targets (docs/performance.md), against one run's rows.
import type { Row } from './bench-catalog'
import { label } from './bench-catalog'
import type { PageName } from '../../src/pages'
import type { Measured } from './measure-route'

/** Another framework's comparable page, measured in the same run. */
export interface Peer {
  name: string
  path: string
  bytes: number
  measured: Measured
}

export interface Target {
  target: string
  measured: string
  met: boolean
  /** The request (or a tail's requests) whose CPU profile shows what a missed target is made of. */
  profile?: { path: string; hit: boolean; tail?: readonly string[] }
}

/** Where each remaining gap's profile is read and what was tried against it is listed. */
export const TRIED = 'docs/performance.md#the-remaining-gaps-and-what-was-tried'

/** CPU per request of a miss, in ms, at most: the pages most requests that render are. */
const MISS_CPU: Partial<Record<PageName, number>> = {
  directory: 1.5,
  profile: 1.2,
  job: 1.2,
  costNational: 1.2,
  costCity: 1.2,
}
/** Throughput as a share of the row's reference, at least. */
const SHARE: { route: Row['route']; cache: Row['cache']; least: number }[] = [
  { route: 'directory', cache: 'hit', least: 0.8 },
  { route: 'gate 404', cache: null, least: 0.9 },
]
/** A directory miss's throughput as a multiple of the peer framework's (`--peers`), at least. */
const PEER_SHARE = 3
/** The large catalog's p50 as a multiple of the default's, at most. */
const SCALE = 1.2
/**
 * autocannon's latencies come in whole milliseconds: a p50 one step above the default's (0 → 1,
 * 2 → 3 ms) is within what it can tell apart, whatever the ratio says.
 */
const P50_STEP_MS = 1

/** `peer`: the other framework's row of the same run (`--peers`), if measured. */
export function targets(rows: readonly Row[], peer: Peer | null = null): Target[] {
  const met: Target[] = []
  for (const row of rows) {
    const limit = row.cache === 'miss' ? MISS_CPU[row.route as PageName] : undefined
    if (limit === undefined) continue
    met.push({
      target: `${label(row)}: CPU ≤ ${limit.toFixed(1)} ms/request`,
      measured: `${row.measured.cpu.toFixed(2)} ms`,
      met: row.measured.cpu <= limit,
      profile: { path: row.path, hit: false, ...(row.tail ? { tail: row.tail } : {}) },
    })
  }
  for (const { route, cache, least } of SHARE) {
    const row = rows.find((r) => r.route === route && r.cache === cache)
    if (!row?.reference) continue
    const share = row.measured.rps / row.reference.measured.rps
    met.push({
      target: `${label(row)}: ≥ ${least}× the ${row.reference.route === 'static' ? 'static string' : row.reference.route}'s req/s`,
      measured: `${share.toFixed(2)}×`,
      met: share >= least,
      profile: { path: row.path, hit: true },
    })
  }
  const miss = rows.find((r) => r.route === 'directory' && r.cache === 'miss' && !r.tail)
  if (peer && miss) {
    const share = miss.measured.rps / peer.measured.rps
    met.push({
      target: `directory, miss: ≥ ${PEER_SHARE}× the req/s of ${peer.name}`,
      measured: `${share.toFixed(2)}×`,
      met: share >= PEER_SHARE,
      profile: { path: miss.path, hit: false },
    })
  }
  return met
}

/** Each row of the large catalog against the same row of the default one. */
export function scaleTargets(small: readonly Row[], large: readonly Row[]): Target[] {
  return large.flatMap((row) => {
    const before = small.find((r) => label(r) === label(row))
    if (!before) return []
    const ratio = row.measured.p50 / before.measured.p50
    const withinStep = row.measured.p50 - before.measured.p50 <= P50_STEP_MS
    return [
      {
        target: `${label(row)}: p50 ≤ ${SCALE}× the default catalog's`,
        measured:
          `${row.measured.p50.toFixed(1)} / ${before.measured.p50.toFixed(1)} ms = ` +
          (Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '–') +
          (withinStep && ratio > SCALE ? ` (within ${P50_STEP_MS} ms)` : ''),
        met: ratio <= SCALE || withinStep,
      },
    ]
  })
}

/** A sharded layout's p50 as a multiple of the one-shard layout's, at most (docs/scale.md). */
const SHARDED = 1.2

/**
 * Each row of the catalog on a sharded layout against the same row on the one-shard layout,
 * measured in the same run (the same whole-ms allowance as `scaleTargets`).
 */
export function layoutTargets(
  one: readonly Row[],
  sharded: readonly Row[],
  layout: string,
): Target[] {
  return sharded.flatMap((row) => {
    const before = one.find((r) => label(r) === label(row))
    if (!before) return []
    const ratio = row.measured.p50 / before.measured.p50
    const withinStep = row.measured.p50 - before.measured.p50 <= P50_STEP_MS
    return [
      {
        target: `${label(row)}: p50 on ${layout} ≤ ${SHARDED}× one shard's`,
        measured:
          `${row.measured.p50.toFixed(1)} / ${before.measured.p50.toFixed(1)} ms = ` +
          (Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '–') +
          (withinStep && ratio > SHARDED ? ` (within ${P50_STEP_MS} ms)` : ''),
        met: ratio <= SHARDED || withinStep,
      },
    ]
  })
}
