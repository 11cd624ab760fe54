import { env } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { KnownPurges } from '../../src/cache/generations'
import type { SketchSize } from '../../src/cache/purge-sketch'
import { withStatementFaults } from '../support/with-faults'

// The snapshot a cold isolate reads in one piece (src/cache/purge-snapshot.ts), through the real
// local D1: it knows every purge in it without reading their rows, and the rows after it.

const SMALL: SketchSize = { cells: 1 << 12, hashes: 4, recent: 16 }

async function purgeRows(tags: string[], at: number) {
  await env.DB.prepare('INSERT INTO purges (at, tag) SELECT ?, value FROM json_each(?)')
    .bind(at, JSON.stringify(tags))
    .run()
}

it('lets a cold isolate know every purge from a snapshot and the rows after it, in one round trip', async () => {
  const now = Date.now()
  const before = Array.from({ length: 40 }, (_, i) => `provider:snap${i}`)
  await purgeRows(before, now - 60_000)
  const warm = new KnownPurges(SMALL)
  await warm.refresh(env.DB)
  await warm.writeSnapshot(env.DB)
  await purgeRows(['provider:after-snapshot'], now)

  const rowsRead: number[] = []
  let roundTrips = 0
  const db = withStatementFaults(env.DB, (sql) =>
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
  await env.DB.exec('DELETE FROM purge_snapshots')
  const a = new KnownPurges(SMALL)
  const b = new KnownPurges(SMALL)
  await a.refresh(env.DB)
  await b.refresh(env.DB)
  expect(await a.writeSnapshot(env.DB)).toBe(true)
  expect(await b.writeSnapshot(env.DB)).toBe(false)
  const rows = await env.DB.prepare(
    'SELECT count(*) AS n, sum(complete) AS complete FROM purge_snapshots',
  ).first<{ n: number; complete: number }>()
  expect(rows).toEqual({ n: 1, complete: 1 })
})
