// Properties over arbitrary client input and arbitrary stored text (fast-check). Requests go
// through `settled` (the worker called directly, background work awaited) so thousands of them
// stay fast in one test.
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { shownText } from '../../src/lib/text-rule'
import { createElement } from 'react'
import { describe, expect, it } from 'vitest'
import { PAGE_SIZE } from '../../src/catalog/filters'
import { Document } from '../../src/views/document'
import { renderHtml } from '../../src/views/render-html'
import { Breadcrumbs } from '../../src/views/parts/breadcrumbs'
import {
  aProvider,
  cityId,
  everyDatabase,
  listInDirectory,
  onEntityShard,
  purge,
  shardOfEntity,
} from '../support/builders'
import { fromShards } from '../support/databases'
import {
  anIsolate,
  canonicalOf,
  jsonLd,
  ORIGIN,
  sameDocument,
  settled,
} from '../support/fetch-page'

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

  // Listings with every kind of filter they take, and parameters that are no filter at all.
  const listings: { path: string; params: string[][] }[] = [
    {
      path: '/babysitters/atlanta-ga',
      params: [
        ['distance', '10'],
        ['sort', 'newest'],
        ['rate', '15-20'],
        ['availability', 'monday'],
        ['utm_source', 'x'],
        ['gclid', 'y'],
      ],
    },
    {
      path: '/babysitting-jobs/atlanta-ga',
      params: [
        ['schedule', 'part-time'],
        ['rate', '15-20'],
        ['jobType', 'family'],
        ['hours', '10-20'],
        ['sort', 'newest'],
        ['utm_medium', 'x'],
      ],
    },
    {
      path: '/explore/d/robotics',
      params: [
        ['onlyCampActivities', 'true'],
        ['childCareAgeGroups', '4-5-yrs'],
        ['activityDaysOfWeek', 'monday'],
        ['activityParticipationType', 'online'],
        ['fbclid', 'x'],
      ],
    },
  ]
  for (const { path, params } of listings) {
    it(`gets the same canonical link under any order or repetition of its query: ${path}`, async () => {
      const filters = params.filter(([k]) => !/^(utm_|gclid|fbclid)/.test(k ?? ''))
      const plain = canonicalOf(
        (await settled(`${path}?${filters.map(([k, v]) => `${k}=${v}`).join('&')}`)).body,
      )
      expect(plain).toBe(ORIGIN + path)
      await fc.assert(
        fc.asyncProperty(
          fc.shuffledSubarray(params, { minLength: params.length, maxLength: params.length }),
          fc.array(fc.nat(params.length - 1), { maxLength: 4 }),
          async (order, repeats) => {
            const pairs = [...order, ...repeats.map((i) => params[i] ?? ['page', '1'])]
            const query = pairs.map(([k, v]) => `${k}=${v}`).join('&')
            const { res, body } = await settled(`${path}?${query}`)
            expect(res.status).toBe(200)
            expect(canonicalOf(body)).toBe(plain)
          },
        ),
        { numRuns: 200 },
      )
    }, 120_000)
  }
})

describe('a percent-encoded spelling of a page', () => {
  const pages = [
    '/babysitters/atlanta-ga',
    '/nanny-jobs/austin-tx',
    '/p/maria-g-12',
    '/explore/d/robotics',
    '/cost/nannies/austin-tx',
  ]
  /** `path` with the characters at `picked` (not slashes) percent-encoded, in either hex case. */
  const spelled = fc
    .tuple(
      fc.constantFrom(...pages),
      fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 6 }),
      fc.constantFrom('', '?sort=newest', '?page=2&utm_source=x'),
    )
    .map(([path, picked, query]) => {
      const chars = [...path]
      for (const [at, upper] of picked) {
        const i = at % chars.length
        const char = chars[i] ?? '/'
        if (char === '/' || char.startsWith('%')) continue
        const hex = char.charCodeAt(0).toString(16)
        chars[i] = `%${upper ? hex.toUpperCase() : hex}`
      }
      return { path, spelling: chars.join('') + query, query }
    })
    .filter(({ path, spelling, query }) => spelling !== path + query)

  it('redirects to the one canonical URL, whichever unreserved characters are encoded', async () => {
    await fc.assert(
      fc.asyncProperty(spelled, async ({ path, spelling, query }) => {
        const { res } = await settled(spelling)
        expect([spelling, res.status, res.headers.get('location')]).toEqual([
          spelling,
          301,
          path + query,
        ])
      }),
      { numRuns: 300 },
    )
  }, 120_000)
})

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

/** Text a D1 column may hold: markup, comments, separators and any graphemes. */
const storedText = fc.oneof(
  fc.constantFrom(
    '</script><script>alert(1)</script>',
    '<!-- not a comment -->',
    'line\u2028separator\u2029',
    '&amp; "quoted" \'single\' <b>bold</b>',
    ']]> ${x} {{y}} \\u003c',
  ),
  // Text a browser keeps as it is and the text rule lets in (src/lib/text-rule.ts: no control
  // characters, bidi controls, stray joiners or lone surrogates), no leading or trailing space.
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
    .map((s) => shownText(s.replace(/[\p{Cc}\uFFFD]/gu, '')).trim())
    .filter((s) => s.length > 0),
)

/** The element `<tag …>text</tag>` is in the page, its text escaped as React escapes it. */
function expectElement(html: string, open: string, text: string, close: string) {
  expect(html).toContain(`${open}${escapeLikeReact(text)}${close}`)
}

/** No JSON block can end its script early: the text of each holds no `<`. */
function expectClosedScripts(html: string) {
  for (const m of html.matchAll(/<script type="application\/(?:ld\+)?json"[^>]*>(.*?)<\/script>/gs))
    expect(m[1]).not.toMatch(/<|\u2028|\u2029/)
}

type Thing = Record<string, unknown>
const blocksOf = (html: string) => jsonLd(html) as Thing[]
const crumbNames = (html: string) =>
  (
    blocksOf(html).find((b) => b['@type'] === 'BreadcrumbList')?.itemListElement as
      { name: string }[] | undefined
  )?.map((i) => i.name) ?? []

// A run through the worker stores rows and renders a whole page (20 to 100 ms here), so those
// properties run hundreds of times; thousands of texts go through the document view itself,
// which renders every page's text, breadcrumbs and JSON-LD.
describe('any text stored in D1', () => {
  it('renders as exactly that text in the document view, its breadcrumbs and its JSON-LD', async () => {
    await fc.assert(
      fc.asyncProperty(storedText, async (text) => {
        const head = { title: text, description: text, robots: 'index', jsonLd: [{ name: text }] }
        const page = createElement(Document, {
          head,
          children: [
            createElement(Breadcrumbs, { key: 'crumbs', crumbs: [{ name: text, path: '/here' }] }),
            createElement('p', { key: 'text', className: 'headline' }, text),
          ],
        })
        const { response: res } = await renderHtml(page, {
          status: 200,
          headers: {},
          waitForAll: true,
          onStreamError: () => undefined,
        })
        const html = await res.text()
        expectElement(html, '<title>', text, '</title>')
        expectElement(html, '<li aria-current="page">', text, '</li>')
        expectElement(html, '<p class="headline">', text, '</p>')
        expect(jsonLd(html)).toEqual([{ name: text }])
        expectClosedScripts(html)
      }),
      { numRuns: 2_000 },
    )
  }, 120_000)

  it('on a profile: the name, headline, bio and a review, of a caregiver or a daycare centre', async () => {
    const atlanta = await cityId('atlanta-ga')
    let reviewId = 9_500_000
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          centre: fc.boolean(),
          name: storedText,
          headline: storedText,
          bio: storedText,
          author: storedText,
          review: storedText,
        }),
        async ({ centre, name, headline, bio, author, review }) => {
          const p = await aProvider({ cityId: atlanta, service: 'babysitters' })
          await onEntityShard('provider', p.id, (db) => [
            db
              .prepare(
                `UPDATE providers SET first_name = ?, headline = ?, bio = ?, business_type = ?,
                 business_name = ? WHERE id = ?`,
              )
              .bind(name, headline, bio, centre ? 'SMB' : 'CAREGIVER', centre ? name : null, p.id),
            db
              .prepare(
                `INSERT INTO reviews (id, provider_id, service, author, rating, ratings, body, created_at)
               VALUES (?, ?, 'babysitters', ?, 5, '{}', ?, '2026-01-02T00:00:00Z')`,
              )
              .bind(reviewId++, p.id, author, review),
          ])
          const { res, body } = await settled(`/p/test-p-${p.id}`)
          expect(res.status).toBe(200)
          const shownName = centre ? name : `${name} P.`
          expectElement(body, '<h1>', shownName, '</h1>')
          expectElement(body, '<p class="headline">', headline, '</p>')
          expectElement(body, '<p>', bio, '</p>')
          expectElement(body, '<p class="meta">★ 5 · ', author, ' · ')
          expectElement(body, '<p>', review, '</p>')
          const [entity] = blocksOf(body)
          const about = (centre ? entity : entity?.mainEntity) as Thing | undefined
          expect(about).toMatchObject({ name: shownName, description: bio })
          if (!centre) expect(about?.jobTitle).toBe(headline)
          expect(crumbNames(body).at(-1)).toBe(shownName)
          expectClosedScripts(body)
        },
      ),
      { numRuns: 150 },
    )
  }, 300_000)

  it('on a job: its title and description, in the page, its JobPosting and its breadcrumbs', async () => {
    const [template] = (
      await fromShards<{ id: number; slug: string }>(
        'SELECT id, title_slug AS slug FROM jobs WHERE valid_through > ? ORDER BY id LIMIT 1',
        new Date(Date.now() + 86_400_000).toISOString(),
      )
    ).sort((a, b) => a.id - b.id)
    if (!template) throw new Error('no open job in the test catalog')
    // Above the catalog's jobs, within the margin the gate lets ids newer than its build be.
    let jobId = 30_000
    await fc.assert(
      fc.asyncProperty(storedText, storedText, async (title, description) => {
        const id = jobId++
        const { shard, db } = await shardOfEntity('job', template.id)
        await db
          .prepare(
            `INSERT INTO jobs SELECT ?, title_slug, ?, service, job_type, employer, city_id, lat, lng, ?,
             pay_min, pay_max, pay_unit, schedule, hours_per_week, start_date, children, ages,
             requirements, rank_score, posted_at, valid_through FROM jobs WHERE id = ?`,
          )
          .bind(id, title, description, template.id)
          .run()
        await listInDirectory(shard, { jobs: [id] })
        const { res, body } = await settled(`/job/${template.slug}-${id}`)
        expect(res.status).toBe(200)
        expectElement(body, '<h1>', title, '</h1>')
        expectElement(body, '<p>', description, '</p>')
        const posting = blocksOf(body).find((b) => b['@type'] === 'JobPosting')
        expect(posting).toMatchObject({ title, description })
        expect(crumbNames(body).at(-1)).toBe(title)
        expectClosedScripts(body)
      }),
      { numRuns: 300 },
    )
  }, 300_000)

  it('on an activity listing: the name and description of an activity, in its card and its Event', async () => {
    // An activity on the first page of its keyword, dated so that the page states it as an Event.
    const row = await env.CONTROL.prepare(
      `SELECT subcategory AS keyword, MIN(id) AS id FROM activities WHERE subcategory IS NOT NULL
        GROUP BY subcategory HAVING COUNT(*) <= ? ORDER BY subcategory LIMIT 1`,
    )
      .bind(PAGE_SIZE)
      .first<{ keyword: string; id: number }>()
    if (!row) throw new Error('no small activity keyword in the test catalog')
    const { id } = row
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString()
    await env.CONTROL.prepare('UPDATE activities SET start_date = ?, end_date = ? WHERE id = ?')
      .bind(day(-1).slice(0, 10), day(60).slice(0, 10), id)
      .run()
    const path = `/explore/d/${row.keyword}`
    await fc.assert(
      fc.asyncProperty(storedText, storedText, async (name, description) => {
        await env.CONTROL.prepare('UPDATE activities SET name = ?, description = ? WHERE id = ?')
          .bind(name, description, id)
          .run()
        await purge({ urls: [path] })
        const { res, body, cache } = await settled(path)
        expect([res.status, cache]).toEqual([200, 'MISS'])
        expectElement(body, `<li class="card" id="activity-${id}"><div><h3>`, name, '</h3>')
        expectElement(body, '<p class="bio">', description, '</p>')
        const event = blocksOf(body).find((b) =>
          String((b.offers as Thing | undefined)?.url).endsWith(`#activity-${id}`),
        )
        expect(event).toMatchObject({ name, description })
        expectClosedScripts(body)
      }),
      { numRuns: 80 },
    )
  }, 300_000)

  it("on a directory: the city's name, in its breadcrumbs and its BreadcrumbList", async () => {
    const path = '/babysitters/denver-co'
    const original = await env.CONTROL.prepare(
      "SELECT name FROM cities WHERE slug = 'denver-co'",
    ).first<{
      name: string
    }>()
    try {
      await fc.assert(
        fc.asyncProperty(storedText, async (name) => {
          // On control and every shard's copy, as a city's change is applied.
          for (const db of everyDatabase())
            await db.prepare("UPDATE cities SET name = ? WHERE slug = 'denver-co'").bind(name).run()
          // Place data is kept in memory for a minute: a fresh isolate reads it again now.
          await purge({ urls: [path] })
          const { res, body } = await anIsolate().settled(path)
          expect(res.status).toBe(200)
          expectElement(body, '<li aria-current="page">', name, '</li>')
          expect(crumbNames(body).at(-1)).toBe(name)
          expectClosedScripts(body)
        }),
        { numRuns: 60 },
      )
    } finally {
      for (const db of everyDatabase())
        await db
          .prepare("UPDATE cities SET name = ? WHERE slug = 'denver-co'")
          .bind(original?.name ?? 'Denver')
          .run()
    }
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
