import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { readGate } from '../../src/gate/gate-store'
import {
  ID_MISS_WINDOW_MS,
  LimitedAddresses,
  MAX_LIMITED_ADDRESSES,
} from '../../src/gate/id-misses'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, d1Reads, ORIGIN, warm, withClockStill } from '../support/fetch-page'

// The gate for ids (docs/scale.md): the gate holds no ids, so a profile or job URL is checked by
// control's directory read, and the 404s of ids are limited per address by the ID_MISSES rate
// limit (the real binding, emulated locally: thirty a minute, wrangler.toml). Reads are counted
// at the D1 binding, background work included, with the clock still so nothing kept falls due.
// Each test uses addresses of its own: the limiter's counts outlive a test.

/** ID_MISSES' limit in wrangler.toml: 404s of ids a minute per address that read D1. */
const LIMIT = 30

const built = await readGate(env.GATE)
if (!built) throw new Error('setup saved no gate')
/** Ids within the gate's margin above its watermark: the directory decides, and has none. */
const madeUp = (kind: 'provider' | 'job', i: number) => built.meta.watermarks[kind] + 50 + i
const from = (address: string) => ({ headers: { 'cf-connecting-ip': address } })

/** The minute of the wall clock, as the limiter counts (the test's clock is held still). */
const minute = () => Math.floor(vi.getRealSystemTime() / ID_MISS_WINDOW_MS)

/**
 * `n` made-up profile ids from `address(i)`, from the `first`: each one's status, statements and
 * D1 reads. Each test floods ids of its own: a 404 is stored briefly, and a stored one is served
 * before the limit is asked.
 */
async function flood(isolate: Isolate, n: number, address: (i: number) => string, first = 0) {
  const answers: { status: number; statements: number; reads: number }[] = []
  for (let i = 0; i < n; i++) {
    const path = `/p/nobody-${madeUp('provider', first + i)}`
    const { res, statements } = await isolate.statements(path, from(address(i)))
    answers.push({ status: res.status, statements: statements.length, reads: d1Reads(res) })
  }
  return answers
}

/**
 * `flood` within one minute of the wall clock: the limiter counts per minute, starting again at
 * each new one, so a flood a new minute cut in two is made again, from the addresses of the next
 * run and by a fresh isolate.
 */
async function floodInAMinute(n: number, address: (i: number, run: number) => string, ids: number) {
  for (let run = 0; ; run++) {
    const isolate = anIsolate()
    await warm(isolate)
    const started = minute()
    const answers = await flood(isolate, n, (i) => address(i, run), ids + run * n)
    if (minute() === started) return { isolate, answers, run }
  }
}

/** A real provider's id, and the path of its profile (the directory's answer to any name part). */
async function realProfile(isolate: Isolate, offset: number, address: string) {
  const row = await env.CONTROL.prepare(
    'SELECT id FROM provider_directory ORDER BY id LIMIT 1 OFFSET ?',
  )
    .bind(offset)
    .first<{ id: number }>()
  if (!row) throw new Error('no provider in the directory')
  const { res } = await isolate.settled(`/p/anyone-${row.id}`, from(address))
  expect(res.status).toBe(301)
  return { id: row.id, path: new URL(res.headers.get('location') ?? '', ORIGIN).pathname }
}

describe('the limit of 404s of ids', () => {
  it('stops reading D1 for a flood of made-up ids from one address past the limit, while another address and real ids keep working', async () => {
    await withClockStill(async () => {
      const { isolate, answers, run } = await floodInAMinute(
        LIMIT + 6,
        (_, run) => `203.0.113.${10 + run}`,
        0,
      )
      const flooding = `203.0.113.${10 + run}`
      const other = `198.51.100.${10 + run}`
      expect(answers.every((a) => a.status === 404)).toBe(true)
      // Each 404 up to the limit read the directory; the one the limit refused did too, and
      // taught the isolate: from then on not one statement, nor a read in Server-Timing.
      const read = answers.slice(0, LIMIT + 1)
      expect(read.every((a) => a.statements > 0 && a.reads > 0)).toBe(true)
      expect(answers.slice(LIMIT + 1)).toEqual(
        Array<unknown>(5).fill({ status: 404, statements: 0, reads: 0 }),
      )
      // A job's made-up id from that address too: its 404 with no read.
      const job = await isolate.statements(`/job/nothing-${madeUp('job', run)}`, from(flooding))
      expect([job.res.status, job.statements]).toEqual([404, []])

      // Another address: its made-up id is read and answered 404, a real profile served.
      const unknown = await isolate.statements(
        `/p/nobody-${madeUp('provider', 30_000)}`,
        from(other),
      )
      expect(unknown.res.status).toBe(404)
      expect(unknown.statements.some((sql) => sql.includes('provider_directory'))).toBe(true)
      const real = await realProfile(isolate, run, other)
      const page = await isolate.settled(real.path, from(other))
      expect([page.res.status, page.cache]).toEqual([200, 'MISS'])

      // The flooding address still gets a real profile the edge cache holds, with no read.
      const stored = await isolate.statements(real.path, from(flooding))
      expect([stored.res.status, stored.cache, stored.statements]).toEqual([200, 'HIT', []])
    })
  })

  it('never stores the 404 it answers with no read: a real id it named is served to everyone else', async () => {
    await withClockStill(async () => {
      const { isolate, run } = await floodInAMinute(
        LIMIT + 2,
        (_, run) => `203.0.113.${40 + run}`,
        10_000,
      )
      const flooding = `203.0.113.${40 + run}`
      const row = await env.CONTROL.prepare(
        'SELECT id FROM provider_directory ORDER BY id DESC LIMIT 1 OFFSET ?',
      )
        .bind(run)
        .first<{ id: number }>()
      const path = `/p/anyone-${row?.id ?? 0}`
      // Unread, the limited address gets the kept 404 page: a 404 no one keeps, never indexed.
      const unread = await isolate.statements(path, from(flooding))
      expect(unread.res.status).toBe(404)
      expect(unread.statements).toEqual([])
      expect(unread.cache).toBe('BYPASS')
      expect(unread.res.headers.get('cache-control')).toBe('no-store')
      expect(unread.res.headers.get('x-robots-tag')).toBe('noindex')
      expect(unread.body).toContain('<meta name="robots" content="noindex"')
      // The same URL from anyone else: the directory read, and the provider's redirect.
      const again = await isolate.settled(path, from(`198.51.100.${40 + run}`))
      expect(again.res.status).toBe(301)
    })
  })

  it('limits a whole IPv6 /64, not one address at a time', async () => {
    await withClockStill(async () => {
      const { isolate, answers, run } = await floodInAMinute(
        LIMIT + 3,
        (i, run) => `2001:db8:46:${2 * run}::${i + 1}`,
        20_000,
      )
      expect(answers.slice(LIMIT + 1).map((a) => a.statements)).toEqual([0, 0])
      // Another /64 is counted apart.
      const apart = await isolate.statements(
        `/p/nobody-${madeUp('provider', 30_001)}`,
        from(`2001:db8:46:${2 * run + 1}::1`),
      )
      expect(apart.res.status).toBe(404)
      expect(apart.statements.length).toBeGreaterThan(0)
    })
  })

  it('never counts a real id: a crawler of real profiles is never limited', async () => {
    await withClockStill(async () => {
      const isolate = anIsolate()
      await warm(isolate)
      const ids = await env.CONTROL.prepare('SELECT id FROM provider_directory ORDER BY id LIMIT ?')
        .bind(LIMIT + 5)
        .raw<[number]>()
      expect(ids.length).toBe(LIMIT + 5)
      const statuses = new Set<number>()
      for (const [id] of ids) {
        const { res } = await isolate.settled(`/p/anyone-${id}`, from('192.0.2.61'))
        statuses.add(res.status)
      }
      expect([...statuses]).toEqual([301])
      const made = await isolate.statements(
        `/p/nobody-${madeUp('provider', 30_002)}`,
        from('192.0.2.61'),
      )
      expect(made.res.status).toBe(404)
      expect(made.statements.length).toBeGreaterThan(0)
    })
  })

  it('keeps addresses past the limit for one window, and at most MAX_LIMITED_ADDRESSES of them', () => {
    const limited = new LimitedAddresses()
    limited.add('ipv4:203.0.113.1', 0)
    expect(limited.has('ipv4:203.0.113.1', ID_MISS_WINDOW_MS - 1)).toBe(true)
    expect(limited.has('ipv4:203.0.113.1', ID_MISS_WINDOW_MS)).toBe(false)
    expect(limited.size).toBe(0)
    for (let i = 0; i <= MAX_LIMITED_ADDRESSES; i++) limited.add(`ipv4:${i}`, 1)
    expect(limited.size).toBe(MAX_LIMITED_ADDRESSES)
    // The oldest went first.
    expect([limited.has('ipv4:0', 2), limited.has(`ipv4:${MAX_LIMITED_ADDRESSES}`, 2)]).toEqual([
      false,
      true,
    ])
  })
})
