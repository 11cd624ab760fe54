// `npm run bench -- --purges`: the purge store (D1's `purges` table, src/cache/generations.ts)
// at 10,000 purges a day kept 9 days, each purge a takedown naming two tags (a provider and its
// profile's URL), so 180,000 rows and as many distinct tags: the worst case for memory. In a
// temporary state of its own (no catalog): the read a cold isolate makes, "what changed since N"
// (nothing new, one new purge) and the rows D1 reads for it, timed in the benchmark worker; the
// memory an isolate keeps for the tags, measured in this process on the same class.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KnownPurges, PURGE_KEEP_MS } from '../../src/cache/generations'
import { serve } from './harness'
import { heapAfterGc } from './heap'

export const PURGES_PER_DAY = 10_000
export const DAYS_KEPT = 9
const TAGS_PER_PURGE = 2

export interface PurgeStoreFigures {
  purges: number
  rows: number
  tags: number
  coldMs: number
  nothingNewMs: number
  onePurgeMs: number
  rowsReadNothingNew: number
  rowsReadOnePurge: number
  heapBytes: number
}

/** The tags of purge `i`, at its time: spread evenly over the days kept. */
function purgeAt(i: number, now: number): { at: number; tags: string[] } {
  const total = PURGES_PER_DAY * DAYS_KEPT
  const at =
    now - Math.floor(((total - i) / total) * Math.min(PURGE_KEEP_MS, DAYS_KEPT * 86_400_000))
  return {
    at: at + 60_000,
    tags: [`provider:${1_000_000 + i}`, `url:/p/caregiver-${1_000_000 + i}`],
  }
}

export async function benchPurgeStore(): Promise<PurgeStoreFigures> {
  const state = await mkdtemp(join(tmpdir(), 'bench-purges-'))
  const server = await serve(state, 'cached')
  try {
    const db = (await server.mf.getD1Database('DB')) as unknown as D1Database
    // The table's migration, statement by statement, without its comments.
    const schema = (await readFile('migrations/0007_purges.sql', 'utf8')).replace(/--.*$/gm, '')
    for (const statement of schema.split(';').filter((s) => s.trim()))
      await db.prepare(statement).run()
    const purges = PURGES_PER_DAY * DAYS_KEPT
    const now = Date.now()
    // Literal rows (generated here, not input), 2,000 a statement: one exec per 25 statements.
    const lines: string[] = []
    for (let i = 0; i < purges; i += 1_000) {
      const values: string[] = []
      for (let j = i; j < Math.min(i + 1_000, purges); j++) {
        const { at, tags } = purgeAt(j, now)
        for (const tag of tags) values.push(`(${at}, '${tag}')`)
      }
      lines.push(`INSERT INTO purges (at, tag) VALUES ${values.join(', ')};`)
    }
    for (let i = 0; i < lines.length; i += 25) await db.exec(lines.slice(i, i + 25).join('\n'))
    const res = await fetch(`${server.base}/__bench/purges`)
    const reads = await res.json<Omit<PurgeStoreFigures, 'purges' | 'rows' | 'heapBytes'>>()
    return {
      purges,
      rows: purges * TAGS_PER_PURGE,
      ...reads,
      heapBytes: heapOfTags(purges, now),
    }
  } finally {
    await server.mf.dispose()
    await rm(state, { recursive: true, force: true })
  }
}

/** The heap an isolate's KnownPurges holds for `purges` purges, measured after a full GC. */
function heapOfTags(purges: number, now: number): number {
  const before = heapAfterGc()
  const known = new KnownPurges()
  for (let i = 0; i < purges; i++) {
    const { at, tags } = purgeAt(i, now)
    // Each tag as its own string, as read from D1 rows, not a constant of this file.
    known.record(
      tags.map((t) => t.split('').join('')),
      at,
    )
  }
  const used = heapAfterGc() - before
  if (known.size !== purges * TAGS_PER_PURGE) throw new Error('bench: tags lost')
  return used
}
