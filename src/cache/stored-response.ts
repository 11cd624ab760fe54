import type { EntryMeta } from './entry-meta'
import { ifNoneMatchHits } from './etag'
import type { HotPage } from './hot-pages'
import { joinWithNonce } from '../lib/nonce'

/**
 * The metadata of a stored page this visitor may be served, or null: crawlers are never served
 * a document that needs a script to put its sections in place.
 */
export function servable(stored: HotPage | undefined, bot: boolean): EntryMeta | null {
  return stored && (stored.meta.complete || !bot) ? stored.meta : null
}

/**
 * A stored page as the visitor gets it: public headers, `x-cache`, `age`, this response's
 * nonce, or a 304 for a matching ETag.
 */
export function storedResponse(
  stored: HotPage,
  status: 'HIT' | 'STALE',
  now: number,
  ifNoneMatch: string | undefined,
  nonce: string,
): Response {
  const { meta } = stored
  const headers = new Headers(stored.headers)
  headers.set('cache-control', meta.cacheControl)
  headers.set('x-cache', status)
  headers.set('age', String(Math.max(0, Math.floor((now - meta.storedAt) / 1000))))
  // Only a page that exists is "not modified": a stored 404 or redirect has no ETag.
  if (meta.etag !== null && ifNoneMatchHits(ifNoneMatch, meta.etag)) {
    return new Response(null, { status: 304, headers: withoutBodyHeaders(headers) })
  }
  return new Response(joinWithNonce(stored.parts, nonce), { status: stored.status, headers })
}

/** A 304's headers: it keeps the validators and caching headers, and drops what described the body. */
export function withoutBodyHeaders(headers: Headers): Headers {
  for (const name of ['content-type', 'content-length', 'content-encoding']) headers.delete(name)
  return headers
}
