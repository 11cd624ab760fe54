import { DATA_PREFIX } from '../urls/data-prefix'
import type { ListingState } from '../views/listing/listing-state'

/** What `/_data{path}` answered: a listing state, a missing page, or another failure. */
export type DataAnswer =
  | { kind: 'state'; state: ListingState }
  | { kind: 'not-found' }
  | { kind: 'failed'; status: number }

/** A prefetched or visited state is reused this long. */
const FRESH_MS = 30_000
const MAX_ENTRIES = 30
const cache = new Map<string, { at: number; answer: Promise<DataAnswer> }>()

/** The data URL of a listing URL: `/_data{path}?{query}` (docs/browser.md). */
export function dataUrl(url: URL): string {
  return `${DATA_PREFIX}${url.pathname}${url.search}`
}

async function request(url: URL, prefetch: boolean, signal?: AbortSignal): Promise<DataAnswer> {
  const headers: Record<string, string> = { 'x-data-request': '1' }
  if (prefetch) headers.purpose = 'prefetch'
  const res = await fetch(dataUrl(url), { headers, signal, credentials: 'same-origin' })
  if (res.status === 404) return { kind: 'not-found' }
  if (!res.ok) return { kind: 'failed', status: res.status }
  try {
    return { kind: 'state', state: (await res.json()) as ListingState }
  } catch {
    // Not JSON (a proxy's error page, a cut-off body): the page itself will say what happened.
    return { kind: 'failed', status: res.status }
  }
}

function remember(key: string, answer: Promise<DataAnswer>): void {
  cache.delete(key)
  cache.set(key, { at: Date.now(), answer })
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value ?? '')
  // Only states are kept: a failure is asked again next time.
  answer.then(
    (a) => a.kind === 'state' || cache.delete(key),
    () => cache.delete(key),
  )
}

function cached(url: URL): Promise<DataAnswer> | null {
  const hit = cache.get(dataUrl(url))
  return hit && Date.now() - hit.at < FRESH_MS ? hit.answer : null
}

/** Fetches a state ahead of a likely navigation, with the prefetch purpose (no visit counted). */
export function prefetch(url: URL): void {
  if (cached(url)) return
  remember(dataUrl(url), request(url, true))
}

/** Keeps the state being left, so going back to it needs no request. */
export function keep(url: URL, state: ListingState): void {
  remember(dataUrl(url), Promise.resolve({ kind: 'state', state }))
}

/** The state of a URL, prefetched or fetched now; rejects when `signal` aborts. */
export function loadData(url: URL, signal: AbortSignal): Promise<DataAnswer> {
  const hit = cached(url)
  if (!hit) {
    const answer = request(url, false, signal)
    remember(dataUrl(url), answer)
    return answer
  }
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error))
    hit.then(resolve, reject)
  })
}
