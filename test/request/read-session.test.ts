import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { KnownPurges, REFRESH_MS, REPLICATION_WINDOW_MS } from '../../src/cache/generations'
import { readSession } from '../../src/request/read-session'
import { anIsolate } from '../support/fetch-page'
import { everyBinding } from '../support/databases'
import { withFaults } from '../support/with-faults'

afterEach(() => vi.useRealTimers())

const PAGE = ['url:/nannies/austin-tx', 'city:austin-tx']

describe('the D1 session of a request', () => {
  it("reads from any replica unless the page's own tags were purged within the window", async () => {
    const now = Date.now()
    const purges = new KnownPurges()
    // Before any purge is known: the primary.
    expect(readSession(purges, PAGE, now).constraint).toBe('first-primary')
    await purges.refresh(env.CONTROL)
    expect(readSession(purges, PAGE, now).constraint).toBe('first-unconstrained')
    // Another page's purge, however recent, leaves this page on the replicas.
    purges.recordWritten(['city:boston-ma'], now - 1_000, 7, 'bookmark-a')
    expect(readSession(purges, PAGE, now).constraint).toBe('first-unconstrained')
    // Its own tag, with the bookmark of the write: read at that bookmark, which covers it.
    purges.recordWritten(['city:austin-tx'], now - 1_000, 9, 'bookmark-b')
    expect(readSession(purges, PAGE, now)).toEqual({
      constraint: 'bookmark-b',
      since: now,
      covers: 9,
    })
    // Known without a bookmark: the primary.
    purges.record(['url:/nannies/austin-tx'], now - 500)
    expect(readSession(purges, PAGE, now).constraint).toBe('first-primary')
    // Past the window, the replicas again; and never on purges that are not current.
    const later = now + REPLICATION_WINDOW_MS + 1
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(now + 1)
    expect(readSession(purges, PAGE, later).constraint).toBe('first-unconstrained')
    vi.setSystemTime(now + REFRESH_MS + 1_000)
    expect(readSession(purges, PAGE, later).constraint).toBe('first-primary')
  })

  it("is opened for every page's reads, at the bookmark of its own purge once purged", async () => {
    const constraints: unknown[] = []
    // The page's sessions, on control and the shards: each counted at its first read that is
    // not the purge store's (the isolate learning its purges opens sessions of its own).
    const bindings = everyBinding((db) =>
      withFaults(db, {
        withSession: (withSession, constraint) => {
          let counted = false
          return withFaults(withSession(constraint), {
            prepare: (prepare, sql) => {
              if (!counted && !/\bpurge/.test(sql)) {
                counted = true
                constraints.push(constraint)
              }
              return prepare(sql)
            },
          })
        },
      }),
    )
    const isolate = anIsolate()
    // A fresh isolate reads from the primary until it knows the purges (read after its miss).
    const cold = await isolate.settled('/nannies/austin-tx', {}, bindings)
    expect(constraints[0]).toBe('first-primary')
    expect(sessionSaid(cold.res)).toBe('first-primary')
    constraints.length = 0
    const warm = await isolate.settled('/nannies/austin-tx?sort=newest', {}, bindings)
    expect(constraints[0]).toBe('first-unconstrained')
    expect(sessionSaid(warm.res)).toBe('first-unconstrained')
    const purge = await isolate.settled(
      '/__ops/purge',
      {
        method: 'POST',
        headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
        body: JSON.stringify({ tags: ['city:austin-tx'] }),
      },
      bindings,
    )
    expect(purge.res.status).toBe(200)
    constraints.length = 0
    const again = await isolate.settled('/nannies/austin-tx', {}, bindings)
    expect(again.cache).toBe('MISS')
    // The page's sessions: control's at the bookmark of the purge's write; the city's shard,
    // which that bookmark says nothing of, reads its primary (src/request/page-reads.ts).
    expect(constraints.filter((c) => !String(c).startsWith('first-'))).toHaveLength(1)
    expect(constraints).toContain('first-primary')
    expect(sessionSaid(again.res)).toBe('bookmark')
    // A page the purge did not touch reads from any replica meanwhile.
    constraints.length = 0
    await isolate.settled('/nannies/boston-ma', {}, bindings)
    expect(constraints[0]).toBe('first-unconstrained')
  })
})

/** The session a page's reads went through, as its Server-Timing says (what the stream bench counts). */
function sessionSaid(res: Response): string | undefined {
  return /d1-session;desc="([a-z-]+)"/.exec(res.headers.get('server-timing') ?? '')?.[1]
}
