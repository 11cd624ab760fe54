// A crawler's view of the site, from /sitemap.xml down: every listed URL must be a complete,
// indexable page that names itself canonical. Used by `npm run crawl` and the e2e crawl test.
import { COST_GUIDE_SERVICES } from '../src/catalog/cost-guides'
import { JOB_SERVICES } from '../src/catalog/jobs'
import { SERVICES } from '../src/catalog/services'
import { cityHubPath, cityPath, costPath, FLOW, jobListingPath, statePath } from '../src/urls/paths'

/** What a listed page must be. Lengths are the ones search results show without cutting. */
const SANE = { title: [15, 70], description: [50, 170] } as const

/** Links that are not pages for search: the visitor flow (noindex by design) and assets. */
const NOT_FOR_SEARCH = [`${FLOW}/`, '/assets/']

/** Sitemap files whose pages are listings: an empty one would be a soft 404. */
const LISTINGS = /\/sitemaps\/(directories|job-listings)-\d+\.xml$/

export interface CrawlResult {
  files: number
  urls: number
  fetched: number
  /** Listings, hubs and guides of the same cities and states that no sitemap lists (thin). */
  unlisted: number
  failures: string[]
  ms: number
}

interface Listed {
  loc: string
  lastmod: string | null
  listing: boolean
}

/**
 * Reads the sitemap index at `base`, then fetches every `every`-th listed URL (all by default)
 * with `concurrency` requests in flight. URLs name the public origin; they are fetched from
 * `base`, and the canonical links must still name the public origin.
 */
export async function crawl(
  base: string,
  {
    every = 1,
    concurrency = 8,
    onPage,
  }: {
    every?: number
    concurrency?: number
    /** Called after each page fetched: how many so far, of how many, and the failures so far. */
    onPage?: (done: number, total: number, failures: number) => void
  } = {},
): Promise<CrawlResult> {
  const started = performance.now()
  const failures: string[] = []
  const index = await text(`${base}/sitemap.xml`)
  const files = locs(index)
  const origin = new URL(files[0] ?? base).origin
  const listed: Listed[] = []
  for (const file of files) {
    const xml = await text(base + new URL(file).pathname)
    for (const m of xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?/g)) {
      listed.push({ loc: m[1] ?? '', lastmod: m[2] ?? null, listing: LISTINGS.test(file) })
    }
  }
  const seen = new Set<string>()
  for (const { loc } of listed) {
    if (seen.has(loc)) failures.push(`${loc}: listed twice`)
    seen.add(loc)
    if (!loc.startsWith(`${origin}/`)) failures.push(`${loc}: not on ${origin}`)
  }
  const sample = listed.filter((_, i) => i % every === 0)
  // Internal links without a query (filters and later pages are noindex by design) must lead
  // to indexable pages: nothing links to a page that is noindex or empty. Thin pages are
  // pages for people, and their links are followed too.
  const linked = new Map<string, string>()
  const link = (links: string[], from: string) => {
    for (const l of links) if (!linked.has(l)) linked.set(l, from)
  }
  const thin = unlistedSiblings(listed.map(({ loc }) => new URL(loc).pathname)).filter(
    (path) => !seen.has(origin + path),
  )
  const thinSample = thin.filter((_, i) => i % every === 0)
  const total = sample.length + thinSample.length
  let done = 0
  await pool(sample, concurrency, async (page) => {
    const { problems, links } = await checkPage(base, origin, page)
    failures.push(...problems.map((f) => `${page.loc}: ${f}`))
    link(links, page.loc)
    onPage?.(++done, total, failures.length)
  })
  await pool(thinSample, concurrency, async (path) => {
    const res = await fetch(base + path, { redirect: 'manual' })
    const html = await res.text()
    // A page's links to itself ("Clear filters") lead nowhere new.
    if (res.status === 200)
      link(
        linksOf(html).filter((l) => l !== path),
        origin + path,
      )
    onPage?.(++done, total, failures.length)
  })
  // A linked page need not be listed (a job closing within the day is left out), but it must
  // be indexable.
  for (const [link, from] of linked) {
    if (seen.has(origin + link)) continue
    const res = await fetch(base + link, { redirect: 'manual' })
    await res.body?.cancel()
    if (res.status !== 200 || res.headers.get('x-seo-gate') !== 'index')
      failures.push(
        `${origin + link}: linked from ${from}, ${res.status} ${res.headers.get('x-seo-gate')}`,
      )
  }
  return {
    files: files.length,
    urls: listed.length,
    fetched: sample.length,
    unlisted: thinSample.length,
    failures,
    ms: performance.now() - started,
  }
}

/** What is wrong with one listed page, as a crawler would see it, and where it links. */
async function checkPage(
  base: string,
  origin: string,
  page: Listed,
): Promise<{ problems: string[]; links: string[] }> {
  const url = new URL(page.loc)
  const res = await fetch(base + url.pathname + url.search, {
    redirect: 'manual',
    headers: {
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    },
  })
  const html = await res.text()
  const problems: string[] = []
  if (res.status !== 200) return { problems: [`status ${res.status}`], links: [] }
  if (res.headers.get('x-seo-gate') !== 'index')
    problems.push(`x-seo-gate ${res.headers.get('x-seo-gate')}`)
  const robotsTag = res.headers.get('x-robots-tag')
  if (robotsTag !== null && robotsTag !== 'index,follow') problems.push(`x-robots-tag ${robotsTag}`)
  const robots = /<meta name="robots" content="([^"]*)"/.exec(html)?.[1]
  if (robots !== 'index,follow') problems.push(`robots meta ${robots}`)
  const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, '&')
  if (canonical !== page.loc) problems.push(`canonical ${canonical}`)
  if (!canonical?.startsWith(origin)) problems.push(`canonical off ${origin}`)
  const h1s = html.match(/<h1[\s>]/g)?.length ?? 0
  if (h1s !== 1) problems.push(`${h1s} h1`)
  const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '')
  if (title.length < SANE.title[0] || title.length > SANE.title[1])
    problems.push(`title of ${title.length} characters: ${title}`)
  const description = decode(/<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '')
  if (description.length < SANE.description[0] || description.length > SANE.description[1])
    problems.push(`description of ${description.length} characters: ${description}`)
  if (page.listing && !html.includes('<li class="card">')) problems.push('a listing without cards')
  const modified = res.headers.get('last-modified')
  if (page.lastmod && modified !== new Date(page.lastmod).toUTCString())
    problems.push(`last-modified ${modified}, lastmod ${page.lastmod}`)
  return { problems, links: linksOf(html) }
}

/** A page's internal links without a query, but for the visitor flow and assets. */
function linksOf(html: string): string[] {
  return [...html.matchAll(/<a [^>]*href="(\/[^"?#]*)"/g)]
    .map((m) => m[1] ?? '')
    .filter((href) => !NOT_FOR_SEARCH.some((prefix) => href.startsWith(prefix)))
}

/**
 * The listings, hubs and city guides of every city the listed URLs name, and the state pages
 * of their states: the pages too thin for a sitemap are among them.
 */
export function unlistedSiblings(paths: readonly string[]): string[] {
  const cities = new Set<string>()
  for (const path of paths) {
    const city = /^\/(?:cost\/)?[a-z-]+\/([a-z0-9-]+-[a-z]{2})$/.exec(path)?.[1]
    if (city) cities.add(city)
  }
  const states = new Set([...cities].map((city) => city.slice(-2)))
  return [
    ...[...cities].flatMap((city) => [
      cityHubPath(city),
      ...SERVICES.map((s) => cityPath(s.slug, city)),
      ...JOB_SERVICES.map((j) => jobListingPath(j.slug, city)),
      ...COST_GUIDE_SERVICES.map((s) => costPath(s.slug, city)),
    ]),
    ...[...states].flatMap((state) => SERVICES.map((s) => statePath(s.slug, state))),
  ]
}

/** Runs `work` over `items` with `concurrency` of them in flight. */
async function pool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]
      if (item !== undefined) await work(item)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

async function text(url: string): Promise<string> {
  const res = await fetch(url)
  if (!res.ok) throw new Error(`${url}: ${res.status}`)
  return res.text()
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '')
}

function decode(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}
