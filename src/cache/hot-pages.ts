import type { EntryMeta } from './entry-meta'

/**
 * The most recently used stored pages, kept in this isolate's memory in front of the Cache API:
 * a hit costs no cache read and no parse. An entry holds what the Cache API's copy holds
 * (status, headers, metadata, body), the body already cut where its nonce goes
 * (src/request/nonce.ts), so freshness, purges and 304s are decided exactly as for the stored
 * copy; purges work by tag generation, which every isolate reads. Bounded in bytes, least
 * recently used first out.
 */
const MAX_BYTES = 16 * 1024 * 1024
const MAX_ENTRY_BYTES = 512 * 1024

export interface HotPage {
  status: number
  /** The stored headers, without the entry's metadata. */
  headers: [string, string][]
  meta: EntryMeta
  /** The body, cut around the nonce it was rendered with. */
  parts: Uint8Array[]
  bytes: number
}

const pages = new Map<string, HotPage>()
let bytes = 0

export function recallPage(key: string): HotPage | undefined {
  const page = pages.get(key)
  if (!page) return undefined
  // Most recently used last: Map keeps insertion order.
  pages.delete(key)
  pages.set(key, page)
  return page
}

export function rememberPage(key: string, page: HotPage): void {
  forget(key)
  if (page.bytes > MAX_ENTRY_BYTES) return
  pages.set(key, page)
  bytes += page.bytes
  for (const [oldest] of pages) {
    if (bytes <= MAX_BYTES) break
    forget(oldest)
  }
}

function forget(key: string): void {
  const page = pages.get(key)
  if (!page) return
  bytes -= page.bytes
  pages.delete(key)
}

/** Empties the memory (tests; a fresh isolate starts empty). */
export function forgetHotPages(): void {
  pages.clear()
  bytes = 0
}
