import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { openDb, READ_RETRIES } from '../../src/data/db'
import { Timing } from '../../src/observability/timing'

/** The real D1 binding, failing its first `failures` statements the way D1 reports a blip. */
function flakyD1(failures: number, message = 'D1_ERROR: Network connection lost.'): D1Database {
  let left = failures
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop !== 'prepare') return Reflect.get(target, prop) as unknown
      return (sql: string) => {
        const statement = target.prepare(sql)
        if (left-- > 0) return { bind: () => ({ all: () => Promise.reject(new Error(message)) }) }
        return statement
      }
    },
  })
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
    await expect(openDb(env.DB, timing).all('SELECT * FROM no_such_table')).rejects.toThrow(
      'D1 read failed',
    )
    expect(timing.count('d1')).toBe(1)
  })
})
