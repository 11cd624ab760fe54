import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { anIsolate, sameDocument, settled } from '../support/fetch-page'
import { unreachable, withStatementFaults } from '../support/with-faults'

// The gate's and the purges' KV namespaces failing, through the real worker: pages are served;
// and purges when KV or the audit log's D1 fails: what happened is still told and logged.

afterEach(() => {
  vi.restoreAllMocks()
})

it('opens the gate when its KV fails: pages are served, unknown slugs still 404 from D1', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  // An isolate that has not loaded the gate yet.
  const isolate = anIsolate()
  const gate = unreachable(env.GATE)
  const known = await isolate.settled('/nannies/atlanta-ga', {}, { GATE: gate })
  expect(known.res.status).toBe(200)
  expect(known.body).toContain('Nannies in Atlanta, GA')
  expect((await isolate.settled('/nannies/nowhere-at-all-ga', {}, { GATE: gate })).res.status).toBe(
    404,
  )
  expect(errors.mock.calls.some(([line]) => String(line).includes('the gate is open'))).toBe(true)
})

it('serves stored pages when the purges KV fails, by their age alone', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const stored = await settled('/babysitters/austin-tx')
  expect(stored.cache).toBe('MISS')
  // An isolate that has neither the page nor the purges in memory.
  const isolate = anIsolate()
  const purges = unreachable(env.PURGES)
  const hit = await isolate.settled('/babysitters/austin-tx', {}, { PURGES: purges })
  expect(hit.res.status).toBe(200)
  expect(hit.res.headers.get('x-cache')).toBe('HIT')
  expect(sameDocument(hit.body)).toBe(sameDocument(stored.body))
  // A page never stored renders as usual.
  const fresh = await isolate.settled('/nannies/austin-tx', {}, { PURGES: purges })
  expect(fresh.res.status).toBe(200)
  expect(fresh.res.headers.get('x-cache')).toBe('MISS')
  expect(
    errors.mock.calls.some(([line]) => String(line).includes('purge generations unreadable')),
  ).toBe(true)
})

describe('a purge', () => {
  const request = (tags: string[]): RequestInit => ({
    method: 'POST',
    headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
    body: JSON.stringify({ tags }),
  })

  it('that KV cannot record answers 503, purges nothing and is logged as failed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await settled('/tutors/austin-tx')
    const res = await settled('/__ops/purge', request(['city:austin-tx']), {
      PURGES: unreachable(env.PURGES),
    })
    expect(res.res.status).toBe(503)
    expect(JSON.parse(res.body)).toMatchObject({ logged: true })
    expect((await settled('/tutors/austin-tx')).cache).toBe('HIT')
    const row = await env.DB.prepare(
      'SELECT token_name, purged, outcome FROM purge_log WHERE tags = \'["city:austin-tx"]\'',
    ).first<{ token_name: string; purged: number; outcome: string }>()
    expect(row).toMatchObject({ token_name: 'ops', purged: 0 })
    expect(row?.outcome).toMatch(/^failed: .*KV unavailable/)
  })

  it('still purges when the audit row cannot be written, and says so in the answer and the log', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const lines = vi.spyOn(console, 'log')
    await settled('/tutors/denver-co')
    const res = await settled('/__ops/purge', request(['city:denver-co']), {
      DB: auditFailing(env.DB),
    })
    expect(res.res.status).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({ by: 'ops', logged: false })
    expect((await settled('/tutors/denver-co')).cache).toBe('MISS')
    const logged = lines.mock.calls.map(([line]) => String(line))
    expect(
      logged.some((l) => l.includes('"message":"purge"') && l.includes('city:denver-co')),
    ).toBe(true)
  })
})

/** The real D1, except that writing the purge log fails. */
function auditFailing(db: D1Database): D1Database {
  return withStatementFaults(db, (sql) =>
    sql.startsWith('INSERT INTO purge_log')
      ? { run: () => Promise.reject(new Error('D1 unavailable')) }
      : undefined,
  )
}
