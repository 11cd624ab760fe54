import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { NEW_ID_MARGIN } from '../../src/gate/gate-filter'
import { readGate } from '../../src/gate/gate-store'
import { COALESCE_MS } from '../../src/sync/purge-tags'
import { statsUpkeepRouted } from '../../src/sync/stats-upkeep'
import { databasesOf } from '../../src/data/databases'
import { shardOfCityId } from '../support/builders'
import { applyAcross } from '../support/databases'
import worker from '../../src/worker'
import { aMessage } from '../sync/examples'

// The cron keeps derived data by what changed: the consumer keeps the stats current, so the cron
// recomputes what time closed and checks a rotating slice of cities; the gate takes in the
// additions since it was stored; the coalesced purges are recorded once due, stream or none.

// Control: its cities, cursors, purges and copies of the cities' stats (the shards' own are
// where a drift is found and repaired).
const db = env.CONTROL
const statsUpkeep = (_: D1Database, at: Date, options?: { cities: number }) =>
  statsUpkeepRouted(databasesOf(env), at, options)
const ATLANTA = 4180439

async function runCron(at: number): Promise<void> {
  const ctx = createExecutionContext()
  worker.scheduled(createScheduledController({ scheduledTime: at, cron: '* * * * *' }), env, ctx)
  await waitOnExecutionContext(ctx)
}

const openJobs = async () =>
  (
    await db
      .prepare("SELECT jobs FROM job_city_stats WHERE service = 'babysitting-jobs' AND city_id = ?")
      .bind(ATLANTA)
      .first<{ jobs: number }>()
  )?.jobs ?? 0

const purgedAt = async (tag: string, at: number) =>
  (
    await db
      .prepare('SELECT COUNT(*) AS n FROM purges WHERE tag = ? AND at = ?')
      .bind(tag, at)
      .first<{ n: number }>()
  )?.n ?? 0

describe('the cron, by what changed', () => {
  it('takes a job out of the open counts once its closing moment passed', async () => {
    const t0 = Date.now()
    await applyAcross(
      [
        aMessage('job.upserted', (m) => {
          m.id = 960_100_001
          m.entity.validThrough = new Date(t0 + 30_000).toISOString()
        }),
      ],
      { now: new Date(t0) },
    )
    const open = await openJobs()
    await statsUpkeep(db, new Date(t0))
    expect(await openJobs()).toBe(open)
    const later = t0 + 60_000
    const { expired } = await statsUpkeep(db, new Date(later))
    expect(expired).toBeGreaterThanOrEqual(1)
    expect(await openJobs()).toBe(open - 1)
  })

  it('checks a slice of cities a run, rewriting what drifted from a recompute, and comes round again', async () => {
    // A first pass settles what the test catalog's setup left behind (its stats are of midnight).
    await db.prepare('DELETE FROM cron_cursors').run()
    const now = Date.now()
    const slice = { cities: 10 }
    const cities =
      (await db.prepare('SELECT COUNT(*) AS n FROM cities').first<{ n: number }>())?.n ?? 0
    for (let i = 0; i < cities / slice.cities; i++) await statsUpkeep(db, new Date(now), slice)
    const first = await db
      .prepare(
        `SELECT s.city_id, s.service, s.providers FROM service_city_stats s
          WHERE s.city_id = (SELECT MIN(id) FROM cities) LIMIT 1`,
      )
      .first<{ city_id: number; service: string; providers: number }>()
    expect(first).not.toBeNull()
    if (!first) return
    const { db: shard } = await shardOfCityId(first.city_id)
    await shard
      .prepare(
        'UPDATE service_city_stats SET providers = providers + 7 WHERE service = ? AND city_id = ?',
      )
      .bind(first.service, first.city_id)
      .run()
    const run = await statsUpkeep(db, new Date(now), slice)
    expect(run.checked).toBe(slice.cities)
    expect(run.drifted).toBe(1)
    const repaired = await shard
      .prepare('SELECT providers FROM service_city_stats WHERE service = ? AND city_id = ?')
      .bind(first.service, first.city_id)
      .first<{ providers: number }>()
    expect(repaired?.providers).toBe(first.providers)

    // Each run takes the next slice, never more, until the last city; then the first again.
    let checked = run.checked
    for (let i = 1; checked < cities; i++) {
      const next = await statsUpkeep(db, new Date(now + i), slice)
      expect(next.checked).toBeLessThanOrEqual(slice.cities)
      expect(next.drifted).toBe(0)
      checked += next.checked
    }
    expect(checked).toBe(cities)
    const cursor = await db
      .prepare("SELECT value FROM cron_cursors WHERE name = 'drift'")
      .first<{ value: number }>()
    expect(cursor?.value).toBe(0)
  })

  it('takes a new provider into the stored gate without building it again', async () => {
    const before = await readGate(env.GATE)
    expect(before).not.toBeNull()
    const id = (before?.meta.watermarks.provider ?? 0) + 5_000_000
    await applyAcross([aMessage('provider.upserted', (m) => (m.id = id))])
    expect(before?.has('provider', id)).toBe(false)
    await runCron(Date.now())
    const after = await readGate(env.GATE)
    expect(after?.meta.builtAt).toBe(before?.meta.builtAt)
    expect(after?.meta.watermarks.provider).toBe(id)
    expect(after?.has('provider', id)).toBe(true)
    // The gate holds no ids: the new watermark moved the margin an id may be new within.
    expect(after?.has('provider', id + NEW_ID_MARGIN)).toBe(true)
    expect(after?.has('provider', id + NEW_ID_MARGIN + 1)).toBe(false)
  })

  it('records a state page’s coalesced purge once due, with no change after it', async () => {
    const t0 = Date.UTC(2032, 0, 1)
    await applyAcross([aMessage('provider.upserted'), aMessage('provider-service.offered')], {
      now: new Date(t0),
    })
    await runCron(t0 + COALESCE_MS - 1)
    expect(await purgedAt('url:/babysitters/ga', t0 + COALESCE_MS - 1)).toBe(0)
    await runCron(t0 + COALESCE_MS)
    expect(await purgedAt('url:/babysitters/ga', t0 + COALESCE_MS)).toBe(1)
  })
})
