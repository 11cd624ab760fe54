import { env } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { KnownPurges } from '../../src/cache/generations'
import { FOLD } from '../../src/cache/purge-snapshot'
import type { SketchSize } from '../../src/cache/purge-sketch'
import { withStatementFaults } from '../support/with-faults'

// The snapshot a cold isolate reads in one piece (src/cache/purge-snapshot.ts), through the real
// local D1: it knows every purge in it without reading their rows, and the rows after it.

const SMALL: SketchSize = { cells: 1 << 12, hashes: 4, recent: 16 }

async function purgeRows(tags: string[], at: number) {
  await env.CONTROL.prepare('INSERT INTO purges (at, tag) SELECT ?, value FROM json_each(?)')
    .bind(at, JSON.stringify(tags))
    .run()
}

it('lets a cold isolate know every purge from a snapshot and the rows after it, in one round trip', async () => {
  const now = Date.now()
  const before = Array.from({ length: 40 }, (_, i) => `provider:snap${i}`)
  await purgeRows(before, now - 60_000)
  const warm = new KnownPurges(SMALL)
  await warm.refresh(env.CONTROL)
  await warm.writeSnapshot(env.CONTROL)
  await purgeRows(['provider:after-snapshot'], now)

  const rowsRead: number[] = []
  let roundTrips = 0
  const db = withStatementFaults(env.CONTROL, (sql) =>
    sql.includes('FROM purges WHERE')
      ? {
          all: async (read) => {
            const result = await read()
            rowsRead.push(result.results.length)
            return result
          },
        }
      : undefined,
  )
  const counted = new Proxy(db, {
    get: (target, prop) =>
      prop === 'withSession'
        ? (constraint?: string) => {
            const session = target.withSession(constraint)
            return new Proxy(session, {
              get: (s, p) =>
                p === 'batch'
                  ? (statements: D1PreparedStatement[]) => (roundTrips++, s.batch(statements))
                  : (Reflect.get(s, p) as unknown),
            })
          }
        : (Reflect.get(target, prop) as unknown),
  })
  const cold = new KnownPurges(SMALL)
  await cold.refresh(counted)
  expect(roundTrips).toBe(1)
  // Only the row after the snapshot was read; the 40 before it came in the snapshot.
  expect(rowsRead).toEqual([1])
  for (const tag of before) expect(cold.newestOf([tag])).toBeGreaterThanOrEqual(now - 60_000)
  expect(cold.newestOf(['provider:after-snapshot'])).toBe(now)
})

it('is written by one isolate at a time: a second claim within the interval writes nothing', async () => {
  await env.CONTROL.exec('DELETE FROM purge_snapshots')
  const a = new KnownPurges(SMALL)
  const b = new KnownPurges(SMALL)
  await a.refresh(env.CONTROL)
  await b.refresh(env.CONTROL)
  expect(await a.writeSnapshot(env.CONTROL)).toBe(true)
  expect(await b.writeSnapshot(env.CONTROL)).toBe(false)
  const rows = await env.CONTROL.prepare(
    'SELECT count(*) AS n, sum(complete) AS complete FROM purge_snapshots',
  ).first<{ n: number; complete: number }>()
  expect(rows).toEqual({ n: 1, complete: 1 })
})

it('gives a cold isolate the folded cells first, then the whole ones over them, keeping what it read meanwhile', async () => {
  await env.CONTROL.exec('DELETE FROM purge_snapshots; DELETE FROM purge_snapshot_parts')
  const now = Date.now()
  const before = Array.from({ length: 200 }, (_, i) => `provider:fold${i}`)
  await purgeRows(before, now - 3_600_000)
  const warm = new KnownPurges(SMALL)
  await warm.refresh(env.CONTROL)
  expect(await warm.writeSnapshot(env.CONTROL)).toBe(true)

  // What the cold read asks of the parts: the folded one alone, a quarter of the cells.
  const partsRead: number[] = []
  const db = withStatementFaults(env.CONTROL, (sql) =>
    sql.includes('FROM purge_snapshot_parts')
      ? {
          all: async (read) => {
            const result = await read()
            for (const row of result.results as { cells: string }[])
              partsRead.push(row.cells.length)
            return result
          },
        }
      : undefined,
  )
  const cold = new KnownPurges(SMALL)
  await cold.refresh(db)
  expect(partsRead).toEqual([Math.ceil(SMALL.cells / FOLD / 3) * 4])
  for (const tag of before) expect(cold.newestOf([tag])).toBeGreaterThanOrEqual(now - 3_600_000)
  // Folded cells read too new: a snapshot of them is not written.
  await env.CONTROL.exec('DELETE FROM purge_snapshots')
  expect(await cold.writeSnapshot(env.CONTROL)).toBe(false)
  expect(await warm.writeSnapshot(env.CONTROL)).toBe(true)

  // A purge read meanwhile, then the whole snapshot: both known.
  await purgeRows(['provider:meanwhile'], now)
  await cold.refresh(env.CONTROL)
  await cold.refine(db)
  // The whole parts (one at this size) read after the folded one.
  expect(partsRead).toHaveLength(2)
  for (const tag of before) expect(cold.newestOf([tag])).toBeGreaterThanOrEqual(now - 3_600_000)
  expect(cold.newestOf(['provider:meanwhile'])).toBe(now)
  expect(await cold.writeSnapshot(env.CONTROL, undefined, Date.now() + 60_000)).toBe(true)
})
