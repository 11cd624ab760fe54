// A search engine's crawl of the real `wrangler dev`: from /sitemap.xml, every listed URL is a
// complete, indexable, self-canonical page (scripts/crawl-site.ts states the checks).
import { expect, inject, it } from 'vitest'
import { crawl } from '../../scripts/crawl-site'

it('finds every URL of every sitemap indexable, self-canonical and complete', async () => {
  const result = await crawl(inject('baseUrl'), { concurrency: 4 })
  expect(result.failures).toEqual([])
  expect(result.fetched).toBe(result.urls)
  expect(result.urls).toBeGreaterThan(1_000)
}, 300_000)
