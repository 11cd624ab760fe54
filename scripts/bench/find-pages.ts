// The page of each type that the bench loads, found in the served catalog at startup: in the
// sitemaps (the pages that exist) and, for a provider and a job, in the links of the city's
// directory and job listing. No id is written here, so both catalogs are measured alike.
import { SEGMENTS } from '../../src/catalog/segments'
import type { PageName } from '../../src/pages'
import { SITEMAP_INDEX, sitemapFilePath } from '../../src/urls/paths'
import { PHONE } from './harness'

/** The city of the city pages, and its babysitters' directory: the page of the targets. */
const CITY = 'atlanta-ga'
const DIRECTORY = `/babysitters/${CITY}`

/** The pages the bench loads, by their names in the page table (src/pages.ts). */
export type BenchPages = Partial<Record<PageName, string>>

/**
 * A page's text. A 503 is asked again a few times: on a loaded machine a sitemap's first read of
 * the 1M-provider catalog can pass D1's read deadline before its pages are in memory.
 */
async function text(base: string, path: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(base + path, { headers: { 'user-agent': PHONE } })
    if (res.status === 200) return res.text()
    if (res.status !== 503 || attempt === 3)
      throw new Error(`bench: ${path} answered ${res.status}`)
    await res.body?.cancel()
  }
}

/** The paths a sitemap (or sitemap index) lists. */
export async function listed(base: string, path: string): Promise<string[]> {
  const xml = await text(base, path)
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname)
}

/** The first path of the given shape, the first of `preferred`'s if there is one. */
function pick(paths: readonly string[], shape: RegExp, preferred = CITY): string | undefined {
  const shaped = paths.filter((p) => shape.test(p))
  return shaped.find((p) => p.endsWith(`/${preferred}`)) ?? shaped[0]
}

function firstLink(html: string, prefix: string): string {
  const found = new RegExp(`href="(${prefix}[^"?#]+)"`).exec(html)?.[1]
  if (!found) throw new Error(`bench: no link to ${prefix}… on the page`)
  return found
}

export async function findPages(base: string): Promise<BenchPages> {
  const files = await listed(base, SITEMAP_INDEX)
  /**
   * A page of the city from the sitemap files of one kind (`hubs-1.xml`, `hubs-2.xml`, …), read
   * until one lists it: the city's pages, in both catalogs, so that their rows compare.
   */
  const cityPage = async (kind: string, shape: RegExp): Promise<string> => {
    let fallback: string | undefined
    for (const file of files.filter((f) => f.startsWith(`/sitemaps/${kind}-`))) {
      const paths = await listed(base, file)
      const found = pick(paths, shape)
      if (found?.endsWith(`/${CITY}`)) return found
      fallback ??= found
    }
    return must(fallback, kind)
  }
  const pages = await listed(base, sitemapFilePath('pages'))
  const jobListing = await cityPage('job-listings', /^\/[a-z-]+\/[a-z0-9-]+$/)
  const segments = new Set(SEGMENTS.map((s) => `/${s.slug}`))
  return {
    directory: DIRECTORY,
    profile: firstLink(await text(base, DIRECTORY), '/p/'),
    job: firstLink(await text(base, jobListing), '/job/'),
    jobListing,
    costNational: must(pick(pages, /^\/cost\/[a-z-]+$/, 'babysitters'), 'national cost guide'),
    costCity: await cityPage('cost-guides', /^\/cost\/[a-z-]+\/.+$/),
    activities: must(pick(pages, /^\/explore\/d\/[a-z-]+$/), 'activities'),
    cityHub: await cityPage('hubs', /^\/local\/.+$/),
    serviceNational: must(pick(pages, /^\/babysitters$/), 'national service'),
    serviceState: must(pick(pages, /^\/babysitters\/[a-z]{2}$/, 'ga'), 'state service'),
    segment: must(
      pages.find((p) => segments.has(p)),
      'segment',
    ),
  }
}

function must(path: string | undefined, what: string): string {
  if (!path) throw new Error(`bench: no ${what} page in the sitemaps`)
  return path
}

/**
 * The long tail of `directory`'s kind: the directory of every other city the sitemaps list for
 * its service (`/babysitters/atlanta-ga`: every other `/babysitters/{city}`), in their order;
 * with `among`, only those of its pages.
 */
export async function findTail(
  base: string,
  directory: string,
  among: readonly string[] = [],
): Promise<string[]> {
  const service = directory.split('/')[1] ?? ''
  const shape = new RegExp(`^/${service}/[a-z0-9-]+-[a-z]{2}$`)
  const listedHere = new Set<string>()
  for (const file of await listed(base, SITEMAP_INDEX))
    if (file.startsWith('/sitemaps/directories-'))
      for (const p of await listed(base, file))
        if (shape.test(p) && p !== directory) listedHere.add(p)
  const tail = among.length ? among.filter((p) => listedHere.has(p)) : [...listedHere]
  if (tail.length < 2) throw new Error(`bench: no long tail of ${directory} in the sitemaps`)
  return tail
}
