import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, expect, it, vi } from 'vitest'
import { forgetGenerations } from '../../src/cache/generations'
import { forgetHotPages } from '../../src/cache/hot-pages'
import { forgetGate } from '../../src/gate/gate-store'
import worker from '../../src/worker'
import { ORIGIN, PHONE, sameDocument, settled } from '../support/fetch-page'

// The gate's and the purges' KV namespaces failing, through the real worker: pages are served.

afterEach(() => {
  vi.restoreAllMocks()
  forgetGate()
  forgetGenerations()
})

it('opens the gate when its KV fails: pages are served, unknown slugs still 404 from D1', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  forgetGate()
  const gate = failing(env.GATE)
  const known = await over({ GATE: gate }, '/nannies/atlanta-ga')
  expect(known.res.status).toBe(200)
  expect(known.body).toContain('Nannies in Atlanta, GA')
  expect((await over({ GATE: gate }, '/nannies/nowhere-at-all-ga')).res.status).toBe(404)
  expect(errors.mock.calls.some(([line]) => String(line).includes('the gate is open'))).toBe(true)
})

it('serves stored pages when the purges KV fails, by their age alone', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const stored = await settled('/babysitters/austin-tx')
  expect(stored.cache).toBe('MISS')
  forgetGenerations()
  forgetHotPages()
  const purges = failing(env.PURGES)
  const hit = await over({ PURGES: purges }, '/babysitters/austin-tx')
  expect(hit.res.status).toBe(200)
  expect(hit.res.headers.get('x-cache')).toBe('HIT')
  expect(sameDocument(hit.body)).toBe(sameDocument(stored.body))
  // A page never stored renders as usual.
  const fresh = await over({ PURGES: purges }, '/nannies/austin-tx')
  expect(fresh.res.status).toBe(200)
  expect(fresh.res.headers.get('x-cache')).toBe('MISS')
  expect(
    errors.mock.calls.some(([line]) => String(line).includes('purge generations unreadable')),
  ).toBe(true)
})

/** A KV binding whose every call fails, as when KV is unreachable. */
function failing(kv: KVNamespace): KVNamespace {
  return new Proxy(kv, {
    get: (target, prop) => {
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? () => Promise.reject(new Error('KV unavailable')) : value
    },
  })
}

/** A request through the worker with some bindings replaced, its background work finished. */
async function over(bindings: Partial<Env>, path: string) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(ORIGIN + path, { headers: { 'user-agent': PHONE } }),
    { ...env, ...bindings },
    ctx,
  )
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}
