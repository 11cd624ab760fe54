import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { POLICIES } from '../../src/cache/policies'
import { ACTIVITY_KEYWORDS } from '../../src/catalog/activities'
import { COST_GUIDE_SERVICES } from '../../src/catalog/cost-guides'
import { JOB_SERVICES } from '../../src/catalog/jobs'
import { SERVICES } from '../../src/catalog/services'
import { STATES } from '../../src/catalog/states'
import { openDb } from '../../src/data/db'
import { findBlock, packBlocksSql, CONTROL_BLOCK_TABLES } from '../../src/data/sitemap-rows'
import { Timing } from '../../src/observability/timing'
import { CHUNKS } from '../../src/routes/sitemaps'
import { MAX_URLS_PER_FILE } from '../../src/seo/sitemap-xml'
import { aProvider, purge, rebuildGate, refreshCatalogStats } from '../support/builders'
import { anIsolate, fetchPage, ORIGIN, page, settled } from '../support/fetch-page'
import { fromShards } from '../support/databases'

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '')

async function sitemapUrls(): Promise<Map<string, string | null>> {
  const index = await page('/sitemap.xml')
  const urls = new Map<string, string | null>()
  for (const file of locs(index.html)) {
    const { html } = await page(file.replace(ORIGIN, ''))
    for (const m of html.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?/g))
      urls.set(m[1] ?? '', m[2] ?? null)
  }
  return urls
}

async function providerCount(): Promise<number> {
  const row = await env.CONTROL.prepare('SELECT COUNT(*) AS n FROM provider_directory').first<{
    n: number
  }>()
  return row?.n ?? 0
}

async function cities(): Promise<{ id: number; slug: string }[]> {
  return (
    await env.CONTROL.prepare('SELECT id, slug FROM cities').all<{ id: number; slug: string }>()
  ).results
}

/** Every page a sitemap could list but profiles and jobs: each service, state, city and guide. */
async function candidatePaths(): Promise<string[]> {
  const candidates = [
    ...SERVICES.map((s) => `/${s.slug}`),
    ...SERVICES.flatMap((s) => Object.keys(STATES).map((st) => `/${s.slug}/${st.toLowerCase()}`)),
    ...COST_GUIDE_SERVICES.map((s) => `/cost/${s.slug}`),
    ...ACTIVITY_KEYWORDS.map((k) => `/explore/d/${k.slug}`),
  ]
  for (const city of await cities()) {
    candidates.push(`/local/${city.slug}`)
    for (const s of SERVICES) candidates.push(`/${s.slug}/${city.slug}`)
    for (const j of JOB_SERVICES) candidates.push(`/${j.slug}/${city.slug}`)
    for (const s of COST_GUIDE_SERVICES) candidates.push(`/cost/${s.slug}/${city.slug}`)
  }
  return candidates
}

describe('robots.txt', () => {
  it('allows pages, keeps crawlers out of /_data and /__ops, and names the sitemap index', async () => {
    const { res, html } = await page('/robots.txt', { headers: { host: 'evil.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(html).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /_data/',
        'Disallow: /__ops/',
        '',
        `Sitemap: ${ORIGIN}/sitemap.xml`,
        '',
      ].join('\n'),
    )
  })
})

describe('sitemaps', () => {
  // Job listings judge thinness on their live count of open jobs; sitemaps and links read the
  // stats, which the cron keeps current. The test catalog's were counted at its midnight.
  beforeAll(refreshCatalogStats)

  it('are an index of files on the public origin, cached at the edge', async () => {
    const first = await page('/sitemap.xml')
    expect(first.res.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(first.html).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /)
    expect(locs(first.html)).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      ...Object.keys(CHUNKS).map((kind) => `${ORIGIN}/sitemaps/${kind}-1.xml`),
    ])
    expect(first.res.headers.get('x-cache')).toBe('MISS')
    expect((await fetchPage('/sitemap.xml')).headers.get('x-cache')).toBe('HIT')
    for (const path of [
      '/sitemaps/nothing.xml',
      '/sitemaps/providers-9.xml',
      '/sitemaps/pages-1.xml',
    ])
      expect((await fetchPage(path)).status).toBe(404)
  })

  it('cannot pass 50,000 URLs in a file, whatever the catalog', async () => {
    // The most rows of a block (migrations/control/0001_control.sql), a file, times the pages of
    // a row.
    const { results } = await env.CONTROL.prepare('SELECT source, size FROM sitemap_caps').all<{
      source: string
      size: number
    }>()
    const cap = new Map(results.map((r) => [r.source, r.size]))
    const pagesPerRow: Record<keyof typeof CHUNKS, number> = {
      directories: SERVICES.length,
      'job-listings': JOB_SERVICES.length,
      hubs: 1,
      'cost-guides': COST_GUIDE_SERVICES.length,
      providers: 1,
      jobs: 1,
    }
    for (const [kind, table] of Object.entries(CHUNKS))
      expect(
        (cap.get(table) ?? Infinity) * pagesPerRow[kind as keyof typeof CHUNKS],
        kind,
      ).toBeLessThanOrEqual(MAX_URLS_PER_FILE)
  })

  it('list exactly the pages the indexability rule lets in, with their Last-Modified', async () => {
    const urls = await sitemapUrls()
    for (const path of await candidatePaths()) {
      const { res } = await settled(path)
      const listed = urls.has(ORIGIN + path)
      const indexable = res.status === 200 && res.headers.get('x-seo-gate') === 'index'
      expect({ path, listed }).toEqual({ path, listed: indexable })
      const lastmod = urls.get(ORIGIN + path)
      if (lastmod) expect(new Date(lastmod).toUTCString()).toBe(res.headers.get('last-modified'))
    }
    // City hubs and state pages are dated too: by the newest row behind them.
    const hubsAndStates = [...urls].filter(([loc]) => /\/local\/|\/[a-z]{2}$/.test(loc))
    expect(hubsAndStates.length).toBeGreaterThan(0)
    for (const [loc, lastmod] of hubsAndStates) expect(typeof lastmod, loc).toBe('string')
  }, 120_000)

  it('and open jobs closing within the day are the only pages any page links to', async () => {
    const urls = await sitemapUrls()
    // Every listed page, the listings, hubs and guides too thin to be listed (they are pages for
    // people, and their links are followed), and the pages of providers and jobs in such cities.
    // Each shard holds its own cities' stats beside their providers and jobs.
    const thin = {
      results: await fromShards<{ path: string }>(
        `SELECT '/p/' || p.name_slug || '-' || p.id AS path FROM providers p
           JOIN service_city_stats s ON s.city_id = p.city_id WHERE s.providers < 5
         UNION SELECT '/job/' || j.title_slug || '-' || j.id FROM jobs j
           JOIN job_city_stats s ON s.city_id = j.city_id AND s.service = j.service
          WHERE s.jobs < 5 AND j.valid_through > ?`,
        new Date().toISOString(),
      ),
    }
    expect(thin.results.length).toBeGreaterThan(0)
    // Listed profiles and jobs link alike: every tenth of them is enough.
    const listed = [...urls.keys()].map((u) => u.replace(ORIGIN, ''))
    const entity = (path: string) => /^\/(p|job)\//.test(path)
    const unlisted = (await candidatePaths()).filter((path) => !urls.has(ORIGIN + path))
    const pages = [
      ...listed.filter((path) => !entity(path)),
      ...unlisted,
      ...listed.filter(entity).filter((_, i) => i % 10 === 0),
      ...thin.results.map((r) => r.path),
    ]
    const linked = new Map<string, string>()
    let thinListings = 0
    for (const path of pages) {
      const { res, body } = await settled(path)
      if (res.status !== 200) continue
      if (res.headers.get('x-seo-gate') === 'noindex; reason=thin') thinListings++
      // A page's links to itself ("Clear filters") lead nowhere new.
      for (const [, href] of body.matchAll(/<a [^>]*href="(\/[^"?#]*)"/g))
        if (href && href !== path && !/^\/(us-subscription|assets)\//.test(href))
          linked.set(href, path)
    }
    expect(thinListings).toBeGreaterThan(0)
    // Linked pages need not be listed (a job closing within the day is not), but indexable.
    const closed = []
    for (const [href, from] of linked) {
      if (urls.has(ORIGIN + href)) continue
      const { res } = await settled(href)
      if (res.status !== 200 || res.headers.get('x-seo-gate') !== 'index')
        closed.push(`${href} (from ${from}): ${res.status} ${res.headers.get('x-seo-gate')}`)
    }
    expect(closed).toEqual([])
  }, 300_000)

  it('list every profile, and every job open for longer than a stored sitemap lives', async () => {
    await purge({ tags: ['page:sitemap'] })
    const made = Date.now()
    const urls = await sitemapUrls()
    const providers = await env.CONTROL.prepare(
      'SELECT id, name_slug AS slug, updated_at AS at FROM provider_directory',
    ).all<{ id: number; slug: string; at: string }>()
    for (const p of providers.results)
      expect(urls.get(`${ORIGIN}/p/${p.slug}-${p.id}`)).toBe(new Date(p.at).toISOString())
    const jobs = await env.CONTROL.prepare(
      'SELECT id, title_slug AS slug, valid_through AS until FROM job_directory',
    ).all<{ id: number; slug: string; until: string }>()
    const lives = POLICIES.sitemap.swr * 1000
    for (const j of jobs.results) {
      const listed = urls.has(`${ORIGIN}/job/${j.slug}-${j.id}`)
      if (Date.parse(j.until) > Date.now() + lives) expect(listed).toBe(true)
      if (Date.parse(j.until) <= made + lives) expect(listed).toBe(false)
    }
    expect(jobs.results.some((j) => Date.parse(j.until) < made)).toBe(true)
  })

  it('cut profiles into blocks of 50,000 in id order, however far apart their ids', async () => {
    const [city] = await cities()
    // A source's own ids: one far above the others, as a marketplace's may be. A file per range
    // of 50,000 ids would make this an index of 180 million files.
    const ids = [50_000, 50_001, 120_000, 9_000_000_000_000]
    for (const id of ids) await aProvider({ id, cityId: city?.id ?? 0, service: 'tutors' })
    await purge({ tags: ['page:sitemap'] })
    const count = await providerCount()
    const index = locs((await page('/sitemap.xml')).html)
    expect(index.filter((f) => f.includes('/providers-'))).toEqual(
      Array.from(
        { length: Math.ceil(count / MAX_URLS_PER_FILE) },
        (_, i) => `${ORIGIN}/sitemaps/providers-${i + 1}.xml`,
      ),
    )
    const profiles = (
      await Promise.all(
        index
          .filter((f) => f.includes('/providers-'))
          .map(async (f) => locs((await page(f.replace(ORIGIN, ''))).html)),
      )
    ).flat()
    expect(profiles).toHaveLength(count)
    for (const id of ids) expect(profiles).toContain(`${ORIGIN}/p/test-p-${id}`)
    // Further above the catalog than the gate lets new ids be: served once the gate is rebuilt.
    await rebuildGate()
    expect((await anIsolate().fetchPage('/p/test-p-120000')).status).toBe(200)
  })

  it('read a block as consecutive parts of rows in id order', async () => {
    // Blocks of 10 providers: the second is the 11th to 20th.
    await env.CONTROL.prepare("UPDATE sitemap_caps SET size = 10 WHERE source = 'providers'").run()
    await env.CONTROL.batch(
      packBlocksSql(CONTROL_BLOCK_TABLES).map((sql) => env.CONTROL.prepare(sql)),
    )
    const ids = (
      await env.CONTROL.prepare(
        'SELECT id FROM provider_directory ORDER BY id LIMIT 10 OFFSET 10',
      ).all<{
        id: number
      }>()
    ).results.map((r) => r.id)
    const db = openDb(env.CONTROL, new Timing())
    expect(await findBlock(db, 'providers', 2, 3, CONTROL_BLOCK_TABLES)).toEqual([
      { first: ids[0], last: ids[2] },
      { first: ids[3], last: ids[5] },
      { first: ids[6], last: ids[8] },
      { first: ids[9], last: ids[9] },
    ])
    const count = await providerCount()
    expect(
      await findBlock(db, 'providers', Math.ceil(count / 10) + 1, 3, CONTROL_BLOCK_TABLES),
    ).toEqual([])
  })
})
