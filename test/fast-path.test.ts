import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { pageKey } from '../src/cache/cache-key'
import { ROUTES, routedPage } from '../src/pages'
import type { FlagName } from '../src/flags/definitions'
import { FLAGS } from '../src/flags/definitions'
import { keptKeys, keptRoutes } from '../src/fast-path'
import type { Bindings, Decision } from '../src/request/decision'
import { bucket } from '../src/flags/evaluate'
import type { Isolate } from './support/fetch-page'
import { anIsolate, GOOGLEBOT, ORIGIN, PHONE, sameDocument } from './support/fetch-page'
import { inlineScripts } from './support/inline-scripts'

// Each test runs in an isolate of its own: the fast path answers from what that isolate holds.

/** A request straight to the isolate's Hono app: the whole pipeline, never the fast path. */
async function throughPipeline(isolate: Isolate, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  if (!headers.has('user-agent')) headers.set('user-agent', PHONE)
  const ctx = createExecutionContext()
  const res = await isolate.app.fetch(new Request(ORIGIN + path, { ...init, headers }), env, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

/**
 * A request through the isolate as the worker serves it, whether the pipeline ran, and the D1
 * statements it ran (counted at the binding, background work included).
 */
async function served(
  isolate: Pick<Isolate, 'app' | 'statements'>,
  path: string,
  init: RequestInit = {},
) {
  const pipeline = vi.spyOn(isolate.app, 'fetch')
  try {
    const { res, body, cache, statements } = await isolate.statements(path, init)
    // The decision the fast path handed the pipeline with the request, if it did.
    const decided = (pipeline.mock.calls[0]?.[1] as Bindings | undefined)?.decided
    return { res, body, cache, statements, fast: pipeline.mock.calls.length === 0, decided }
  } finally {
    pipeline.mockRestore()
  }
}

/**
 * Stores `path` and serves it once through the pipeline, which then holds what the fast path
 * needs (the flag set, the gate, the purges, the page), as after any first requests.
 */
/**
 * Renders and stores `path` in `isolate`, and answers the stored copy (the one with the ETag):
 * the miss read the purges in the background, so the fast path serves it.
 */
async function warm(isolate: Isolate, path: string) {
  const first = await served(isolate, path)
  const second = await served(isolate, path)
  expect([first.cache, first.fast, second.cache, second.fast]).toEqual(['MISS', false, 'HIT', true])
  return second
}

/** A response's headers, but what differs by response: the nonce, the date, the age, cookies. */
function comparable(res: Response): [string, string][] {
  return [...res.headers]
    .filter(([name]) => !['date', 'age', 'set-cookie'].includes(name))
    .map(([name, value]) => [name, value.replace(/'nonce-[^']*'/, "'nonce-'")])
}

const cookieNames = (res: Response) => res.headers.getSetCookie().map((c) => c.split('=')[0])

const DEVICE = '22222222-2222-4222-8222-222222222222'

afterEach(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  await env.FLAGS.delete('flags')
})

describe('the fast path', () => {
  it('answers a fresh stored page without the pipeline, with the headers and document the pipeline gives', async () => {
    const isolate = anIsolate()
    await warm(isolate, '/babysitters/austin-tx')
    const fast = await served(isolate, '/babysitters/austin-tx')
    expect([fast.cache, fast.fast]).toEqual(['HIT', true])
    const slow = await throughPipeline(isolate, '/babysitters/austin-tx')
    expect(slow.res.headers.get('x-cache')).toBe('HIT')
    expect(fast.res.status).toBe(slow.res.status)
    expect(comparable(fast.res)).toEqual(comparable(slow.res))
    expect(cookieNames(fast.res)).toEqual(cookieNames(slow.res))
    expect(cookieNames(fast.res)).toEqual(['care_did', 'n_vis'])
    expect(sameDocument(fast.body)).toBe(sameDocument(slow.body))
    // The stored bytes as they are, their inline scripts allowed by the policy's hashes.
    expect(fast.body).toBe(slow.body)
    expect(fast.res.headers.get('content-security-policy')).not.toContain('nonce')
    const run = await inlineScripts(fast.res, fast.body)
    expect(run.length).toBeGreaterThan(0)
    expect(new Set(run)).toEqual(new Set(['hash']))
  })

  it('answers a matching If-None-Match with 304, and HEAD without a body, as the pipeline does', async () => {
    const isolate = anIsolate()
    const { res } = await warm(isolate, '/nannies/austin-tx')
    const etag = res.headers.get('etag') ?? ''
    const init = { headers: { 'if-none-match': etag } }
    const fast = await served(isolate, '/nannies/austin-tx', init)
    const slow = await throughPipeline(isolate, '/nannies/austin-tx', init)
    expect([fast.res.status, fast.fast]).toEqual([304, true])
    expect(comparable(fast.res)).toEqual(comparable(slow.res))
    expect(fast.res.headers.get('content-security-policy')).not.toContain('nonce')

    const head = await served(isolate, '/nannies/austin-tx', { method: 'HEAD' })
    const slowHead = await throughPipeline(isolate, '/nannies/austin-tx', { method: 'HEAD' })
    expect([head.res.status, head.fast, head.body]).toEqual([200, true, ''])
    expect(comparable(head.res)).toEqual(comparable(slowHead.res))
  })

  it('keeps the visitor: a known device id is not set again, visits are counted, a prefetch gets no cookie', async () => {
    const isolate = anIsolate()
    await warm(isolate, '/tutors/austin-tx')
    const known = await served(isolate, '/tutors/austin-tx', {
      headers: { cookie: `care_did=${DEVICE}; n_vis=3-1` },
    })
    expect(known.fast).toBe(true)
    expect(known.res.headers.getSetCookie()).toEqual([expect.stringMatching(/^n_vis=4-\d+;/)])
    const prefetch = await served(isolate, '/tutors/austin-tx', {
      headers: { 'sec-purpose': 'prefetch' },
    })
    expect([prefetch.cache, prefetch.fast]).toEqual(['HIT', true])
    expect(prefetch.res.headers.has('set-cookie')).toBe(false)
  })

  it('never serves a purged copy', async () => {
    const isolate = anIsolate()
    await warm(isolate, '/pet-care/austin-tx')
    expect((await served(isolate, '/pet-care/austin-tx')).fast).toBe(true)
    const purge = await isolate.fetchPage('/__ops/purge', {
      method: 'POST',
      headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${ORIGIN}/pet-care/austin-tx`] }),
    })
    expect(purge.status).toBe(200)
    const after = await served(isolate, '/pet-care/austin-tx')
    expect([after.cache, after.fast]).toEqual(['MISS', false])
  })

  it('misses when the variant of the flags that shape the page changes, and keys rollouts on care_did', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const isolate = anIsolate()
    await warm(isolate, '/senior-care/austin-tx')
    const before = await served(isolate, '/senior-care/austin-tx')
    expect(before.fast).toBe(true)
    // Half the devices lose ranked sorting; the isolate reads the store again after 20 s.
    await env.FLAGS.put(
      'flags',
      JSON.stringify({
        flags: {
          rankedDirectorySorting: { state: 'ENABLED', rules: [{ value: false, percentage: 50 }] },
        },
      }),
    )
    vi.setSystemTime(Date.now() + 21_000)
    const device = (inside: boolean) =>
      Array.from(
        { length: 64 },
        (_, i) => `33333333-3333-4333-8333-${String(i).padStart(12, '0')}`,
      ).find((d) => bucket('rankedDirectorySorting', d) < 50 === inside) ?? ''
    const out = { headers: { cookie: `care_did=${device(false)}` } }
    const inside = { headers: { cookie: `care_did=${device(true)}` } }
    // Outside the rollout: the same variant as before, which the pipeline re-reads the flags for.
    const kept = await served(isolate, '/senior-care/austin-tx', out)
    expect([kept.cache, kept.fast]).toEqual(['HIT', false])
    expect(kept.res.headers.get('x-variant')).toBe(before.res.headers.get('x-variant'))
    // Inside: another variant, so another key: rendered once, then answered by the fast path.
    const changed = await served(isolate, '/senior-care/austin-tx', inside)
    expect([changed.cache, changed.fast]).toEqual(['MISS', false])
    expect(changed.res.headers.get('x-variant')).not.toBe(before.res.headers.get('x-variant'))
    const again = await served(isolate, '/senior-care/austin-tx', inside)
    expect([again.cache, again.fast]).toEqual(['HIT', true])
    expect(again.res.headers.get('x-variant')).toBe(changed.res.headers.get('x-variant'))
    expect((await served(isolate, '/senior-care/austin-tx', out)).fast).toBe(true)
  })

  it('leaves to the pipeline what its memory cannot answer: a fresh isolate, a crawler with an incomplete copy, a data request', async () => {
    const isolate = anIsolate()
    const warmed = await warm(isolate, '/child-care/austin-tx')
    // The copy in memory, as if its slow sections had still been loading when it was stored.
    const url = new URL(`${ORIGIN}/child-care/austin-tx`)
    const variant = warmed.res.headers.get('x-variant') ?? ''
    const on = (name: keyof typeof FLAGS) => FLAGS[name].default
    const routed = routedPage(url.pathname)
    if (!routed) throw new Error('no row')
    const key = pageKey(routed, ORIGIN, url.pathname, url.searchParams, on, variant)
    if (key === null) throw new Error('no key')
    const stored = isolate.memory.hotPages.recall(key)
    if (!stored) throw new Error('not in memory')
    isolate.memory.hotPages.remember(key, { ...stored, meta: { ...stored.meta, complete: false } })
    const crawler = await served(isolate, '/child-care/austin-tx', {
      headers: { 'user-agent': GOOGLEBOT },
    })
    expect(crawler.fast).toBe(false)
    expect(crawler.body).not.toContain('<template id="B:')
    expect((await served(isolate, '/child-care/austin-tx')).fast).toBe(true)
    const data = await served(isolate, '/_data/child-care/austin-tx', {
      headers: { 'x-data-request': '1' },
    })
    expect(data.fast).toBe(false)
  })

  it("answers the gate's 404 with no D1 statement and the document the pipeline rendered", async () => {
    const isolate = anIsolate()
    // The clock stands still: the new cities the first request asks for stay fresh.
    vi.useFakeTimers({ toFake: ['Date'] })
    // A known city first: the isolate reads what it keeps (the gate, the purges, the new cities).
    await served(isolate, '/nannies/denver-co')
    const first = await served(isolate, '/babysitters/nowhere-zz')
    // The pipeline renders the gate's 404 once, reading no catalog: at most the new cities again,
    // when a purge newer than their first read was recorded meanwhile.
    expect([first.res.status, first.fast]).toEqual([404, false])
    expect(first.statements.filter((sql) => !sql.includes('FROM city_additions'))).toEqual([])
    const fast = await served(isolate, '/babysitters/nowhere-zz')
    expect([fast.res.status, fast.fast, fast.statements]).toEqual([404, true, []])
    expect(sameDocument(fast.body)).toBe(sameDocument(first.body))
    // Rendered with a nonce; then sent as it was kept, any inline script allowed by its hash.
    const timing = (res: Response) =>
      comparable(res).map(([n, v]) => [
        n,
        n === 'server-timing'
          ? v.replace(/[\d.]+/, '')
          : v.replace(/ 'nonce-'| 'sha256-[^']*'/g, ''),
      ])
    expect(timing(fast.res)).toEqual(timing(first.res))
    expect(fast.res.headers.get('content-security-policy')).not.toContain('nonce')
    expect(await inlineScripts(fast.res, fast.body)).not.toContain('blocked')
    expect(cookieNames(fast.res)).toEqual(['care_did', 'n_vis'])
    // Another unknown city of the same page type: the same page, still no read.
    const other = await served(isolate, '/babysitters/atlantis-tx')
    expect([other.res.status, other.fast, other.statements]).toEqual([404, true, []])
  })
})

describe('a miss the fast path leaves to the pipeline', () => {
  it("is rendered with the fast path's decisions, as the pipeline alone renders it: the response, and the copy stored under the fast path's key", async () => {
    for (const [agent, city] of [
      [PHONE, 'austin-tx'],
      [GOOGLEBOT, 'denver-co'],
    ] as const) {
      const path = `/au-pairs/${city}`
      const handing = anIsolate()
      const alone = anIsolate()
      // Each isolate then holds the flag set, the gate and the purges: the fast path decides.
      await warm(handing, `/housekeeping/${city}`)
      await warm(alone, `/errands/${city}`)
      const init = { headers: { 'user-agent': agent } }
      const handed = await served(handing, path, init)
      expect([handed.cache, handed.fast]).toEqual(['MISS', false])
      const decided = handed.decided
      expect(decided?.flags?.variant).toBe(handed.res.headers.get('x-variant'))
      expect(decided?.gate).toEqual({ known: true, crumbs: ['city may exist'] })

      // The isolates share the Cache API: the other renders the page only once it is gone.
      await caches.default.delete(decided?.key ?? '')
      const slow = await throughPipeline(alone, path, init)
      expect(slow.res.headers.get('x-cache')).toBe('MISS')
      expect(handed.res.status).toBe(slow.res.status)
      const timing = (res: Response) =>
        comparable(res).map(([n, v]) => [n, n === 'server-timing' ? v.replace(/[\d.]+/g, '') : v])
      expect(timing(handed.res)).toEqual(timing(slow.res))
      expect(cookieNames(handed.res)).toEqual(cookieNames(slow.res))
      expect(sameDocument(handed.body)).toBe(sameDocument(slow.body))
      // Stored under the key the fast path computes: the next request is its hit.
      const again = await served(handing, path, init)
      expect([again.cache, again.fast]).toEqual(['HIT', true])
    }
  })
})

describe('one decision', () => {
  it('is the same made by the fast path and handed on as made by the pipeline alone: route, gate, flags and variant, cache key', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    // A partial rollout of a flag that shapes directories: the variant depends on the device.
    await env.FLAGS.put(
      'flags',
      JSON.stringify({
        flags: {
          rankedDirectorySorting: { state: 'ENABLED', rules: [{ value: false, percentage: 50 }] },
        },
      }),
    )
    // Each row's handler records the decision the pipeline gives it, then renders as ever.
    const probed = (seen: Decision[]) =>
      ROUTES.map(({ name, path, row }) => {
        const handler: typeof row.handler = async (c, next) => {
          seen.push(c.get('decision'))
          return (await row.handler(c, next)) as Response
        }
        return { name, path, row: { ...row, handler } }
      })
    const handedSeen: Decision[] = []
    const aloneSeen: Decision[] = []
    const handing = anIsolate(probed(handedSeen))
    const alone = anIsolate(probed(aloneSeen))
    // The isolate then holds the flag set, the gate and the purges: the fast path decides. It
    // holds no page from then on, so it hands every request on.
    const known = { headers: { cookie: `care_did=${DEVICE}` } }
    await served(handing, '/housekeeping/seattle-wa', known)
    expect((await served(handing, '/housekeeping/seattle-wa', known)).fast).toBe(true)
    // Nor does either find one stored: each renders, and its row's handler sees its decision.
    for (const isolate of [handing, alone])
      vi.spyOn(isolate.memory.hotPages, 'recall').mockReturnValue(undefined)
    vi.spyOn(caches.default, 'match').mockResolvedValue(undefined)
    const devices = Array.from({ length: 8 }, (_, i) => `44444444-4444-4444-8444-00000000000${i}`)
    const cases: [string, string, string][] = [
      ['/babysitters/austin-tx', PHONE, devices[0] ?? ''],
      ['/babysitters/austin-tx', PHONE, devices[1] ?? ''],
      ['/babysitters/austin-tx', PHONE, devices[2] ?? ''],
      ['/babysitters/austin-tx?distance=5&sort=newest', PHONE, devices[3] ?? ''],
      ['/babysitters/austin-tx?page=0', PHONE, devices[4] ?? ''],
      ['/babysitters/austin-tx', GOOGLEBOT, devices[5] ?? ''],
      ['/cost/babysitters/austin-tx', PHONE, devices[6] ?? ''],
      ['/babysitters/tx', PHONE, devices[7] ?? ''],
      ['/nannies', GOOGLEBOT, devices[0] ?? ''],
    ]
    const variants = new Set<string>()
    for (const [path, agent, device] of cases) {
      const init = { headers: { 'user-agent': agent, cookie: `care_did=${device}` } }
      const handed = await served(handing, path, init)
      expect([path, handed.fast]).toEqual([path, false])
      // The pipeline took the fast path's decision itself, and decided nothing again.
      expect(handedSeen.at(-1)).toBe(handed.decided)
      await throughPipeline(alone, path, init)
      expect([path, summary(aloneSeen.at(-1))]).toEqual([path, summary(handed.decided)])
      variants.add(handed.decided?.flags?.variant ?? '')
    }
    // The rollout split the devices: the cases compared more than one variant.
    expect(variants.size).toBeGreaterThan(1)
  })
})

/** A decision's parts, as compared between two isolates (the flag sets are equal, not one). */
function summary(decision: Decision | undefined) {
  if (!decision) return undefined
  const { routed, page, gate, asker, flags, key } = decision
  return {
    route: routed && { pattern: routed.pattern, params: routed.params, gate: routed.gate },
    page,
    gate,
    asker,
    flags: flags && { evaluations: flags.evaluations, variant: flags.variant },
    key,
  }
}

describe("the fast path's kept routes and keys", () => {
  it('give what the page table and pageKey give, the first time and from memory, whatever flags a query reads', () => {
    const routes = keptRoutes(routedPage)
    const keyOf = keptKeys()
    const urls = [
      '/babysitters/atlanta-ga',
      '/babysitters/atlanta-ga?page=2&sort=rate',
      '/explore/d/music?onlyCampActivities=true',
      '/explore/d/music?onlyCampActivities=true&page=2',
      '/babysitters/atlanta-ga?page=0',
      '/nowhere/at/all',
    ]
    for (let round = 0; round < 2; round++)
      for (const text of urls)
        for (const camps of [true, false]) {
          const url = new URL(ORIGIN + text)
          const routed = routes(url.pathname)
          expect(routed).toEqual(routedPage(url.pathname))
          if (!routed) continue
          // One variant for both values: a key must follow the flag the parser read all the same.
          const on = (name: FlagName) => (name === 'campsFilter' ? camps : FLAGS[name].default)
          expect(keyOf(routed, ORIGIN, url, on, 'v')).toBe(
            pageKey(routed, ORIGIN, url.pathname, url.searchParams, on, 'v'),
          )
        }
  })
})
