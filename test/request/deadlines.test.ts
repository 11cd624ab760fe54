import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, expect, it, vi } from 'vitest'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, ORIGIN, PHONE, sameDocument, settled } from '../support/fetch-page'
import { held, withFaults } from '../support/with-faults'
import { statementFaultsEverywhere } from '../support/databases'

// Storage that answers, but slowly: every read on a page's path has a deadline, and a page
// answers within it plus rendering time, however long the store takes. In a file of its own:
// these tests hold reads open, and storage is per test file.

/** How long the slow store takes: far past any deadline. */
const SLOW_MS = 8_000
/** A generous bound on a page that does not wait for the slow store. */
const PROMPT_MS = 2_000

const slow = held(SLOW_MS)

afterEach(() => {
  slow.release()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/** The clock `ms` on (Date only: timers run as they do). */
function later(ms: number): void {
  const now = Date.now()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now + ms)
}

/**
 * A request through `isolate` over `bindings`, timed to its complete body; `finished` resolves
 * when its background work (the slow read it left running) has ended.
 */
async function timed(isolate: Isolate, path: string, bindings: Partial<Env>) {
  const ctx = createExecutionContext()
  const started = Date.now()
  const res = await isolate.worker.fetch(
    new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
    { ...env, ...bindings },
    ctx,
  )
  const body = await res.text()
  return { res, body, ms: Date.now() - started, finished: waitOnExecutionContext(ctx) }
}

const slowFlags = () =>
  withFaults(env.FLAGS, {
    get: async (get, ...args) => {
      await slow.wait()
      return get(...args)
    },
  })

const slowGate = () =>
  withFaults(env.GATE, {
    getWithMetadata: async (getWithMetadata, ...args) => {
      await slow.wait()
      return getWithMetadata(...args)
    },
  })

it('answers a page promptly while the flag store is slow, with the documented defaults', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  await env.FLAGS.put('flags', JSON.stringify({ config: { greaterCareReskin: true } }))
  const isolate = anIsolate()
  const page = await timed(isolate, '/senior-care', { FLAGS: slowFlags() })
  expect(page.res.status).toBe(200)
  expect(page.ms).toBeLessThan(PROMPT_MS)
  expect(page.body).not.toContain('theme-greater')
  // The read, once it ends, is kept: the next request has the set ops wrote.
  slow.release()
  await page.finished
  expect(isolate.memory.flags.value?.config.greaterCareReskin).toBe(true)
  await env.FLAGS.delete('flags')
})

it('keeps serving the last set read while a refresh of the flags is slow', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  await env.FLAGS.put('flags', JSON.stringify({ config: { greaterCareReskin: true } }))
  const isolate = anIsolate()
  await isolate.settled('/senior-care')
  const now = Date.now()
  // Past the flag set's age: the next request reads the store again, which is now slow.
  vi.spyOn(Date, 'now').mockReturnValue(now + 60_000)
  const page = await timed(isolate, '/senior-care', { FLAGS: slowFlags() })
  expect(page.res.status).toBe(200)
  expect(page.ms).toBeLessThan(PROMPT_MS)
  expect(page.body).toContain('theme-greater')
  slow.release()
  await page.finished
  await env.FLAGS.delete('flags')
})

it('opens the gate for a cold isolate whose gate read is slow: D1 decides', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const isolate = anIsolate()
  const known = await timed(isolate, '/nannies/atlanta-ga', { GATE: slowGate() })
  expect(known.res.status).toBe(200)
  expect(known.body).toContain('Nannies in Atlanta, GA')
  expect(known.ms).toBeLessThan(PROMPT_MS)
  const unknown = await timed(isolate, '/nannies/nowhere-at-all-ga', { GATE: slowGate() })
  expect(unknown.res.status).toBe(404)
  expect(unknown.ms).toBeLessThan(PROMPT_MS)
  // The read, once it ends, is kept: the gate then refuses without D1.
  slow.release()
  await Promise.all([known.finished, unknown.finished])
  expect(isolate.memory.gate.value).not.toBeNull()
})

it('answers a page whose D1 reads are slow with its stored copy, or 503, promptly', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  // The page's reads; the purge store's own deadline (its rows and snapshot) is tested in
  // purge-store.test.ts and purge-snapshot.test.ts.
  const slowDb = statementFaultsEverywhere((sql) =>
    sql.includes('FROM purge')
      ? undefined
      : {
          all: async (all) => {
            await slow.wait()
            return all()
          },
        },
  )
  const cached = await settled('/pet-care/denver-co')
  // Two hours on, the copy is past fresh and past stale-while-revalidate, kept for errors only
  // (a purged copy would never come back: stale-if-error.test.ts).
  later(2 * 3_600_000)
  // An isolate with nothing in memory: every read of the page goes to the slow D1.
  const isolate = anIsolate()
  const stale = await timed(isolate, '/pet-care/denver-co', slowDb)
  expect(stale.res.headers.get('x-cache')).toBe('STALE')
  expect(sameDocument(stale.body)).toBe(sameDocument(cached.body))
  expect(stale.ms).toBeLessThan(PROMPT_MS)
  const none = await timed(isolate, '/pet-care/austin-tx', slowDb)
  expect(none.res.status).toBe(503)
  expect(none.res.headers.get('retry-after')).toBe('30')
  expect(none.ms).toBeLessThan(PROMPT_MS)
  slow.release()
  await Promise.all([stale.finished, none.finished])
})
