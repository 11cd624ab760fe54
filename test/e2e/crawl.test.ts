// A search engine's crawl of the real `wrangler dev` over the default catalog: from /sitemap.xml,
// every 20th listed URL (and every 20th thin page of the cities named) is a complete page
// answering as the indexability rule says (scripts/crawl-site.ts states the checks). Every
// sitemap file is read whole; `npm run crawl` fetches every URL of a running server.
import { expect, inject, it } from 'vitest'
import { crawl } from '../../scripts/crawl-site'

const EVERY = 20

it('finds a deterministic sample of the sitemaps indexable, self-canonical and complete', async () => {
  const result = await crawl(inject('baseUrl'), { concurrency: 4, every: EVERY })
  expect(result.failures).toEqual([])
  expect(result.urls).toBeGreaterThan(30_000)
  expect(result.fetched).toBeGreaterThanOrEqual(Math.floor(result.urls / EVERY))
}, 400_000)
