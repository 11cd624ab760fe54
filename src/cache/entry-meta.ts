/** What is stored beside a cached page, in its `x-edge-meta` header. */
export interface EntryMeta {
  storedAt: number
  freshUntil: number
  staleUntil: number
  keepUntil: number
  tags: string[]
  /** The ETag of a stored 200 (src/cache/etag.ts); null for other statuses, which have none. */
  etag: string | null
  /**
   * The nonce the stored body was rendered with, which each response replaces with its own; null
   * when the copy is sent as it is, its inline scripts allowed by the hashes its stored
   * Content-Security-Policy names (src/lib/script-hashes.ts).
   */
  nonce: string | null
  /** The Cache-Control the page is sent with (the stored copy carries the Cache API's own). */
  cacheControl: string
  /**
   * False when sections were still loading as the shell was sent, so the document puts them
   * in place with a script: fine for people, not for crawlers, who get a complete render.
   */
  complete: boolean
}

export type Freshness = 'fresh' | 'stale' | 'expired' | 'purged' | 'gone'

/**
 * What a stored page is worth now: served as it is (fresh), served while one render refreshes
 * it (stale), rendered again but kept for when rendering fails (expired), or never served again
 * (purged, gone).
 */
export function assess(meta: EntryMeta, now: number, newestPurge: number): Freshness {
  if (now >= meta.keepUntil) return 'gone'
  if (newestPurge >= meta.storedAt) return 'purged'
  if (now < meta.freshUntil) return 'fresh'
  if (now < meta.staleUntil) return 'stale'
  return 'expired'
}
