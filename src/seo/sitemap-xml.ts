// Sitemaps as the protocol has them (sitemaps.org): a sitemap index of files, each file at most
// 50,000 URLs and 50 MB, written as a stream.

export const MAX_URLS_PER_FILE = 50_000

export interface SitemapEntry {
  loc: string
  /** When the page's data last changed, as its Last-Modified says; absent where unknown. */
  lastmod?: string | null
}

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

function escapeXml(text: string): string {
  return text.replace(/[&<>'"]/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

function entry(tag: 'url' | 'sitemap', e: SitemapEntry): string {
  const lastmod = e.lastmod ? `<lastmod>${new Date(e.lastmod).toISOString()}</lastmod>` : ''
  return `<${tag}><loc>${escapeXml(e.loc)}</loc>${lastmod}</${tag}>\n`
}

/**
 * A sitemap file (`urlset`) or index (`sitemapindex`) streamed from batches of entries, so a
 * file of 50,000 URLs is never one string in memory.
 */
export function sitemapStream(
  kind: 'urlset' | 'sitemapindex',
  batches: AsyncIterable<readonly SitemapEntry[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const tag = kind === 'urlset' ? 'url' : 'sitemap'
  const iterator = batches[Symbol.asyncIterator]()
  let started = false
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(
          encoder.encode(`<?xml version="1.0" encoding="UTF-8"?>\n<${kind} xmlns="${NS}">\n`),
        )
        return
      }
      const next = await iterator.next()
      if (next.done) {
        controller.enqueue(encoder.encode(`</${kind}>\n`))
        controller.close()
        return
      }
      controller.enqueue(encoder.encode(next.value.map((e) => entry(tag, e)).join('')))
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}
