/**
 * The most recently used stored pages, kept in this isolate's memory in front of the Cache API:
 * a hit costs no cache read. An entry is the same stored response (body, status, headers with
 * the entry's metadata), so freshness, purges and 304s are decided exactly as for the Cache
 * API's copy; purges work by tag generation, which every isolate reads. Bounded in bytes, least
 * recently used first out.
 */
const MAX_BYTES = 16 * 1024 * 1024
const MAX_ENTRY_BYTES = 512 * 1024

interface HotPage {
  body: ArrayBuffer
  status: number
  headers: [string, string][]
}

const pages = new Map<string, HotPage>()
let bytes = 0

/** The stored response for `key`, as a new Response, or undefined. */
export function recallPage(key: string): Response | undefined {
  const page = pages.get(key)
  if (!page) return undefined
  // Most recently used last: Map keeps insertion order.
  pages.delete(key)
  pages.set(key, page)
  return new Response(page.body.slice(0), { status: page.status, headers: page.headers })
}

export function rememberPage(key: string, body: ArrayBuffer, stored: Response): void {
  forget(key)
  if (body.byteLength > MAX_ENTRY_BYTES) return
  pages.set(key, { body, status: stored.status, headers: [...stored.headers] })
  bytes += body.byteLength
  for (const [oldest] of pages) {
    if (bytes <= MAX_BYTES) break
    forget(oldest)
  }
}

function forget(key: string): void {
  const page = pages.get(key)
  if (!page) return
  bytes -= page.body.byteLength
  pages.delete(key)
}

/** Empties the memory (tests; a fresh isolate starts empty). */
export function forgetHotPages(): void {
  pages.clear()
  bytes = 0
}
