import {
  createScheduledController,
  createExecutionContext,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import worker from '../../src/worker'
import { buildGate } from '../../src/gate/build-gate'
import { GateFilter } from '../../src/gate/gate-filter'
import { forgetGate, GATE_KEY, readGate } from '../../src/gate/gate-store'
import { aProvider, cityId } from '../support/builders'
import { d1Reads, fetchPage } from '../support/fetch-page'

describe('the gate', () => {
  it('never rejects a slug or id that is in the catalog', async () => {
    const gate = await readGate(env.GATE)
    if (!gate) throw new Error('setup saved no gate')
    const cities = await env.DB.prepare('SELECT slug FROM cities').raw<[string]>()
    const providers = await env.DB.prepare('SELECT id FROM providers').raw<[number]>()
    const jobs = await env.DB.prepare('SELECT id FROM jobs').raw<[number]>()
    expect(cities.length).toBeGreaterThan(20)
    expect(cities.every(([slug]) => gate.has('city', slug))).toBe(true)
    expect(providers.every(([id]) => gate.has('provider', id))).toBe(true)
    expect(jobs.length).toBeGreaterThan(100)
    expect(jobs.every(([id]) => gate.has('job', id))).toBe(true)
  })

  it('rejects slugs it has never seen, at the seed error rate', async () => {
    const gate = await readGate(env.GATE)
    if (!gate) throw new Error('setup saved no gate')
    let passed = 0
    for (let i = 0; i < 20_000; i++) if (gate.has('city', `nowhere-${i}-ga`)) passed++
    expect(passed / 20_000).toBeLessThan(0.001)
  })

  it('lets an entity added after the build through, by its id above the watermark', async () => {
    const before = await readGate(env.GATE)
    const provider = await aProvider({ cityId: await cityId('atlanta-ga'), service: 'babysitters' })
    expect(provider.id).toBeGreaterThan(before?.meta.watermarks.provider ?? Infinity)
    expect(before?.has('provider', provider.id)).toBe(true)
    const rebuilt = await buildGate(env.DB)
    expect(rebuilt.meta.watermarks.provider).toBe(provider.id)
    expect(rebuilt.has('provider', provider.id)).toBe(true)
  })

  it('serves a city added after the build once the cron has rebuilt the gate', async () => {
    await env.DB.prepare(
      "INSERT INTO cities (id, slug, name, state_code, lat, lng, population) VALUES (1, 'newtown-ga', 'Newtown', 'GA', 33.9, -84.3, 5000)",
    ).run()
    await aProvider({ cityId: 1, service: 'babysitters' })
    forgetGate()
    expect((await fetchPage('/babysitters/newtown-ga')).status).toBe(404)

    const ctx = createExecutionContext()
    worker.scheduled(
      createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }),
      env,
      ctx,
    )
    await waitOnExecutionContext(ctx)
    forgetGate()
    expect((await fetchPage('/babysitters/newtown-ga')).status).toBe(200)
  })

  it('answers a rejected slug with zero D1 reads', async () => {
    const res = await exports.default.fetch('https://www.care.example/babysitters/atlantis-ga')
    expect(res.status).toBe(404)
    expect(d1Reads(res)).toBe(0)
    const known = await exports.default.fetch('https://www.care.example/babysitters/atlanta-ga')
    expect(d1Reads(known)).toBeGreaterThan(0)
  })

  it('stays open, letting D1 decide, when no filter has been built', async () => {
    await env.GATE.delete(GATE_KEY)
    forgetGate()
    const res = await fetchPage('/babysitters/atlantis-ga')
    expect(res.status).toBe(404)
    expect(d1Reads(res)).toBe(1)
    expect((await fetchPage('/babysitters/atlanta-ga')).status).toBe(200)
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
})
