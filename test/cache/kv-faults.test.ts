import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { anIsolate, settled } from '../support/fetch-page'
import { unreachable, withStatementFaults } from '../support/with-faults'

// The gate's KV namespace failing, through the real worker: pages are served; and a purge when
// the audit log's D1 write fails: what happened is still told and logged. The purge store's
// faults are in purge-store.test.ts.

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

describe('a purge', () => {
  const request = (tags: string[]): RequestInit => ({
    method: 'POST',
    headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
    body: JSON.stringify({ tags }),
  })

  it('still purges when the audit row cannot be written, and says so in the answer and the log', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const lines = vi.spyOn(console, 'log')
    await settled('/tutors/denver-co')
    const res = await settled('/__ops/purge', request(['city:denver-co']), {
      CONTROL: auditFailing(env.CONTROL),
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
