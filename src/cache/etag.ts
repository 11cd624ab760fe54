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
