// Properties over arbitrary client input and arbitrary stored text (fast-check). Requests go
// through `settled` (the worker called directly, background work awaited) so thousands of them
// stay fast in one test.
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { aProvider, cityId } from '../support/builders'
import { canonicalOf, jsonLd, ORIGIN, sameDocument, settled } from '../support/fetch-page'

const RUNS = 3_000

/** Characters that break naive parsers, and any others. */
const hostileChar = fc.oneof(
  fc.constantFrom('%', '\\', ';', '..', '\0', '/', '?', '#', '&', '=', '+', '%2F', '%00', '%ZZ'),
  fc.constantFrom('é', 'ß', '\u2028', '😀', '\uFEFF', ' ', '\t', '\n', '<', '"', "'"),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
)
const hostile = fc.array(hostileChar, { maxLength: 12 }).map((parts) => parts.join(''))

const PREFIXES = [
  '/babysitters/',
  '/babysitters/atlanta-ga',
  '/nanny-jobs/',
  '/p/',
  '/job/',
  '/cost/nannies/',
  '/explore/d/',
  '/local/',
  '/_data/babysitters/',
  '/us-subscription/segment/nonmember/',
  '/sitemaps/',
  '/__ops/',
  '/',
]

/** A path and query built from URL-safe and hostile parts, as bytes a client could send. */
const target = fc
  .tuple(fc.constantFrom(...PREFIXES), hostile, fc.option(hostile), fc.option(hostile))
  .map(([prefix, path, key, value]) => {
    const query = key === null ? '' : `?${key}=${value ?? ''}`
    return prefix + encodeURI(path).replace(/%25/g, '%') + encodeURI(query).replace(/%25/g, '%')
  })

const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE')

/** A URL the platform would hand the worker, or null when no client can send it. */
function requestUrl(pathAndQuery: string): string | null {
  try {
    return new URL(ORIGIN + pathAndQuery).href
  } catch {
    return null
  }
}

describe('any request a client can send', () => {
  it('never throws, never answers 5xx, and redirects only on this origin', async () => {
    await fc.assert(
      fc.asyncProperty(method, target, async (verb, pathAndQuery) => {
        const url = requestUrl(pathAndQuery)
        if (url === null) return
        const { res } = await settled(url.slice(ORIGIN.length), {
          method: verb,
          ...(verb === 'POST' || verb === 'PUT' || verb === 'PATCH' ? { body: pathAndQuery } : {}),
        })
        expect(res.status).toBeLessThan(500)
        const location = res.headers.get('location')
        if (location !== null) expect(new URL(location, ORIGIN).origin).toBe(ORIGIN)
      }),
      { numRuns: RUNS },
    )
  }, 300_000)

  it('gets the same canonical link under any order or repetition of its query', async () => {
    const params = [
      ['distance', '10'],
      ['sort', 'newest'],
      ['rate', '15-20'],
      ['availability', 'monday'],
      ['utm_source', 'x'],
      ['gclid', 'y'],
    ]
    const plain = canonicalOf(
      (
        await settled(
          '/babysitters/atlanta-ga?distance=10&sort=newest&rate=15-20&availability=monday',
        )
      ).body,
    )
    expect(plain).toBe(`${ORIGIN}/babysitters/atlanta-ga`)
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(params, { minLength: params.length, maxLength: params.length }),
        fc.array(fc.nat(params.length - 1), { maxLength: 4 }),
        async (order, repeats) => {
          const pairs = [...order, ...repeats.map((i) => params[i] ?? ['page', '1'])]
          const query = pairs.map(([k, v]) => `${k}=${v}`).join('&')
          const { res, body } = await settled(`/babysitters/atlanta-ga?${query}`)
          expect(res.status).toBe(200)
          expect(canonicalOf(body)).toBe(plain)
        },
      ),
      { numRuns: 200 },
    )
  }, 120_000)
})

/** The text of an element's content as a browser reads it (React escapes five characters). */
function decode(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
}

describe('internal and framework headers', () => {
  it('change nothing a visitor gets, and never reach the cache key', async () => {
    const path = '/senior-care/atlanta-ga'
    const plain = await settled(path)
    const hostileHeaders: Record<string, string>[] = [
      { 'x-forwarded-host': 'evil.example' },
      { 'x-forwarded-proto': 'http', 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '1.2.3.4' },
      { 'x-original-url': '/__ops/purge', 'x-rewrite-url': '/__ops/purge' },
      { 'x-http-method-override': 'DELETE', 'x-method-override': 'POST' },
      { 'x-middleware-subrequest': 'middleware:middleware:middleware' },
      { 'x-nextjs-data': '1', rsc: '1', 'next-router-state-tree': '%5B%5D', 'next-action': 'x' },
      { 'x-invoke-path': '/__ops/purge', 'x-now-route-matches': '1' },
      { 'x-data-request': '1' },
      { purpose: 'prefetch', 'sec-purpose': 'prefetch' },
      { host: 'evil.example' },
    ]
    for (const headers of hostileHeaders) {
      const { res, body, cache } = await settled(path, { headers })
      expect({ headers, status: res.status, cache }).toEqual({ headers, status: 200, cache: 'HIT' })
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(sameDocument(body)).toBe(sameDocument(plain.body))
    }
  })
})

describe('any text stored in D1', () => {
  it('renders as exactly that text, in the HTML and in every JSON-LD block', async () => {
    const atlanta = await cityId('atlanta-ga')
    const text = fc.oneof(
      fc.constantFrom(
        '</script><script>alert(1)</script>',
        '<!-- not a comment -->',
        'line\u2028separator\u2029',
        '&amp; "quoted" \'single\' <b>bold</b>',
        ']]> ${x} {{y}} \\u003c',
      ),
      // Text a browser keeps as it is: no control characters, no lone surrogates, no
      // leading or trailing space.
      fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
        .map((s) => s.replace(/[\p{Cc}\uFFFD]/gu, '').trim())
        .filter((s) => s.length > 0),
    )
    await fc.assert(
      fc.asyncProperty(text, text, async (headline, bio) => {
        const p = await aProvider({ cityId: atlanta, service: 'babysitters' })
        await env.DB.prepare('UPDATE providers SET headline = ?, bio = ? WHERE id = ?')
          .bind(headline, bio, p.id)
          .run()
        const { res, body } = await settled(`/p/test-p-${p.id}`)
        expect(res.status).toBe(200)
        const shown = /<p class="headline">(.*?)<\/p>/s.exec(body)?.[1] ?? ''
        expect(decode(shown)).toBe(headline)
        expect(body).toContain(`<p>${escapeLikeReact(bio)}</p>`)
        const [profile] = jsonLd(body) as {
          mainEntity?: { jobTitle?: string; description?: string }
        }[]
        expect(profile?.mainEntity?.jobTitle).toBe(headline)
        expect(profile?.mainEntity?.description).toBe(bio)
        // No block can end its script early: the JSON-LD text holds no `<`.
        for (const m of body.matchAll(
          /<script type="application\/(?:ld\+)?json"[^>]*>(.*?)<\/script>/gs,
        ))
          expect(m[1]).not.toMatch(/<|\u2028|\u2029/)
      }),
      { numRuns: 150 },
    )
  }, 300_000)
})

function escapeLikeReact(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')
}
