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
 * A stored page as the visitor gets it: public headers, `x-cache`, `age`, and the stored bytes
 * as they are (with the policy naming their scripts' hashes) or with this response's `nonce`
 * in place of the old one; or a 304 for a matching ETag.
 */
export function storedResponse(
  stored: HotPage,
  status: 'HIT' | 'STALE',
  now: number,
  ifNoneMatch: string | undefined,
  nonce: string,
): Response {
  const { meta } = stored
  const age = String(Math.max(0, Math.floor((now - meta.storedAt) / 1000)))
  // Only a page that exists is "not modified": a stored 404 or redirect has no ETag.
  if (meta.etag !== null && ifNoneMatchHits(ifNoneMatch, meta.etag)) {
    const headers = withoutBodyHeaders(new Headers(stored.headers))
    headers.set('x-cache', status)
    headers.set('age', age)
    return new Response(null, { status: 304, headers })
  }
  const body = meta.nonce === null ? stored.parts[0] : joinWithNonce(stored.parts, nonce)
  // The response copies the stored headers (once); only its own change after.
  const res = new Response(body, { status: stored.status, headers: stored.headers })
  res.headers.set('x-cache', status)
  res.headers.set('age', age)
  return res
}

/**
 * A 304's headers: it keeps the validators and caching headers, and drops what described the
 * body (its scripts' policy too: a 304 gets the one of a response without a document).
 */
export function withoutBodyHeaders(headers: Headers): Headers {
  for (const name of [
    'content-type',
    'content-length',
    'content-encoding',
    'content-security-policy',
  ])
    headers.delete(name)
  return headers
}
