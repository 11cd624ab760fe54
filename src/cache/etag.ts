/**
 * The ETag of a stored page: a digest of its body with its nonce emptied (`withoutNonce` of
 * src/lib/nonce.ts), which is the body a hit sends. It names what the
 * page is made of, not when it was rendered: every refill of the same page, in any isolate or
 * location, has the same ETag, and any change of data, flags or build that changes the page
 * changes it. Weak (RFC 9110 section 8.8.1): a page rendered with the tag manager carries a
 * nonce of its own in each response, so those are not the same byte for byte.
 */
export async function contentTag(nonceFree: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', nonceFree)
  const hex = [...new Uint8Array(digest, 0, 16)].map((b) => b.toString(16).padStart(2, '0'))
  return `W/"${hex.join('')}"`
}

/**
 * Whether an `If-None-Match` header matches the stored page's ETag (RFC 9110 section 13.1.2):
 * `*` matches any stored page; otherwise a comma-separated list of entity tags, compared weakly
 * (section 8.8.3.2: the opaque tags are equal, whether either is marked `W/` or not).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  const mine = opaqueTag(etag)
  if (mine === null) return false
  for (const m of header.matchAll(ENTITY_TAG)) if (m[1] === mine) return true
  return false
}

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc never includes a DQUOTE, so a quoted tag
// may contain a comma and is still read whole.
const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g

function opaqueTag(etag: string): string | null {
  return /^(?:W\/)?"([^"]*)"$/.exec(etag)?.[1] ?? null
}
