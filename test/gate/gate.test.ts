import {
  createScheduledController,
  createExecutionContext,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { beforeEach, describe, expect, inject, it, vi } from 'vitest'
import worker from '../../src/worker'
import { buildGate } from '../../src/gate/build-gate'
import { GATE_ERROR_RATE, GateFilter, MAX_SLUG, NEW_ID_MARGIN } from '../../src/gate/gate-filter'
import { GATE_KEY, readGate } from '../../src/gate/gate-store'
import { findCitiesAddedAfter, NEW_CITIES_MAX_AGE_MS } from '../../src/gate/new-cities'
import { aProvider, cityId, everyDatabase } from '../support/builders'
import type { App } from '../support/fetch-page'
import { anIsolate, d1Reads, statementsOnceWarm, withClockStill } from '../support/fetch-page'
import { unreachable, withStatementFaults } from '../support/with-faults'

/** The real D1, each read of a statement containing `match` answered by `answer`. */
function d1Around(
  match: string,
  answer: (read: () => Promise<unknown>, sql: string) => Promise<unknown>,
): D1Database {
  return withStatementFaults(env.CONTROL, (sql) =>
    sql.includes(match) ? { all: (read) => answer(read, sql) } : undefined,
  )
}

/** A request to `app` over `db`, its background work finished when it returns. */
async function over(app: App, db: D1Database, path: string): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://www.care.example${path}`),
    { ...env, CONTROL: db },
    ctx,
  )
  await res.body?.cancel()
  await waitOnExecutionContext(ctx)
  return res
}

describe('the gate', () => {
  // A test's cron records purges of the pages its stats touch, in control, which the next test
  // shares: an isolate that knows of a purge from the last 30 s reads the new cities again, as
  // it must after a fresh purge (src/gate/new-cities.ts), where these tests count one read. Each
  // starts with the catalog's own purges only.
  beforeEach(async () => {
    await env.CONTROL.prepare('DELETE FROM purges WHERE at > ?')
      .bind(Date.parse(inject('catalogNow')))
      .run()
  })

  it('never rejects a slug or id that is in the catalog', async () => {
    const gate = await readGate(env.GATE)
    if (!gate) throw new Error('setup saved no gate')
    const cities = await env.CONTROL.prepare('SELECT slug FROM cities').raw<[string]>()
    const providers = await env.CONTROL.prepare('SELECT id FROM provider_directory').raw<[number]>()
    const jobs = await env.CONTROL.prepare('SELECT id FROM job_directory').raw<[number]>()
    expect(cities.length).toBeGreaterThan(20)
    expect(cities.every(([slug]) => gate.has('city', slug))).toBe(true)
    expect(providers.every(([id]) => gate.has('provider', id))).toBe(true)
    expect(jobs.length).toBeGreaterThan(100)
    expect(jobs.every(([id]) => gate.has('job', id))).toBe(true)
  })

  it('holds the cities alone: its size grows with them, never with the providers', async () => {
    const cities = await env.CONTROL.prepare('SELECT COUNT(*) AS n FROM cities').first<{
      n: number
    }>()
    const before = await buildGate(env.CONTROL, new Date())
    expect([before.meta.holds, before.meta.items]).toEqual(['cities', cities?.n])
    // Ten thousand more providers in the directory: the same bits, a higher watermark.
    const first = before.meta.watermarks.provider + 1
    await env.CONTROL.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
       INSERT INTO provider_directory (id, shard, city_id, name_slug, version, updated_at)
       SELECT ? + i, 0, 1, 'many', 1, '2026-01-01' FROM n`,
    )
      .bind(first)
      .run()
    try {
      const after = await buildGate(env.CONTROL, new Date())
      expect(after.meta.items).toBe(before.meta.items)
      expect(after.bytes().byteLength).toBe(before.bytes().byteLength)
      expect(after.meta.watermarks.provider).toBe(first + 9_999)
    } finally {
      await env.CONTROL.prepare('DELETE FROM provider_directory WHERE id >= ?').bind(first).run()
    }
  })

  it('rejects slugs it has never seen, at the seed error rate', async () => {
    const gate = await readGate(env.GATE)
    if (!gate) throw new Error('setup saved no gate')
    // A slug never added passes only when every one of its hashes lands on a set bit: the
    // filter's error rate is the share of bits set, to the power of the hashes.
    let set = 0
    for (let byte of gate.bytes()) for (; byte; byte &= byte - 1) set++
    const rate = (set / gate.meta.size) ** gate.meta.hashes
    expect(rate).toBeGreaterThan(0)
    expect(rate).toBeLessThanOrEqual(GATE_ERROR_RATE)
    // And it answers as its bits say: of 20,000 unknown slugs, about two pass.
    let passed = 0
    for (let i = 0; i < 20_000; i++) if (gate.has('city', `nowhere-${i}-ga`)) passed++
    expect(passed).toBeLessThanOrEqual(Math.ceil(20_000 * GATE_ERROR_RATE * 3))
  })

  it('lets an entity added after the build through, by its id above the watermark', async () => {
    const before = await readGate(env.GATE)
    const provider = await aProvider({ cityId: await cityId('atlanta-ga'), service: 'babysitters' })
    expect(provider.id).toBeGreaterThan(before?.meta.watermarks.provider ?? Infinity)
    expect(before?.has('provider', provider.id)).toBe(true)
    const rebuilt = await buildGate(env.CONTROL, new Date())
    expect(rebuilt.meta.watermarks.provider).toBe(provider.id)
    expect(rebuilt.has('provider', provider.id)).toBe(true)
  })

  it('serves a city added after the build from the next check of new cities, and from the rebuilt gate', async () => {
    // On control and in every shard's copy, as a city's change is applied.
    for (const db of everyDatabase())
      await db
        .prepare(
          "INSERT INTO cities (id, slug, name, state_code, lat, lng, population) VALUES (1, 'newtown-ga', 'Newtown', 'GA', 33.9, -84.3, 5000)",
        )
        .run()
    await aProvider({ cityId: 1, service: 'babysitters' })
    expect((await readGate(env.GATE))?.has('city', 'newtown-ga')).toBe(false)
    // A fresh isolate has not heard of new cities yet: it asks before it refuses one.
    const isolate = anIsolate()
    const first = await isolate.statements('/babysitters/newtown-ga')
    expect(first.res.status).toBe(200)
    expect(first.statements).toContainEqual(expect.stringContaining('FROM city_additions'))

    // A new slug for a city, once this isolate checks again (a minute on, any city's request).
    for (const db of everyDatabase())
      await db.prepare("UPDATE cities SET slug = 'newtown-north-ga' WHERE id = 1").run()
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + NEW_CITIES_MAX_AGE_MS)
      await isolate.settled('/nannies/denver-co')
      expect((await isolate.settled('/babysitters/newtown-north-ga')).res.status).toBe(200)
    } finally {
      vi.useRealTimers()
    }

    const ctx = createExecutionContext()
    worker.scheduled(
      createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }),
      env,
      ctx,
    )
    await waitOnExecutionContext(ctx)
    const rebuilt = await readGate(env.GATE)
    expect(rebuilt?.has('city', 'newtown-north-ga')).toBe(true)
    expect(rebuilt?.meta.cityAdditions).toBeGreaterThan(0)
    expect((await anIsolate().settled('/babysitters/newtown-north-ga')).res.status).toBe(200)
  })

  it('waits for the check of new cities at most GATE_DEADLINE_MS before refusing a slug, then lets D1 decide', async () => {
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    let asked = 0
    const db = d1Around('city_additions', async (read) => {
      asked++
      await held
      return read()
    })
    const isolate = anIsolate()
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const ctx = createExecutionContext()
      const res = await isolate.app.fetch(
        new Request('https://www.care.example/babysitters/lemuria-ga'),
        { ...env, CONTROL: db },
        ctx,
      )
      // Answered by D1, while the one read of new cities is still waiting.
      expect([res.status, d1Reads(res), asked]).toEqual([404, 1, 1])
      await res.body?.cancel()
      // A read past its deadline is not waited for again: the next unknown slug goes to D1 at once.
      const next = await isolate.app.fetch(
        new Request('https://www.care.example/babysitters/mu-ga'),
        { ...env, CONTROL: db },
        createExecutionContext(),
      )
      expect([next.status, d1Reads(next), asked]).toEqual([404, 1, 1])
      await next.body?.cancel()
      release()
      await waitOnExecutionContext(ctx)

      // Then the gate refuses with no D1 read, and asks again at most once a minute.
      for (const path of ['/babysitters/nowhere-tx', '/nannies/denver-co', '/local/atlantis-ga'])
        await over(isolate.app, db, path)
      expect(asked).toBe(1)
      // Counted at the binding, background work included: not one statement.
      const statements: string[] = []
      const counted = withStatementFaults(db, (sql) => void statements.push(sql))
      expect((await over(isolate.app, counted, '/babysitters/nowhere-tx')).status).toBe(404)
      expect(statements).toEqual([])
      vi.setSystemTime(Date.now() + NEW_CITIES_MAX_AGE_MS)
      expect((await over(isolate.app, db, '/babysitters/nowhere-tx')).status).toBe(404)
      expect(asked).toBe(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps answering when new cities cannot be read, and says so once a minute', async () => {
    const db = d1Around('city_additions', () => Promise.reject(new Error('D1_ERROR: overloaded')))
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
    const isolate = anIsolate()
    expect((await over(isolate.app, db, '/babysitters/atlantis-ga')).status).toBe(404)
    expect((await over(isolate.app, db, '/babysitters/nowhere-tx')).status).toBe(404)
    expect((await over(isolate.app, db, '/nannies/denver-co')).status).toBe(200)
    vi.restoreAllMocks()
    expect(lines.filter((l) => l.includes('gate: new cities could not be read'))).toHaveLength(1)
  })

  it("reads new cities as one range of the city log's key", async () => {
    const asked: string[] = []
    const recording = d1Around('city_additions', (read, sql) => (asked.push(sql), read()))
    expect(await findCitiesAddedAfter(recording, Number.MAX_SAFE_INTEGER)).toEqual([])
    const { results } = await env.CONTROL.prepare(`EXPLAIN QUERY PLAN ${asked[0] ?? ''}`)
      .bind(0, 1)
      .all<{ detail: string }>()
    expect(results.map((r) => r.detail)).toEqual([
      'SEARCH city_additions USING INTEGER PRIMARY KEY (rowid>?)',
    ])
  })

  it('answers a rejected slug with no D1 statement', async () => {
    const { res, statements } = await statementsOnceWarm('/babysitters/atlantis-ga')
    expect([res.status, statements]).toEqual([404, []])
    const known = await exports.default.fetch('https://www.care.example/babysitters/atlanta-ga')
    expect(d1Reads(known)).toBeGreaterThan(0)
  })

  it('refuses a provider or job id beyond what can have been added since the build, with no D1 read once warm', async () => {
    const gate = await readGate(env.GATE)
    if (!gate) throw new Error('setup saved no gate')
    const statements: string[] = []
    const counted = withStatementFaults(env.CONTROL, (sql) => (statements.push(sql), undefined))
    const isolate = anIsolate()
    await withClockStill(async () => {
      // The first request reads what the isolate keeps: the gate, the purges, the log of ids
      // catalog sync added since the build (docs/sync.md).
      await over(isolate.worker, counted, '/nannies/denver-co')
      expect(statements).toContain(
        'SELECT slug FROM city_additions WHERE seq > ? ORDER BY seq LIMIT ?',
      )
      statements.length = 0
      const { provider, job } = gate.meta.watermarks
      for (const path of [
        `/p/nobody-${provider + NEW_ID_MARGIN + 1}`,
        `/p/nobody-${Number.MAX_SAFE_INTEGER}`,
        `/job/nothing-${job + NEW_ID_MARGIN + 1}`,
      ]) {
        const res = await over(isolate.worker, counted, path)
        expect([path, res.status, d1Reads(res)]).toEqual([path, 404, 0])
      }
      expect(statements).toEqual([])
      // Within the margin an id may be newer than the build: D1 decides.
      const near = await over(isolate.worker, counted, `/p/nobody-${provider + NEW_ID_MARGIN}`)
      expect(near.status).toBe(404)
      expect(statements.length).toBeGreaterThan(0)
    })
  })

  it('refuses no id by its size while it has no filter (open)', async () => {
    const isolate = anIsolate()
    const db = await env.CONTROL.prepare('SELECT MAX(id) AS id FROM provider_directory').first<{
      id: number
    }>()
    const far = `/p/nobody-${(db?.id ?? 0) + 10 * NEW_ID_MARGIN}`
    const res = await isolate.settled(far, {}, { GATE: unreachable(env.GATE) })
    expect(res.res.status).toBe(404)
    expect(d1Reads(res.res)).toBeGreaterThan(0)
  })

  it('stays open, letting D1 decide, when no filter has been built', async () => {
    await env.GATE.delete(GATE_KEY)
    const isolate = anIsolate()
    const res = await isolate.fetchPage('/babysitters/atlantis-ga')
    expect(res.status).toBe(404)
    expect(d1Reads(res)).toBe(1)
    expect((await isolate.fetchPage('/babysitters/atlanta-ga')).status).toBe(200)
  })

  it('round-trips through its stored bytes and metadata', () => {
    const gate = GateFilter.create(3, {
      version: 1,
      builtAt: 'now',
      watermarks: { provider: 10, job: 10 },
    })
    gate.add('city', 'a-ga')
    const copy = GateFilter.fromBytes(gate.bytes().slice().buffer, gate.meta)
    expect(copy.has('city', 'a-ga')).toBe(true)
    expect(copy.has('provider', 11)).toBe(true)
  })

  it('keeps no answer for a slug longer than any in the catalog, and knows none', () => {
    const gate = GateFilter.create(100, {
      version: 1,
      builtAt: 'now',
      watermarks: { provider: 10, job: 10 },
    })
    for (let i = 0; i < 50; i++)
      expect(gate.has('city', `${'x'.repeat(MAX_SLUG)}-${i}`)).toBe(false)
    expect(gate.answersKept).toBe(0)
    gate.has('city', 'atlanta-ga')
    expect(gate.answersKept).toBe(1)
  })

  it('keeps its answers right as it is built: a slug checked, then added, is known', () => {
    const gate = GateFilter.create(100, {
      version: 1,
      builtAt: 'now',
      watermarks: { provider: 10, job: 10 },
    })
    for (let i = 0; i < 3; i++) expect(gate.has('city', 'late-ga')).toBe(false)
    gate.add('city', 'late-ga')
    expect(gate.has('city', 'late-ga')).toBe(true)
    expect(gate.has('provider', 0)).toBe(false)
  })
})
