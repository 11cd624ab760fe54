import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setCookie } from 'hono/cookie'
import { pageKey } from '../../src/cache/cache-key'
import type { Rerender } from '../../src/cache/edge-cache'
import { edgeCache } from '../../src/cache/edge-cache'
import type { EntryMeta } from '../../src/cache/entry-meta'
import { POLICIES } from '../../src/cache/policies'
import { FLAGS } from '../../src/flags/definitions'
import { routedPage } from '../../src/pages'
import {
  anIsolate,
  cardLinks,
  fetchPage,
  GOOGLEBOT,
  ORIGIN,
  page,
  PHONE,
  settled,
  sameDocument,
} from '../support/fetch-page'
import worker from '../../src/worker'
import { onEntityShard } from '../support/builders'

async function purge(
  body: unknown,
  token = 'test-ops-token',
  headers: Record<string, string> = {},
) {
  return exports.default.fetch(
    new Request(`${ORIGIN}/__ops/purge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )
}

/** The cache key of a page, for the variant a default visitor gets there. */
async function keyOf(path: string): Promise<string> {
  const variant = (await fetchPage(path)).headers.get('x-variant') ?? ''
  const { pathname, searchParams } = new URL(ORIGIN + path)
  const routed = routedPage(pathname)
  if (!routed) throw new Error(`no page row routes ${pathname}`)
  const key = pageKey(
    routed,
    ORIGIN,
    pathname,
    searchParams,
    (name) => FLAGS[name].default,
    variant,
  )
  if (key === null) throw new Error(`no key: the page refuses the query of ${path}`)
  return key
}

/** The stored copy of a page, for the variant a default visitor gets. */
async function storedCopy(path: string): Promise<Response | undefined> {
  return caches.default.match(await keyOf(path))
}

/** The highest id of `table`: an id above it is unknown, but may be added before the next gate. */
async function newestId(table: 'providers' | 'jobs'): Promise<number> {
  return (
    (
      await env.CONTROL.prepare(
        `SELECT MAX(id) AS id FROM ${table === 'providers' ? 'provider_directory' : 'job_directory'}`,
      ).first<{ id: number }>()
    )?.id ?? 0
  )
}

/** Eight device ids (care_did) starting with `prefix`. */
const devices = (prefix: string) =>
  Array.from({ length: 8 }, (_, i) => `${prefix}-3333-4333-8333-${String(i).padStart(12, '0')}`)

afterEach(async () => {
  vi.restoreAllMocks()
  await env.FLAGS.delete('flags')
})

describe('the edge cache', () => {
  it('renders once, then serves the stored page with its ETag and caching headers', async () => {
    const first = await settled('/nannies/austin-tx')
    const second = await settled('/nannies/austin-tx')
    expect([first.cache, second.cache]).toEqual(['MISS', 'HIT'])
    expect(sameDocument(second.body)).toBe(sameDocument(first.body))
    // The render streams before its digest is known: the stored copy carries the ETag.
    expect(first.res.headers.has('etag')).toBe(false)
    expect(second.res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]{32}"$/)
    // Its policy, kept from shared caches while the response sets the visitor's cookies.
    expect(second.res.headers.get('cache-control')).toBe(
      'private, max-age=0, stale-while-revalidate=3600, stale-if-error=604800',
    )
    const prefetched = await settled('/nannies/austin-tx', { headers: { purpose: 'prefetch' } })
    expect(prefetched.cache).toBe('HIT')
    expect(prefetched.res.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=600, stale-while-revalidate=3600, stale-if-error=604800',
    )
    const providers = cardLinks(first.body).map((href) => `provider:${/(\d+)$/.exec(href)?.[1]}`)
    expect(providers.length).toBeGreaterThan(0)
    expect(second.res.headers.get('cache-tag')).toBe(
      ['page:seoSearchListing', 'service:nannies', 'city:austin-tx', ...providers].join(','),
    )
    expect(second.res.headers.get('last-modified')).toMatch(/GMT$/)
  })

  it('answers a matching If-None-Match (a list, weakly compared, or *) with 304, and HEAD from the GET entry', async () => {
    await settled('/tutors/austin-tx')
    const { res } = await settled('/tutors/austin-tx')
    const etag = res.headers.get('etag') ?? ''
    const revalidated = await fetchPage('/tutors/austin-tx', { headers: { 'if-none-match': etag } })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get('etag')).toBe(etag)
    expect(await revalidated.text()).toBe('')
    for (const header of [`"older", ${etag}`, etag.replace(/^W\//, ''), '*']) {
      const listed = await fetchPage('/tutors/austin-tx', { headers: { 'if-none-match': header } })
      expect([header, listed.status]).toEqual([header, 304])
    }
    const other = await fetchPage('/tutors/austin-tx', {
      headers: { 'if-none-match': 'W/"x", "y"' },
    })
    expect(other.status).toBe(200)
    const head = await fetchPage('/tutors/austin-tx', { method: 'HEAD' })
    expect(head.headers.get('x-cache')).toBe('HIT')
    expect(await head.text()).toBe('')
  })

  it('keys on the parameters that change the page, never on tracking ones or their order', async () => {
    await settled('/babysitters/boston-ma?distance=10&availability=monday,friday')
    const same = await settled(
      '/babysitters/boston-ma?availability=friday&availability=monday&utm_source=mail&distance=10&gclid=1',
    )
    expect(same.cache).toBe('HIT')
    expect((await settled('/babysitters/boston-ma?distance=5')).cache).toBe('MISS')
  })

  it('keys on PUBLIC_ORIGIN: a page stored from a request to another host is the one served on every host', async () => {
    const path = '/day-care/denver-co'
    const elsewhere = await settled(`https://care-landing.example.workers.dev${path}`)
    expect(elsewhere.cache).toBe('MISS')
    expect(await storedCopy(path)).toBeDefined()
    for (const other of [path, `https://care.example.net${path}`]) {
      const { cache, body } = await settled(other)
      expect([other, cache]).toEqual([other, 'HIT'])
      expect(sameDocument(body)).toBe(sameDocument(elsewhere.body))
    }
  })

  it('serves a parameter the page ignores from the same entry, whatever its value', async () => {
    // Tutors offer subjects, not services: the directory ignores `services`, so must the key.
    expect((await settled('/tutors/atlanta-ga')).cache).toBe('MISS')
    for (const value of ['a1', 'a2', crypto.randomUUID()])
      expect((await settled(`/tutors/atlanta-ga?services=${value}`)).cache).toBe('HIT')
  })

  it('stores no visitor cookie, and prefetch or data headers change nothing', async () => {
    const poison = await settled('/pet-care/boston-ma', {
      headers: {
        purpose: 'prefetch',
        'x-data-request': '1',
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-original-url': '/admin',
      },
    })
    expect(poison.cache).toBe('MISS')
    expect(poison.res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const visitor = await settled('/pet-care/boston-ma')
    expect(visitor.cache).toBe('HIT')
    expect(visitor.res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(visitor.body).not.toContain('evil.example')
    expect(visitor.res.headers.getSetCookie().map((c) => c.split('=')[0])).toEqual([
      'care_did',
      'n_vis',
    ])
    const copy = await storedCopy('/pet-care/boston-ma')
    expect(copy?.headers.has('set-cookie')).toBe(false)
    expect(copy?.headers.get('x-edge-meta')).toBeTruthy()
  })

  it('keeps each variant of the flags that shape the page apart', async () => {
    await env.FLAGS.put(
      'flags',
      JSON.stringify({
        flags: {
          rankedDirectorySorting: {
            state: 'ENABLED',
            default: true,
            rules: [{ percentage: 50, value: false }],
          },
        },
      }),
    )
    // An isolate that reads the store as it now is.
    const isolate = anIsolate()
    const first = new Map<string, string>()
    for (const id of devices('33333333')) {
      const { res, cache } = await isolate.settled('/housekeeping/boston-ma', {
        headers: { cookie: `care_did=${id}` },
      })
      const variant = res.headers.get('x-variant') ?? ''
      expect(cache).toBe(first.has(variant) ? 'HIT' : 'MISS')
      first.set(variant, id)
    }
    expect(first.size).toBe(2)
  })

  it('keeps one entry for everyone while only a flag of other pages is rolling out', async () => {
    // Guest messaging shapes profiles alone: a directory is the same page in both buckets.
    await env.FLAGS.put(
      'flags',
      JSON.stringify({
        flags: {
          embeddedGuestMessaging: { state: 'ENABLED', default: false, rules: [{ percentage: 50 }] },
        },
      }),
    )
    const isolate = anIsolate()
    const caches: (string | null)[] = []
    const variants = new Set<string>()
    for (const id of devices('44444444')) {
      const { res, cache } = await isolate.settled('/special-needs/boston-ma', {
        headers: { cookie: `care_did=${id}` },
      })
      caches.push(cache)
      variants.add(res.headers.get('x-variant') ?? '')
    }
    expect(variants.size).toBe(1)
    expect(caches).toEqual(['MISS', ...Array<string>(7).fill('HIT')])
  })

  it('stores a 404 briefly, so a flood of unknown ids costs one render each', async () => {
    // An id the gate lets through (it may be newer than the gate's build), and D1 does not know.
    const path = `/p/nobody-${(await newestId('providers')) + 2}`
    const a = await settled(path)
    const b = await settled(path, { headers: { purpose: 'prefetch' } })
    expect([a.res.status, b.res.status]).toEqual([404, 404])
    expect([a.cache, b.cache]).toEqual(['MISS', 'HIT'])
    expect(b.res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60')
  })

  it('never stores a step of the visitor flow: asked again, it is rendered again', async () => {
    for (const path of [
      '/us-subscription/segment/nonmember/babysitters?intent=rightNow',
      '/us-subscription/segment/nonmember/babysitters',
    ]) {
      const [first, second] = [await settled(path), await settled(path)]
      expect([path, first.cache, second.cache]).toEqual([path, 'BYPASS', 'BYPASS'])
      expect(second.res.headers.get('cache-control')).toMatch(/^private\b/)
      if (path.includes('intent='))
        expect(first.res.headers.getSetCookie().filter((c) => c.startsWith('csc='))).toHaveLength(1)
    }
  })

  it('never stores a response that sets a cookie, whatever its cache policy', async () => {
    // No page of the page table sets one before the edge cache: a page of the test's own, behind
    // the edge cache, in the pipeline of a fresh isolate.
    const isolate = anIsolate()
    const rerender: Rerender = async (request, bindings, ctx) =>
      isolate.app.fetch(request, bindings, ctx)
    // No row routes it, so the test decides its key, as the decision step does a row's.
    isolate.app.use('/a-page-with-a-cookie', async (c, next) => {
      c.set('decision', { ...c.get('decision'), key: `${ORIGIN}/a-page-with-a-cookie` })
      await next()
    })
    isolate.app.use('/a-page-with-a-cookie', edgeCache(POLICIES.segment, rerender))
    isolate.app.get('/a-page-with-a-cookie', (c) => {
      setCookie(c, 'choice', 'this visitor’s')
      return c.html('<p>For one visitor</p>')
    })
    const [first, second] = [
      await isolate.settled('/a-page-with-a-cookie'),
      await isolate.settled('/a-page-with-a-cookie'),
    ]
    expect([first.res.status, first.cache, second.cache]).toEqual([200, 'BYPASS', 'BYPASS'])
    expect(second.res.headers.getSetCookie().filter((c) => c.startsWith('choice='))).toHaveLength(1)
  })

  it('serves a stale page at once and refreshes it in the background, once', async () => {
    await settled('/senior-care/boston-ma')
    const key = await keyOf('/senior-care/boston-ma')
    const stored = await caches.default.match(key)
    if (!stored) throw new Error('not stored')
    // Time passes: the copy is now 20 minutes old, past fresh but within stale-while-revalidate.
    const meta = JSON.parse(stored.headers.get('x-edge-meta') ?? '{}') as EntryMeta
    const past = 20 * 60_000
    const aged = {
      ...meta,
      storedAt: meta.storedAt - past,
      freshUntil: meta.freshUntil - past,
      staleUntil: meta.staleUntil - past,
      keepUntil: meta.keepUntil - past,
    }
    const headers = new Headers(stored.headers)
    headers.set('x-edge-meta', JSON.stringify(aged))
    await caches.default.put(key, new Response(await stored.text(), { status: 200, headers }))

    // An isolate that has only the aged copy, in the Cache API.
    const isolate = anIsolate()
    const stale = await isolate.settled('/senior-care/boston-ma')
    expect(stale.cache).toBe('STALE')
    expect(stale.res.headers.get('etag')).toBe(meta.etag)
    const fresh = await isolate.settled('/senior-care/boston-ma')
    expect(fresh.cache).toBe('HIT')
    expect(fresh.res.headers.get('age')).toBe('0')
  })

  it('names a page by what it holds: one ETag from every refill and isolate, another when its data changes', async () => {
    // Rendered for a crawler, so complete: a page whose sections were still loading when the
    // shell went out holds them in the order they came, which may differ from one render to the next.
    const path = '/senior-care/denver-co'
    const crawler = { headers: { 'user-agent': GOOGLEBOT } }
    const rendered = await settled(path, crawler)
    const stored = await settled(path)
    const etag = stored.res.headers.get('etag') ?? ''
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/)
    // A crawler's render is complete before its first byte: it carries the ETag on a miss too.
    expect([rendered.cache, rendered.res.headers.get('etag')]).toEqual(['MISS', etag])
    // Rendered again by another isolate after a purge: the same page, so the same ETag.
    expect((await purge({ urls: [ORIGIN + path] })).status).toBe(200)
    const isolate = anIsolate()
    const conditional = { headers: { ...crawler.headers, 'if-none-match': etag } }
    const unchanged = await isolate.settled(path, conditional)
    expect([unchanged.res.status, unchanged.cache, unchanged.body]).toEqual([304, 'MISS', ''])
    expect(unchanged.res.headers.get('etag')).toBe(etag)
    const refilled = await isolate.settled(path)
    expect([refilled.cache, refilled.res.headers.get('etag')]).toEqual(['HIT', etag])
    const revalidated = await isolate.fetchPage(path, { headers: { 'if-none-match': etag } })
    expect([revalidated.status, await revalidated.text()]).toEqual([304, ''])

    // A card's data changes: another page, another ETag, and the old one no longer matches.
    const id = /(\d+)$/.exec(cardLinks(stored.body)[0] ?? '')?.[1] ?? ''
    await onEntityShard('provider', Number(id), (db) => [
      db
        .prepare('UPDATE providers SET headline = ? WHERE id = ?')
        .bind('A headline that changes the ETag', id),
    ])
    await purge({ tags: [`provider:${id}`] })
    const other = anIsolate()
    await other.settled(path, crawler)
    const changed = await other.settled(path)
    expect(changed.body).toContain('A headline that changes the ETag')
    expect(changed.res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]{32}"$/)
    expect(changed.res.headers.get('etag')).not.toBe(etag)
    const old = await other.fetchPage(path, { headers: { 'if-none-match': etag } })
    expect(old.status).toBe(200)
  })

  it('answers no 304 for a stored 404, which has no ETag', async () => {
    const path = `/p/nobody-${(await newestId('providers')) + 1}`
    await settled(path)
    const again = await settled(path, { headers: { 'if-none-match': '*' } })
    expect([again.res.status, again.cache]).toEqual([404, 'HIT'])
    expect(again.res.headers.has('etag')).toBe(false)
  })

  it('serves a page it stored from isolate memory, without a Cache API read', async () => {
    expect((await settled('/tutors/boston-ma')).cache).toBe('MISS')
    const match = vi.spyOn(caches.default, 'match')
    const again = await settled('/tutors/boston-ma')
    expect(again.cache).toBe('HIT')
    expect(again.body).toContain('<h1>Tutors in Boston, MA</h1>')
    expect(match).not.toHaveBeenCalled()
    // A fresh isolate reads the Cache API once, then holds the page too.
    const isolate = anIsolate()
    expect((await isolate.settled('/tutors/boston-ma')).cache).toBe('HIT')
    expect(sameDocument((await isolate.settled('/tutors/boston-ma')).body)).toBe(
      sameDocument(again.body),
    )
    expect(match).toHaveBeenCalledTimes(1)
  })

  it('stores the bytes it sent, byte for byte, with only its nonce emptied', async () => {
    const { res, body } = await settled('/babysitters/boston-ma')
    expect(res.headers.get('x-cache')).toBe('MISS')
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1]
    expect(body).toContain(`nonce="${nonce}"`)
    const stored = await (await storedCopy('/babysitters/boston-ma'))?.text()
    expect(stored).toBe(body.replaceAll(`nonce="${nonce}"`, 'nonce=""'))
  })

  it('stores a render whose visitor stopped reading after its first chunk', async () => {
    const ctx = createExecutionContext()
    const request = new Request(`${ORIGIN}/nannies/denver-co`, { headers: { 'user-agent': PHONE } })
    const res = await worker.fetch(request, env, ctx)
    expect(res.headers.get('x-cache')).toBe('MISS')
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    await reader.cancel()
    await waitOnExecutionContext(ctx)
    const stored = await (await storedCopy('/nannies/denver-co'))?.text()
    expect(stored?.trimEnd().endsWith('</html>')).toBe(true)
    expect((await settled('/nannies/denver-co')).cache).toBe('HIT')
  })

  it('serves uncached when the Cache API fails', async () => {
    vi.spyOn(caches.default, 'match').mockRejectedValue(new Error('cache offline'))
    const { res, cache } = await settled('/nannies/boston-ma')
    expect(res.status).toBe(200)
    expect(cache).toBe('BYPASS')
  })

  it('gives crawlers complete stored documents', async () => {
    await settled('/child-care/boston-ma', { headers: { 'user-agent': GOOGLEBOT } })
    const { body, cache } = await settled('/child-care/boston-ma')
    expect(cache).toBe('HIT')
    expect(body).not.toContain('<template id="B:')
  })
})

describe('purge', () => {
  it('by URL makes the next request of every form and variant of the URL a MISS', async () => {
    await settled('/nannies/seattle-wa')
    await settled('/nannies/seattle-wa?page=2')
    const res = await purge({ urls: [`${ORIGIN}/nannies/seattle-wa`] })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ purged: { urls: 1, tags: 0 }, by: 'ops' })
    expect((await settled('/nannies/seattle-wa')).cache).toBe('MISS')
    expect((await settled('/nannies/seattle-wa?page=2')).cache).toBe('MISS')
  })

  it('by tag makes every page of the tag a MISS, and no other', async () => {
    await settled('/tutors/seattle-wa')
    await settled('/local/seattle-wa')
    await settled('/tutors/denver-co')
    expect((await purge({ tags: ['city:seattle-wa'] }, 'test-ci-token')).status).toBe(200)
    expect((await settled('/tutors/seattle-wa')).cache).toBe('MISS')
    expect((await settled('/local/seattle-wa')).cache).toBe('MISS')
    expect((await settled('/tutors/denver-co')).cache).toBe('HIT')
    const log = await env.CONTROL.prepare(
      "SELECT token_name, tags, purged FROM purge_log WHERE tags LIKE '%seattle%'",
    ).first()
    expect(log).toEqual({ token_name: 'ci', tags: '["city:seattle-wa"]', purged: 1 })
  })

  it('by page:home refreshes the home page, and no other', async () => {
    await settled('/')
    await settled('/nannies')
    expect((await settled('/')).cache).toBe('HIT')
    expect((await purge({ tags: ['page:home'] })).status).toBe(200)
    expect((await settled('/')).cache).toBe('MISS')
    expect((await settled('/nannies')).cache).toBe('HIT')
  })

  it('by provider refreshes every listing that shows its card, and no other', async () => {
    const listing = await settled('/child-care/denver-co')
    const [profile = ''] = cardLinks(listing.body)
    const id = /(\d+)$/.exec(profile)?.[1] ?? ''
    await settled('/child-care/atlanta-ga')
    expect((await settled('/child-care/denver-co')).cache).toBe('HIT')
    await purge({ tags: [`provider:${id}`] })
    expect((await settled('/child-care/denver-co')).cache).toBe('MISS')
    expect((await settled('/child-care/atlanta-ga')).cache).toBe('HIT')
  })

  it("by provider shows the card's new data, though its old markup was rendered once and kept", async () => {
    const listing = await settled('/child-care/denver-co')
    const id = /(\d+)$/.exec(cardLinks(listing.body)[0] ?? '')?.[1] ?? ''
    await onEntityShard('provider', Number(id), (db) => [
      db
        .prepare('UPDATE providers SET headline = ? WHERE id = ?')
        .bind('Headline changed after the first render', id),
    ])
    await purge({ tags: [`provider:${id}`] })
    const again = await settled('/child-care/denver-co')
    expect(again.cache).toBe('MISS')
    expect(again.body).toContain('<p>Headline changed after the first render</p>')
  })

  it('by the provider service re-renders its job listings and job pages with the changed data', async () => {
    const listing = await settled('/babysitting-jobs/denver-co')
    const job = /href="(\/job\/[a-z0-9-]+-(\d+))"/.exec(listing.body)
    if (!job?.[1]) throw new Error('no job listed')
    const [, path, id] = job
    await settled(path)
    const pages = ['/babysitting-jobs/denver-co', path]
    for (const page of pages) expect([page, (await settled(page)).cache]).toEqual([page, 'HIT'])
    await onEntityShard('job', Number(id), (db) => [
      db
        .prepare('UPDATE jobs SET title = ? WHERE id = ?')
        .bind('Title changed after the first render', id),
    ])
    await purge({ tags: ['service:babysitters'] })
    for (const page of pages) {
      const again = await settled(page)
      expect([page, again.cache]).toEqual([page, 'MISS'])
      expect(again.body).toContain('Title changed after the first render')
    }
  })

  it('loses no purge when many arrive at once, and a fresh isolate reads every one', async () => {
    const cities = ['atlanta-ga', 'austin-tx', 'boston-ma', 'denver-co']
    for (const city of cities) await settled(`/personal-assistants/${city}`)
    const answers = await Promise.all(cities.map((city) => purge({ tags: [`city:${city}`] })))
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200])
    // Another isolate knows only what KV lists.
    const isolate = anIsolate()
    for (const city of cities)
      expect([city, (await isolate.settled(`/personal-assistants/${city}`)).cache]).toEqual([
        city,
        'MISS',
      ])
  })

  it("writes each purge as rows of D1's purges table, one per tag, in sequence", async () => {
    const tags = Array.from({ length: 60 }, (_, i) => `provider:${'9'.repeat(40)}${i}`)
    const before = Date.now()
    expect((await purge({ tags })).status).toBe(200)
    const { results } = await env.CONTROL.prepare(
      `SELECT seq, at, tag FROM purges WHERE tag IN (${tags.map(() => '?').join(',')}) ORDER BY seq`,
    )
      .bind(...tags)
      .all<{ seq: number; at: number; tag: string }>()
    expect(results.map((r) => r.tag).sort()).toEqual([...tags].sort())
    // One purge, one time; the sequence the isolates read from grows with each row.
    expect(new Set(results.map((r) => r.at)).size).toBe(1)
    expect(results[0]?.at).toBeGreaterThanOrEqual(before)
    expect(new Set(results.map((r) => r.seq)).size).toBe(tags.length)
  })

  it.each([
    ['a wrong token', { authorization: 'Bearer guess' }],
    ['no token', { authorization: '' }],
    ['another scheme', { authorization: 'Basic dGVzdC1vcHMtdG9rZW4=' }],
  ])('refuses %s with 401 and purges nothing', async (_, headers) => {
    await settled('/pet-care/seattle-wa')
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/__ops/purge`, {
        method: 'POST',
        headers: { ...headers, 'cf-connecting-ip': '198.51.100.1' },
        body: JSON.stringify({ tags: ['city:seattle-wa'] }),
      }),
    )
    expect(res.status).toBe(401)
    expect((await settled('/pet-care/seattle-wa')).cache).toBe('HIT')
  })

  it.each([
    [
      'a body over 16 KiB',
      JSON.stringify({ tags: Array.from({ length: 2000 }, (_, i) => `provider:${i}`) }),
      413,
    ],
    ['a body that is not JSON', '{tags:', 400],
    ['an unknown field', { tags: ['city:x'], everything: true }, 400],
    ['nothing to purge', {}, 400],
    ['a URL of another site', { urls: ['https://evil.example/nannies'] }, 400],
    ['a malformed tag', { tags: ['city atlanta'] }, 400],
  ])('refuses %s', async (_, body, status) => {
    expect((await purge(body)).status).toBe(status)
  })

  it('takes POST only', async () => {
    const res = await fetchPage('/__ops/purge')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
    expect((await page('/nannies', { method: 'POST' })).res.headers.get('allow')).toBe('GET, HEAD')
  })
})
