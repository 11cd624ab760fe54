import { describe, expect, it } from 'vitest'
import type { RowSample } from '../scripts/sample-pages'
import { ROW_SAMPLES } from '../scripts/sample-pages'
import { pageKey } from '../src/cache/cache-key'
import { FLAGS } from '../src/flags/definitions'
import { DATA_PREFIX } from '../src/urls/data-prefix'
import { OPS_CATALOG, OPS_FLAGS, OPS_PURGE, OPS_PURGES, PATTERNS } from '../src/urls/paths'
import type { PageName, PageRow } from '../src/pages'
import { matchPage, methodsOf, pageContextOf, PAGES, routedPage } from '../src/pages'
import { fetchPage, ORIGIN } from './support/fetch-page'

/** A row's sample as a path: fixed, or the first link of its kind on the page it names. */
async function samplePath(sample: RowSample): Promise<string> {
  if (typeof sample === 'string') return sample
  const html = await (await fetchPage(sample.from)).text()
  const path = sample.link.exec(html)?.[1]
  if (!path) throw new Error(`no ${sample.link.source} link on ${sample.from}`)
  return path
}

describe('every row of the page table with a cache policy', () => {
  it.each((Object.entries(PAGES) as [PageName, PageRow][]).filter(([, row]) => row.policy))(
    '%s has sample pages, each with a cache key',
    async (name, row) => {
      const samples = ROW_SAMPLES[name] ?? []
      expect(
        samples.length,
        `ROW_SAMPLES of scripts/sample-pages.ts has no ${name}`,
      ).toBeGreaterThan(0)
      for (const sample of samples) {
        const path = await samplePath(sample)
        const paths = row.data ? [path, DATA_PREFIX + path] : [path]
        for (const routedPath of paths) {
          const routed = routedPage(routedPath)
          expect(routed?.pattern, routedPath).toBe(row.pattern)
          if (!routed) continue
          const key = pageKey(
            routed,
            ORIGIN,
            routedPath,
            new URLSearchParams(),
            (flag) => FLAGS[flag].default,
            'v',
          )
          expect(
            key,
            `${routedPath} has no cache key: every request of it would be a BYPASS`,
          ).not.toBeNull()
        }
      }
    },
  )
})

describe('the page table', () => {
  it.each([
    ['/', 'home'],
    ['/nannies', 'serviceNational'],
    ['/au-pairs', 'serviceNational'],
    ['/errands/ga', 'serviceState'],
    ['/au-pairs/atlanta-ga', 'directory'],
    ['/errands/atlanta-ga', 'directory'],
    ['/nannies/ga', 'serviceState'],
    ['/nannies/atlanta-ga', 'directory'],
    ['/_data/nannies/atlanta-ga', 'directory'],
    ['/babysitting-jobs/atlanta-ga', 'jobListing'],
    ['/local/atlanta-ga', 'cityHub'],
    ['/p/maria-g-12', 'profile'],
    ['/job/weekend-sitter-9', 'job'],
    ['/cost/babysitters', 'costNational'],
    ['/cost/babysitters/atlanta-ga', 'costCity'],
    ['/explore/d/stem', 'activities'],
    ['/adult-care', 'segment'],
    ['/us-subscription/segment/nonmember/babysitters', 'flowIntent'],
    ['/sitemap.xml', 'sitemapIndex'],
    ['/sitemaps/providers-1.xml', 'sitemapFile'],
    ['/robots.txt', 'robots'],
    ['/no/such/page', null],
  ])('%s is the page %s', (path, name) => {
    expect(matchPage('GET', path)?.name ?? null).toBe(name)
  })

  it.each([
    [
      '/babysitters/atlanta-ga',
      {
        pageType: 'seoSearchListing',
        service: 'babysitters',
        vertical: 'CHILDCARE',
        city: 'atlanta-ga',
        state: 'GA',
      },
    ],
    [
      '/senior-care/ga',
      { pageType: 'seoSearchListing', service: 'senior-care', vertical: 'SENIRCARE', state: 'GA' },
    ],
    [
      '/nanny-jobs/seattle-wa',
      {
        pageType: 'seoSearchListing',
        service: 'nannies',
        vertical: 'CHILDCARE',
        city: 'seattle-wa',
        state: 'WA',
      },
    ],
    ['/local/austin-tx', { pageType: 'seoSearchListing', city: 'austin-tx', state: 'TX' }],
    [
      '/cost/tutors/boston-ma',
      {
        pageType: 'costGuide',
        service: 'tutors',
        vertical: 'TUTORINGX',
        city: 'boston-ma',
        state: 'MA',
      },
    ],
    ['/p/maria-g-12', { pageType: 'seoProviderProfile' }],
    ['/job/nanny-needed-9', { pageType: 'seoJobDetail' }],
    ['/explore/d/robotics', { pageType: 'campsAndActivities' }],
    [
      '/au-pairs/atlanta-ga',
      {
        pageType: 'seoSearchListing',
        service: 'au-pairs',
        vertical: 'AU_PAIR',
        city: 'atlanta-ga',
        state: 'GA',
      },
    ],
    ['/errands', { pageType: 'seoSearchListing', service: 'errands', vertical: 'ERRANDS' }],
    ['/', {}],
    ['/adult-care', {}],
    ['/nowhere', {}],
  ])('targets flags on %s by what its route names', (path, target) => {
    expect(pageContextOf('GET', path).target).toEqual(target)
  })
})

describe('the methods a path answers', () => {
  it.each([
    ['/babysitters/atlanta-ga', 'GET, HEAD'],
    ['/_data/babysitters/atlanta-ga', 'GET, HEAD'],
    ['/no/such/page', 'GET, HEAD'],
    ['/p/maria-g-12', 'GET, HEAD'],
    ['/p/maria-g-12/message', 'POST'],
    ['/p/maria-g-12/message/sent', 'GET, HEAD'],
    [OPS_PURGE, 'POST'],
    [OPS_CATALOG, 'POST'],
    [OPS_PURGES, 'GET, HEAD, POST'],
    [OPS_FLAGS, 'GET, HEAD, POST'],
  ])('%s answers %s', (path, allow) => {
    expect(methodsOf(path).join(', ')).toBe(allow)
  })

  it('come from the page table: every row answers its own method at its pattern', () => {
    for (const row of Object.values<PageRow>(PAGES)) {
      const path = row.pattern.replace(/:(\w+)\{[^}]*\}|:(\w+)/g, 'a-1')
      if (row.pattern === PATTERNS.providerMessage) expect(path).toBe('/p/a-1/message')
      expect(methodsOf(path), `${row.pattern} answers ${row.method}`).toContain(row.method)
    }
  })
})
