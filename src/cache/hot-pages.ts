import type { EntryMeta } from './entry-meta'

/** What the hot pages of an isolate may hold in all, and at most in one page. */
const MAX_BYTES = 16 * 1024 * 1024
const MAX_ENTRY_BYTES = 512 * 1024

export interface HotPage {
  status: number
  /**
   * The headers a response of the page starts from: the stored ones, without the entry's
   * metadata, with the page's own Cache-Control. Never changed: each response copies them once.
   */
  headers: Headers
  meta: EntryMeta
  /** The body, cut around the nonce it was rendered with. */
  parts: Uint8Array[]
  bytes: number
}

/**
 * The most recently used stored pages, kept in an isolate's memory in front of the Cache API:
 * a hit costs no cache read and no parse. An entry holds what the Cache API's copy holds
 * (status, headers, metadata, body), the body already cut where its nonce goes
 * (src/lib/nonce.ts), so freshness, purges and 304s are decided exactly as for the stored
 * copy; purges work by tag generation, which every isolate reads. Bounded in bytes, least
 * recently used first out. One per app (src/memory.ts), by cache key.
 */
export class HotPages {
  readonly #pages = new Map<string, HotPage>()
  #bytes = 0

  recall(key: string): HotPage | undefined {
    const page = this.#pages.get(key)
    if (!page) return undefined
    // Most recently used last: Map keeps insertion order.
    this.#pages.delete(key)
    this.#pages.set(key, page)
    return page
  }

  remember(key: string, page: HotPage): void {
    this.#drop(key)
    if (page.bytes > MAX_ENTRY_BYTES) return
    this.#pages.set(key, page)
    this.#bytes += page.bytes
    for (const [oldest] of this.#pages) {
      if (this.#bytes <= MAX_BYTES) break
      this.#drop(oldest)
    }
  }

  #drop(key: string): void {
    const page = this.#pages.get(key)
    if (!page) return
    this.#bytes -= page.bytes
    this.#pages.delete(key)
  }
}
