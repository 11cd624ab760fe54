import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { inject } from 'vitest'
import pkg from '../../package.json'
import { Hono } from 'hono'
import type { AppEnv } from '../../src/env'
import { MAX_FRAMES, MAX_LINE, RATE_LIMIT_FALLBACK_MS } from '../../src/observability/event-rules'
import { wayOut } from '../../src/request/way-out'
import { createSentry, scrub } from '../../src/observability/sentry'
import { pageContext, PAGES } from '../../src/pages'
import worker from '../../src/worker'
import { aProvider, cityId } from '../support/builders'
import { anIsolate, ORIGIN, PHONE, settled } from '../support/fetch-page'
import { statementFaultsEverywhere } from '../support/databases'

// Every test here talks to the real capture server (test/node/sentry-capture.ts) over HTTP.
const capture = inject('sentryOrigin')
const dsn = (project: number) => `${capture.replace('http://', 'http://public@')}/${project}`
// This file's own project (the capture server accepts any id but 2 to 5): every test file of the
// pool reports to project 1, and their events must not count here.
const OWN = 9

/**
 * A request through the worker (or another isolate's `settled`) reporting to this file's project,
 * background sends finished.
 */
const reported = (
  path: string,
  init: RequestInit = {},
  bindings: Partial<Env> = {},
  through = settled,
) => through(path, init, { SENTRY_DSN: dsn(OWN), ...bindings })

interface Item {
  type: string
  payload: Record<string, unknown>
  raw: string
}

/** The error and message events the capture server received for a project, whose request was `path`. */
async function received(project: number, path: string): Promise<Item[]> {
  return (await envelopeItems(project, path)).filter((i) => i.type === 'event')
}

/**
 * Every envelope item (events and traces) the capture server received for a project and path,
 * or, from `/held`, those whose sender is still waiting for an answer.
 */
async function envelopeItems(
  project: number,
  path: string,
  list: '/envelopes' | '/held' = '/envelopes',
): Promise<Item[]> {
  const res = await fetch(capture + list)
  const envelopes = await res.json<{ project: string; body: string }[]>()
  return envelopes
    .filter((e) => e.project === String(project))
    .flatMap((e) => {
      const [, itemHeader, payload] = e.body.split('\n')
      const item = {
        type: (JSON.parse(itemHeader ?? '{}') as { type: string }).type,
        payload: JSON.parse(payload ?? '{}') as Record<string, unknown>,
        raw: e.body,
      }
      const url = (item.payload.request as { url?: string } | undefined)?.url ?? ''
      return new URL(url || 'http://none/').pathname === path ? [item] : []
    })
}

/** The error events of `path` the capture server is holding without an answer (project 2). */
async function held(path: string): Promise<Item[]> {
  return (await envelopeItems(2, path, '/held')).filter((i) => i.type === 'event')
}

/** Asks again until `check` holds (a poll that ends as it does; its ceiling fails loudly). */
function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await ask()
      if (!check(value)) throw new Error(`not yet: ${JSON.stringify(value).slice(0, 200)}`)
      return value
    },
    { timeout: 10_000, interval: 50 },
  )
}

/** The real D1, except that `sql` answers `rows` (which a test may make throw when read). */
function d1Answering(match: string, rows: () => unknown[]): Partial<Env> {
  return statementFaultsEverywhere((sql) =>
    sql.includes(match) ? { all: () => Promise.resolve({ results: rows() }) } : undefined,
  )
}

beforeAll(async () => {
  // Activities pages read this table and nothing else does: without it they fail for real.
  await env.CONTROL.exec('DROP TABLE activity_stats')
})

afterEach(async () => {
  await env.FLAGS.delete('flags')
  vi.restoreAllMocks()
})

describe('error reporting', () => {
  it('sends one event for a 5xx, with the route and page type, breadcrumbs, and no cookie or IP', async () => {
    const { res, body } = await reported('/explore/d/robotics?utm_source=secret-campaign&page=1', {
      headers: {
        cookie: 'care_did=5c1d9e3a-3f3c-4d6a-9a53-7f0e0b7f2a11; csc=s%3Dadult-care',
        'cf-connecting-ip': '203.0.113.77',
      },
    })
    expect(res.status).toBe(503)
    expect(body).toContain('503: Service Unavailable')
    const events = await received(OWN, '/explore/d/robotics')
    expect(events).toHaveLength(1)
    const event = events[0]?.payload ?? {}
    expect(event).toMatchObject({
      release: pkg.version,
      environment: 'test',
      tags: {
        route: expect.stringContaining('/explore/d/:keyword') as unknown,
        pageType: 'campsAndActivities',
      },
    })
    const crumbs = (event.breadcrumbs as { category: string }[]).map((b) => b.category)
    expect(crumbs).toContain('d1')
    expect(crumbs).toContain('flags')
    const raw = events[0]?.raw ?? ''
    for (const secret of ['5c1d9e3a', 'adult-care', '203.0.113.77', 'secret-campaign'])
      expect(raw).not.toContain(secret)
    expect(raw).toContain('page=1')
  })

  it('sends the page a visitor came from without its query: the Referer as origin and path', async () => {
    await reported('/explore/d/ballet', {
      headers: {
        referer: 'https://user:pass@www.google.com/search?q=nanny+for+jane+doe+555-0100#top',
      },
    })
    const [event] = await received(OWN, '/explore/d/ballet')
    const sent = event?.payload.request as { headers?: Record<string, string> } | undefined
    expect(sent?.headers?.referer).toBe('https://www.google.com/search')
    for (const secret of ['jane', '555-0100', 'pass', '#top'])
      expect(event?.raw).not.toContain(secret)
  })

  it('sends nothing for a 404, a 400 or a headless browser', async () => {
    await reported('/explore/d/knitting')
    await reported('/explore/d/music?activityDates=never')
    const headless = await reported('/explore/d/guitar', {
      headers: {
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36',
      },
    })
    expect(headless.res.status).toBe(503)
    for (const path of ['/explore/d/knitting', '/explore/d/music', '/explore/d/guitar'])
      expect(await received(OWN, path)).toEqual([])
  })

  it('drops ignored errors: browser noise and redirects', async () => {
    const ctx = createExecutionContext()
    const sentry = createSentry({
      dsn: dsn(OWN),
      request: new Request(`${ORIGIN}/ignored`),
      waitUntil: (p) => ctx.waitUntil(p),
      environment: 'test',
      tracesSampleRate: 0,
    })
    sentry.captureException(new Error('Failed to fetch'))
    sentry.captureException(new Error('Route Cancelled'))
    sentry.captureException(new Error('NEXT_REDIRECT;replace;/elsewhere'))
    await waitOnExecutionContext(ctx)
    expect(await received(OWN, '/ignored')).toEqual([])
  })

  it('reports nothing at all without a DSN', async () => {
    const { res } = await reported('/explore/d/piano', {}, { SENTRY_DSN: '' })
    expect(res.status).toBe(503)
    for (const project of [1, 2, 3, 4])
      expect(await received(project, '/explore/d/piano')).toEqual([])
  })

  it(
    'answers while Sentry still holds the send unanswered, and gives up on the send later',
    { timeout: 20_000 },
    async () => {
      const ctx = createExecutionContext()
      const res = await worker.fetch(
        new Request(`${ORIGIN}/explore/d/violin`, { headers: { 'user-agent': PHONE } }),
        { ...env, SENTRY_DSN: dsn(2) },
        ctx,
      )
      expect(res.status).toBe(503)
      expect(await res.text()).toContain('Service Unavailable')
      // The page is complete, and Sentry has the event without having answered: a page that
      // waited for the send could only have finished once the send was abandoned.
      const holding = await eventually(
        () => held('/explore/d/violin'),
        (items) => items.length > 0,
      )
      expect(holding).toHaveLength(1)
      await waitOnExecutionContext(ctx)
      const left = await eventually(
        () => held('/explore/d/violin'),
        (items) => items.length === 0,
      )
      expect(left).toEqual([])
      expect((await received(2, '/explore/d/violin')).length).toBe(1)
    },
  )

  it('is not broken by a Sentry failing with 500', async () => {
    const { res } = await reported('/explore/d/drums', {}, { SENTRY_DSN: dsn(3) })
    expect(res.status).toBe(503)
    expect((await received(3, '/explore/d/drums')).length).toBe(1)
  })

  it('honours a 429: nothing more is sent to that DSN until Retry-After has passed', async () => {
    const first = await reported('/explore/d/choir', {}, { SENTRY_DSN: dsn(4) })
    const second = await reported('/explore/d/voice', {}, { SENTRY_DSN: dsn(4) })
    expect([first.res.status, second.res.status]).toEqual([503, 503])
    expect((await received(4, '/explore/d/choir')).length).toBe(1)
    expect(await received(4, '/explore/d/voice')).toEqual([])
  })

  it('waits the 60 s fallback (RATE_LIMIT_FALLBACK_MS) after a 429 without Retry-After, then sends again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const start = Date.now()
      await reported('/explore/d/swimming', {}, { SENTRY_DSN: dsn(5) })
      vi.setSystemTime(start + RATE_LIMIT_FALLBACK_MS - 1_000)
      await reported('/explore/d/soccer', {}, { SENTRY_DSN: dsn(5) })
      vi.setSystemTime(start + RATE_LIMIT_FALLBACK_MS + 1_000)
      await reported('/explore/d/tennis', {}, { SENTRY_DSN: dsn(5) })
    } finally {
      vi.useRealTimers()
    }
    expect((await received(5, '/explore/d/swimming')).length).toBe(1)
    expect(await received(5, '/explore/d/soccer')).toEqual([])
    expect((await received(5, '/explore/d/tennis')).length).toBe(1)
  })

  it("sends one event for an error in the page's own code, a 500, tagged with its route", async () => {
    // A date no code expects, met while React renders the profile: not storage, a bug.
    const p = await aProvider({
      cityId: await cityId('atlanta-ga'),
      service: 'babysitters',
      createdAt: 'sometime last spring',
    })
    const { res, body } = await reported(`/p/test-p-${p.id}`)
    expect(res.status).toBe(500)
    expect(body).toContain('500: Internal Server Error')
    const events = await received(OWN, `/p/test-p-${p.id}`)
    expect(events).toHaveLength(1)
    expect(events[0]?.payload).toMatchObject({
      tags: { route: '/p/:slug', pageType: 'seoProviderProfile' },
      exception: { values: [{ type: 'RangeError' }] },
    })
  })

  it('sends one event for a 5xx that no error explains, from the last step of the request', async () => {
    // A route that answers 502 by itself: only the way out can notice it.
    const app = new Hono<AppEnv>()
    app.use(wayOut)
    app.use('/babysitters/:city', pageContext(PAGES.directory))
    app.get('/babysitters/:city', (c) => c.text('upstream failed', 502))
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`${ORIGIN}/babysitters/no-such-place-tx`, { headers: { 'user-agent': PHONE } }),
      { ...env, SENTRY_DSN: dsn(OWN) },
      ctx,
    )
    expect(res.status).toBe(502)
    await waitOnExecutionContext(ctx)
    const events = await received(OWN, '/babysitters/no-such-place-tx')
    expect(events).toHaveLength(1)
    expect(events[0]?.payload).toMatchObject({
      tags: { route: '/babysitters/:city', pageType: 'seoSearchListing' },
      exception: { values: [{ value: 'HTTP 502 on /babysitters/no-such-place-tx' }] },
    })
  })

  it('sends nothing for an ignored error thrown through a route, not even as a bare 500', async () => {
    // An aborted read surfacing in the page's code: one of the messages IGNORED_ERRORS lists.
    const aborted = d1Answering('FROM provider_services', () => [
      new Proxy(
        {},
        {
          get() {
            throw new DOMException('The operation was aborted', 'AbortError')
          },
        },
      ),
    ])
    const { res } = await reported('/child-care/phoenix-az', {}, aborted)
    expect(res.status).toBe(500)
    expect(await received(OWN, '/child-care/phoenix-az')).toEqual([])
  })

  it('traces the sampled share of requests, but never a 404', async () => {
    await env.FLAGS.put(
      'flags',
      JSON.stringify({ config: { traceSampleRates: { server: 1, client: 0.05 } } }),
    )
    // An isolate that reads the store as it now is.
    const { settled: fresh } = anIsolate()
    // Other test files may trace the same page (at the default rate): count what this one adds.
    const traces = async (path: string) =>
      (await envelopeItems(OWN, path)).filter((i) => i.type === 'transaction')
    const before = (await traces('/senior-care/miami-fl')).length
    await reported('/senior-care/miami-fl', {}, {}, fresh)
    await reported('/p/nobody-999999999', {}, {}, fresh)
    const after = await traces('/senior-care/miami-fl')
    expect(after).toHaveLength(before + 1)
    expect(after.at(-1)?.payload).toMatchObject({
      tags: { status: '200', pageType: 'seoSearchListing' },
    })
    expect(await traces('/p/nobody-999999999')).toEqual([])
  })
})

describe('scrub', () => {
  it('keeps 50 frames of 1,024 characters at most, and no cookies or IP address', () => {
    const frames = Array.from({ length: 80 }, (_, i) => ({
      filename: `f${i}.js`,
      context_line: 'x'.repeat(5000),
    }))
    const event = scrub({
      exception: { values: [{ type: 'Error', value: 'y'.repeat(3000), stacktrace: { frames } }] },
      request: {
        cookies: { care_did: 'abc' },
        headers: { cookie: 'a=b', 'x-forwarded-for': '1.2.3.4', 'accept-language': 'en' },
      },
      user: { id: 'device', ip_address: '1.2.3.4' },
    })
    const kept = event.exception?.values?.[0]?.stacktrace?.frames ?? []
    expect(kept).toHaveLength(MAX_FRAMES)
    expect(kept[0]?.filename).toBe('f30.js')
    expect(kept.every((f) => (f.context_line ?? '').length === MAX_LINE)).toBe(true)
    expect(event.exception?.values?.[0]?.value).toHaveLength(MAX_LINE)
    expect(event.request).toEqual({ headers: { 'accept-language': 'en' } })
    expect(event.user).toEqual({ id: 'device' })
  })

  it('keeps only the origin and path of a Referer, and drops one that is no web address', () => {
    const referer = (value: string) =>
      scrub({ request: { headers: { referer: value } } }).request?.headers?.referer
    expect(referer('https://www.care.example/babysitters/atlanta-ga?distance=5&email=a@b.c')).toBe(
      'https://www.care.example/babysitters/atlanta-ga',
    )
    expect(referer('http://localhost:8787/p/maria-g-12#reviews')).toBe(
      'http://localhost:8787/p/maria-g-12',
    )
    expect(referer('android-app://com.google.android.gm/')).toBeUndefined()
    expect(referer('not a url ?token=1')).toBeUndefined()
  })
})

describe('request log', () => {
  it('writes one JSON line per request, with parameter names but not their values', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    await reported('/nannies/seattle-wa?distance=5&utm_source=newsletter-jane')
    expect(lines).toHaveLength(1)
    const log = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
    expect(log).toMatchObject({
      level: 'info',
      message: 'request',
      requestId: expect.any(String) as unknown,
      method: 'GET',
      path: '/nannies/seattle-wa',
      params: ['distance', 'utm_source'],
      status: 200,
      pageType: 'seoSearchListing',
      cache: 'MISS',
      bot: false,
    })
    expect(typeof log.ms).toBe('number')
    expect(lines[0]).not.toContain('newsletter-jane')
  })
})

it("gives a failed request's log lines and its error report the same id: its cf-ray", async () => {
  const lines: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
  const ray = '8f1e2d3c4b5a6978-ATL'
  const res = await reported('/explore/d/photography', { headers: { 'cf-ray': ray } })
  expect(res.res.status).toBe(503)
  const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
  expect(logged.map((l) => [l.level, l.message])).toContainEqual(['error', 'request failed'])
  expect(logged.map((l) => [l.level, l.message])).toContainEqual(['info', 'request'])
  for (const line of logged) expect(line.requestId).toBe(ray)
  const events = await received(OWN, '/explore/d/photography')
  expect(events).toHaveLength(1)
  expect(events[0]?.payload.tags).toMatchObject({ request_id: ray })
})

it("gives a failed request's log lines and its error report one made-up id without a cf-ray", async () => {
  const lines: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
  const res = await reported('/explore/d/painting')
  expect(res.res.status).toBe(503)
  const ids = new Set(lines.map((l) => (JSON.parse(l) as Record<string, unknown>).requestId))
  expect(ids.size).toBe(1)
  const [id] = ids
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  const events = await received(OWN, '/explore/d/painting')
  expect(events).toHaveLength(1)
  expect(events[0]?.payload.tags).toMatchObject({ request_id: id })
})
