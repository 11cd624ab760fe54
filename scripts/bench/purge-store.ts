// `npm run bench -- --purges`: an isolate's purge knowledge (src/cache/purge-sketch.ts) at a
// marketplace's steady stream: 50 changes a second, around the clock, each purging about ten tags
// (its entity's own, its URLs' when it is new, the rest its places' pages), kept 9 days: about
// 389 million tag purges.
// In this process: the stream's last FEED_HOURS through the real sketch (a false positive at a
// page age needs only the purges since: the older ones lie below it; the memory is fixed), the
// V8 heap it holds after a full GC, and its false positives by page age (tags never purged that
// read as purged after the page was stored). In the benchmark worker, against the local D1 of a temporary state: a cold
// isolate's read of the snapshot of that sketch and of the purge rows after it, with the real
// `KnownPurges.refresh` (src/cache/generations.ts).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { foldCells, PurgeSketch, SKETCH_SIZE, tagHash } from '../../src/cache/purge-sketch'
import {
  FOLD,
  SNAPSHOT_AFTER_ROWS,
  SNAPSHOT_EVERY_MS,
  writeSnapshot,
} from '../../src/cache/purge-snapshot'
import { serve } from './harness'
import { heapAfterGc } from './heap'

export const CHANGES_PER_SECOND = 50
export const TAGS_PER_CHANGE = 10
export const DAYS_KEPT = 9
/** Hours of the stream fed: the last 12, about 22 million tag purges (minutes on this machine). */
export const FEED_HOURS = 12
/** Providers the changes fall on: a catalog of tens of millions. */
export const PROVIDERS = 20_000_000
/**
 * Changes that add an entity (a provider or job new to the catalog), which also purge its URLs'
 * tags (the 404 stored before it existed): one change in fifty, 86,000 new entities a day.
 */
const NEW_SHARE = 0.02
/** Place pages (listings, state and national pages, hubs, guides) the changes purge. */
const PLACE_TAGS = 200_000
/** Purge rows a cold isolate reads after the snapshot at this rate, at worst. */
export const ROWS_AFTER_SNAPSHOT = Math.max(
  SNAPSHOT_AFTER_ROWS,
  (SNAPSHOT_EVERY_MS / 1000) * CHANGES_PER_SECOND * TAGS_PER_CHANGE,
)
/** Page ages the false positives are measured at, and tags sampled at each. */
const AGES: readonly [string, number][] = [
  ['1 minute', 60_000],
  ['10 minutes', 600_000],
  ['1 hour', 3_600_000],
  ['6 hours', 6 * 3_600_000],
]
const SAMPLES = 200_000
/** Tags on a busy directory page (its cards' providers, its place and page type). */
const PAGE_TAGS = 25

export interface PurgeStoreFigures {
  tagPurges: number
  feedSeconds: number
  heapBytes: number
  typedBytes: number
  snapshotBytes: number
  rowsAfter: number
  falsePositives: { age: string; perTag: number; perPage: number }[]
  /** The same, of a cold isolate's cells while they are the folded snapshot's. */
  foldedFalsePositives: { age: string; perTag: number; perPage: number }[]
  foldedBytes: number
  coldMs: number
  coldMaxMs: number
  /** A cold isolate's read of the whole snapshot after the folded one (in the background). */
  wholeMs: number
  nothingNewMs: number
  onePurgeMs: number
  rowsReadNothingNew: number
  rowsReadOnePurge: number
}

/** A deterministic generator (the same stream every run). */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** The stream's last FEED_HOURS through a sketch, ending at `now`. */
function feed(now: number): { sketch: PurgeSketch; tagPurges: number } {
  const next = random(44)
  const places = Array.from({ length: PLACE_TAGS }, (_, i) => tagHash(`url:/place-${i}`))
  const start = now - FEED_HOURS * 3_600_000
  const sketch = new PurgeSketch(start)
  const changes = FEED_HOURS * 3_600 * CHANGES_PER_SECOND
  let tagPurges = 0
  for (let i = 0; i < changes; i++) {
    const at = start + Math.floor((i / changes) * (now - start))
    // The entity's own tag always; its URLs' tags only when it is new (src/sync/purge-tags.ts).
    const provider = Math.floor(next() * PROVIDERS)
    let tags = 1
    sketch.record(tagHash(`provider:${provider}`), at, i, at)
    if (next() < NEW_SHARE) {
      sketch.record(tagHash(`url:/p/name-${provider}`), at, i, at)
      sketch.record(tagHash(`url:/p/${provider}`), at, i, at)
      tags += 2
    }
    // Its places' pages, the rest of the ten: a few cities' pages are far busier than the rest.
    for (; tags < TAGS_PER_CHANGE; tags++) {
      const place = Math.floor(next() ** 2 * PLACE_TAGS)
      sketch.record(places[place] ?? 0, at, i, at)
    }
    tagPurges += tags
  }
  return { sketch, tagPurges }
}

/** How often a never-purged tag, and a page of PAGE_TAGS of them, reads as purged at each age. */
function falsePositives(sketch: PurgeSketch, now: number) {
  return AGES.map(([age, ms]) => {
    let hits = 0
    for (let i = 0; i < SAMPLES; i++)
      if (sketch.newestOf(tagHash(`provider:never-${i}`)) >= now - ms) hits++
    const perTag = hits / SAMPLES
    return { age, perTag, perPage: 1 - (1 - perTag) ** PAGE_TAGS }
  })
}

export async function benchPurgeStore(): Promise<PurgeStoreFigures> {
  const now = Date.now()
  const before = heapAfterGc()
  const started = performance.now()
  const { sketch, tagPurges } = feed(now)
  const feedSeconds = (performance.now() - started) / 1000
  const heapBytes = heapAfterGc() - before
  const falses = falsePositives(sketch, now)
  const encoded = sketch.encode(now)
  const folded = new PurgeSketch(now)
  folded.load({ ...encoded, cells: foldCells(encoded.cells, FOLD) }, now)
  const foldedFalses = falsePositives(folded, now)

  const state = await mkdtemp(join(tmpdir(), 'bench-purges-'))
  const server = await serve(state, 'cached')
  try {
    const db = (await server.mf.getD1Database('CONTROL')) as unknown as D1Database
    // Control's schema (local D1 runs every statement of a prepared text).
    for (const file of (await readdir('migrations/control')).sort())
      await db.prepare(await readFile(join('migrations/control', file), 'utf8')).run()
    await writeSnapshot(db, () => encoded, { seq: 0, now, cells: SKETCH_SIZE.cells })
    // The rows after it: the stream's last purges, 2,000 a statement.
    for (let i = 0; i < ROWS_AFTER_SNAPSHOT; i += 2_000) {
      const values: string[] = []
      for (let j = i; j < Math.min(i + 2_000, ROWS_AFTER_SNAPSHOT); j++)
        values.push(`(${now - 1_000}, 'provider:after-${j}')`)
      await db.exec(`INSERT INTO purges (at, tag) VALUES ${values.join(', ')};`)
    }
    const res = await fetch(`${server.base}/__bench/purges`)
    const reads = await res.json<Omit<PurgeStoreFigures, 'tagPurges'>>()
    return {
      ...reads,
      tagPurges,
      feedSeconds,
      heapBytes,
      typedBytes: sketch.bytes,
      snapshotBytes: encoded.cells.byteLength,
      foldedBytes: encoded.cells.byteLength / FOLD,
      rowsAfter: ROWS_AFTER_SNAPSHOT,
      falsePositives: falses,
      foldedFalsePositives: foldedFalses,
    }
  } finally {
    await server.mf.dispose()
    await rm(state, { recursive: true, force: true })
  }
}
