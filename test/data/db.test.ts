import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { refreshDerived } from '../../src/cron/refresh-derived'
import { openDb, READ_RETRIES } from '../../src/data/db'
import { DerivedReads, readsDerivedOnly } from '../../src/data/derived-reads'
import { citiesOf, keptCities } from '../../src/data/kept-cities'
import { Timing } from '../../src/observability/timing'
import { withFaults, withStatementFaults } from '../support/with-faults'

// Reads of the catalog's tables: on a shard, which holds the people, their listings and its
// copy of the cities; the kept cities on control, where pages read them (docs/scale.md).

/** The real D1 binding, failing its first `failures` statements the way D1 reports a blip. */
function flakyD1(failures: number, message = 'D1_ERROR: Network connection lost.'): D1Database {
  let left = failures
  return withStatementFaults(env.SHARD_00, () =>
    left-- > 0 ? { all: () => Promise.reject(new Error(message)) } : undefined,
  )
}

describe('openDb', () => {
  it(`retries a transient failure up to ${READ_RETRIES} times and counts every attempt`, async () => {
    const timing = new Timing()
    const db = openDb(flakyD1(READ_RETRIES), timing)
    expect(await db.first<{ n: number }>('SELECT 1 AS n')).toEqual({ n: 1 })
    expect(timing.count('d1')).toBe(READ_RETRIES + 1)
  })

  it('gives up after that, with the cause attached', async () => {
    const db = openDb(flakyD1(READ_RETRIES + 1), new Timing())
    const error = await db.all('SELECT 1').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(String((error as Error).cause)).toContain('Network connection lost')
  })

  it('does not retry a mistake in the query', async () => {
    const timing = new Timing()
    await expect(openDb(env.SHARD_00, timing).all('SELECT * FROM no_such_table')).rejects.toThrow(
      'D1 read failed',
    )
    expect(timing.count('d1')).toBe(1)
  })

  it('sends the reads issued together as one batch: one round trip', async () => {
    const timing = new Timing()
    const batches: number[] = []
    const d1 = withFaults(env.SHARD_00, {
      batch: (batch, statements) => (batches.push(statements.length), batch(statements)),
    })
    const db = openDb(d1, timing)
    const [one, two] = await Promise.all([db.first('SELECT 1 AS n'), db.all('SELECT 2 AS n')])
    expect([one, two]).toEqual([{ n: 1 }, [{ n: 2 }]])
    expect([batches, timing.count('d1')]).toEqual([[2], 1])
    // One after the other: two round trips, each statement on its own.
    await db.first('SELECT 3')
    await db.first('SELECT 4')
    expect([batches, timing.count('d1')]).toEqual([[2], 3])
  })

  it('retries a batch after a blip, and fails only the read at fault after a mistake', async () => {
    const timing = new Timing()
    const db = openDb(flakyD1(1), timing)
    const [one, two] = await Promise.all([db.first('SELECT 1 AS n'), db.first('SELECT 2 AS n')])
    expect([one, two, timing.count('d1')]).toEqual([{ n: 1 }, { n: 2 }, 2])
    const [good, bad] = await Promise.allSettled([
      db.first<{ n: number }>('SELECT 1 AS n'),
      db.all('SELECT * FROM no_such_table'),
    ])
    expect(good).toEqual({ status: 'fulfilled', value: { n: 1 } })
    expect(bad.status === 'rejected' && String(bad.reason)).toContain('D1 read failed')
  })

  it('keeps reads of derived tables in memory for a minute, and never a live read', async () => {
    const derived = new DerivedReads()
    const timing = new Timing()
    const db = openDb(env.SHARD_00, timing, { derived })
    const city = 'SELECT slug FROM cities WHERE slug = ?'
    const stats = 'SELECT COUNT(*) AS n FROM service_city_stats s JOIN cities c ON c.id = s.city_id'
    const live = 'SELECT COUNT(*) AS n FROM provider_services ps JOIN cities c ON c.id = ps.city_id'
    for (let i = 0; i < 3; i++) {
      await db.first(city, 'atlanta-ga')
      await db.first(stats)
      await db.first(live)
    }
    expect(timing.count('d1')).toBe(1 + 1 + 3)
    await db.first(city, 'denver-co')
    expect(timing.count('d1')).toBe(6)
    // The cron's refresh forgets them; a failed read is not kept either.
    await refreshDerived(env, new Date(), derived)
    await db.first(stats)
    expect(timing.count('d1')).toBe(7)
    const failing = openDb(flakyD1(READ_RETRIES + 1), timing, { derived })
    await expect(failing.first('SELECT 2 AS n FROM cities')).rejects.toThrow('D1 read failed')
    expect(await db.first('SELECT 2 AS n FROM cities')).toEqual({ n: 2 })
  })

  it('finds a city from the copy of every city it keeps, read once in the background', async () => {
    const background: Promise<unknown>[] = []
    const timing = new Timing()
    const db = openDb(env.CONTROL, timing, { derived: new DerivedReads() })
    const cities = citiesOf(keptCities(), {
      d1: env.CONTROL,
      db,
      waitUntil: (p: Promise<unknown>) => void background.push(p),
    })
    // Nothing kept yet: the city is read on its own, and the whole table behind it.
    expect((await cities.find('atlanta-ga'))?.name).toBe('Atlanta')
    expect(background).toHaveLength(1)
    await Promise.all(background)
    const reads = timing.count('d1')
    expect((await cities.find('denver-co'))?.name).toBe('Denver')
    expect(await cities.find('nowhere-zz')).toBeNull()
    // Denver from memory; a slug missing from the copy (a city added since) asks D1.
    expect(timing.count('d1')).toBe(reads + 1)
    expect(background).toHaveLength(1)
  })

  it('tells derived reads from live ones by every table they name', () => {
    expect(readsDerivedOnly('SELECT * FROM service_city_stats WHERE city_id = ?')).toBe(true)
    expect(
      readsDerivedOnly('SELECT * FROM cities c JOIN (SELECT * FROM job_city_stats) j ON 1'),
    ).toBe(true)
    expect(readsDerivedOnly('SELECT * FROM cities c JOIN providers p ON p.city_id = c.id')).toBe(
      false,
    )
    // A comment's words are not tables: the nearby cities' read, as cities.ts writes it.
    expect(
      readsDerivedOnly(`SELECT c.id FROM cities c
        -- CROSS JOIN keeps cities as the outer loop
        CROSS JOIN service_city_stats s ON s.city_id = c.id`),
    ).toBe(true)
    expect(readsDerivedOnly('SELECT 1')).toBe(false)
    expect(readsDerivedOnly('select * from reviews r, json_each(r.ratings)')).toBe(false)
  })
})
