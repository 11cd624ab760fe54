import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { KnownPurges, PRIMARY_AFTER_PURGE_MS } from '../../src/cache/generations'
import { readConstraint } from '../../src/request/read-session'
import { anIsolate } from '../support/fetch-page'
import { withFaults } from '../support/with-faults'

describe('the D1 session of a request', () => {
  it('reads from any replica, but from the primary for a minute after a purge or before any is known', async () => {
    const now = Date.now()
    const purges = new KnownPurges()
    expect(readConstraint(purges, now)).toBe('first-primary')
    await purges.refresh(env.DB)
    expect(readConstraint(purges, now)).toBe('first-unconstrained')
    purges.record(['city:atlanta-ga'], now - PRIMARY_AFTER_PURGE_MS - 1)
    expect(readConstraint(purges, now)).toBe('first-unconstrained')
    purges.record(['provider:1'], now - 1_000)
    expect(readConstraint(purges, now)).toBe('first-primary')
    expect(readConstraint(purges, now + PRIMARY_AFTER_PURGE_MS)).toBe('first-unconstrained')
  })

  it("is opened for every page's reads, on the primary once the isolate has purged", async () => {
    const constraints: unknown[] = []
    const DB = withFaults(env.DB, {
      withSession: (withSession, constraint) => {
        constraints.push(constraint)
        return withSession(constraint)
      },
    })
    const isolate = anIsolate()
    // A fresh isolate reads from the primary until it knows the purges (read after its miss).
    await isolate.settled('/nannies/austin-tx', {}, { DB })
    expect(constraints[0]).toBe('first-primary')
    constraints.length = 0
    await isolate.settled('/nannies/austin-tx?sort=newest', {}, { DB })
    expect(constraints[0]).toBe('first-unconstrained')
    const purge = await isolate.settled(
      '/__ops/purge',
      {
        method: 'POST',
        headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
        body: JSON.stringify({ tags: ['city:austin-tx'] }),
      },
      { DB },
    )
    expect(purge.res.status).toBe(200)
    constraints.length = 0
    const again = await isolate.settled('/nannies/austin-tx', {}, { DB })
    expect(again.cache).toBe('MISS')
    // The page's session, opened first; the purge store's own read follows its bookmark.
    expect(constraints[0]).toBe('first-primary')
  })
})
