import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { vi } from 'vitest'
import { createApp, withFastPath } from '../../src/app'
import { Memory } from '../../src/memory'
import { ROUTES } from '../../src/pages'
import worker from '../../src/worker'
import { statementFaultsEverywhere } from './databases'

export const ORIGIN = 'https://www.care.example'
export const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
export const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'

/** What a request goes through: the worker's own app, or a fresh one from `anIsolate()`. */
export type App = Pick<typeof worker, 'fetch'>

/**
 * A request as a phone would send it: to `path` on ORIGIN (PUBLIC_ORIGIN), or to a whole URL on
 * another host, with that host in its `Host` header as a client's would be.
 */
function asPhone(path: string, init: RequestInit): Request {
  const headers = new Headers(init.headers)
  if (!headers.has('user-agent')) headers.set('user-agent', PHONE)
  if (!/^https?:\/\//.test(path)) return new Request(ORIGIN + path, { ...init, headers })
  if (!headers.has('host')) headers.set('host', new URL(path).host)
  return new Request(path, { ...init, headers })
}

/** A request through the real worker (app.ts and its bindings), as a phone would send it. */
export function fetchPage(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(asPhone(path, { redirect: 'manual', ...init }))
}

/**
 * A request whose background work (storing, refreshing, reporting) has finished when it returns,
 * with some bindings replaced if asked (faults are injected this way). Also the way to make many
 * requests in one test: `exports.default.fetch` slows down as requests pile up.
 */
export function settled(path: string, init: RequestInit = {}, bindings: Partial<Env> = {}) {
  return settledThrough(worker, path, init, bindings)
}

/** `settled`, through `app` (one made with other sources, say). */
export async function settledThrough(
  app: App,
  path: string,
  init: RequestInit,
  bindings: Partial<Env>,
) {
  const ctx = createExecutionContext()
  const res = await app.fetch(asPhone(path, init), { ...env, ...bindings }, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body, cache: res.headers.get('x-cache') }
}

/**
 * A fresh isolate: requests through an app of its own (`createApp()`), which has kept nothing in
 * memory yet (the flag set, the gate, purges, derived reads, stored pages), over the same storage
 * and Cache API. For a test that changes what the worker's own isolate has already read and
 * keeps: the flag store, the gate, the catalog's place data. `routes`: the page table's, or a
 * test's with its handlers wrapped.
 */
export function anIsolate(routes = ROUTES) {
  const memory = new Memory()
  const app = createApp(memory, routes)
  // As the worker serves: the fast path first, then the app (src/app.ts).
  const worker = { fetch: withFastPath(memory, app) }
  const fetchPage = (path: string, init: RequestInit = {}): Promise<Response> =>
    Promise.resolve(
      worker.fetch(asPhone(path, { redirect: 'manual', ...init }), env, createExecutionContext()),
    )
  return {
    app,
    worker,
    memory,
    fetchPage,
    page: async (path: string, init: RequestInit = {}) => {
      const res = await fetchPage(path, init)
      return { res, html: await res.text() }
    },
    settled: (path: string, init: RequestInit = {}, bindings: Partial<Env> = {}) =>
      settledThrough(worker, path, init, bindings),
    /** `settled`, with every D1 statement the request ran, its background work included. */
    statements: async (path: string, init: RequestInit = {}) => {
      const statements: string[] = []
      const bindings = statementFaultsEverywhere((sql) => void statements.push(sql))
      return { ...(await settledThrough(worker, path, init, bindings)), statements }
    },
  }
}

export type Isolate = ReturnType<typeof anIsolate>

/** A document with its nonces blanked: every response has nonces of its own. */
export function sameDocument(html: string): string {
  return html.replace(/ nonce="[^"]*"/g, ' nonce=""')
}

export async function page(path: string, init: RequestInit = {}) {
  const res = await fetchPage(path, init)
  return { res, html: await res.text() }
}

/**
 * The D1 statements a fresh isolate runs for `path` once it has served a city's page, counted at
 * the binding: every one, its background work included (the gate's check of new cities, the
 * purge store, the cities kept whole), where Server-Timing counts only the page's reads through
 * `openDb`. The city's page makes the isolate read what it reads once and keeps (the gate, the
 * flags, the new cities); the clock stands still from then on, so nothing kept falls due between
 * the requests.
 */
export async function statementsOnceWarm(path: string, init: RequestInit = {}) {
  const isolate = anIsolate()
  return withClockStill(async () => {
    await warm(isolate)
    return isolate.statements(path, init)
  })
}

/** Makes `isolate` read what it reads once and keeps (run with the clock still). */
export async function warm(isolate: ReturnType<typeof anIsolate>): Promise<void> {
  await isolate.settled('/nannies/denver-co')
  // A refused slug: new cities first read before a purge recorded within the last 30 s are
  // read again (src/gate/new-cities.ts), as once in any isolate.
  await isolate.settled('/local/nowhere-zz')
}

/** `run` with Date.now() held still (timers run as ever): nothing an isolate keeps falls due. */
export async function withClockStill<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] })
  try {
    return await run()
  } finally {
    vi.useRealTimers()
  }
}

/**
 * D1 reads the page made before it answered, from its Server-Timing header: only those through
 * `openDb`. A test that claims no read counts statements at the binding instead
 * (`statementsOnceWarm`, an isolate's `statements`).
 */
export function d1Reads(res: Response): number {
  const m = /(?:^|, )d1;dur=[\d.]+;desc="(\d+)"/.exec(res.headers.get('server-timing') ?? '')
  return m ? Number(m[1]) : 0
}

export function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? 'null') as Record<string, unknown>,
  )
}

export function canonicalOf(html: string): string | undefined {
  return /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1]
}

export function robotsOf(html: string): string | undefined {
  return /<meta name="robots" content="([^"]*)"/.exec(html)?.[1]
}

/** The profile links of the provider cards, in page order. */
export function cardLinks(html: string): string[] {
  return [...html.matchAll(/<li class="card">.*?<h3><a href="([^"]+)"/g)].map((m) => m[1] ?? '')
}

export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
}
