import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { ACTIVITY_KEYWORDS } from '../catalog/activities'
import { COST_GUIDE_SERVICES } from '../catalog/cost-guides'
import { isId } from '../catalog/ranges'
import { SEGMENTS } from '../catalog/segments'
import { STATES } from '../catalog/states'
import { POLICIES } from '../cache/policies'
import type { BlockTable, CityRow, EntityRow, IdRange } from '../data/sitemap-rows'
import {
  countBlocks,
  findActivityRows,
  findBlock,
  findJobCityRows,
  findNationalRows,
  findOpenJobRows,
  findProviderRows,
  findServiceCityRows,
  findStateRows,
} from '../data/sitemap-rows'
import type { AppEnv } from '../env'
import { shownCategories, shownServices } from '../flags/visibility'
import { absoluteUrl } from '../seo/head'
import { costInventory, decideIndexing, hubInventory, stateInventory } from '../seo/indexability'
import type { SitemapEntry } from '../seo/sitemap-xml'
import { sitemapStream } from '../seo/sitemap-xml'
import { newestDate } from '../seo/newest-date'
import {
  activitiesPath,
  cityHubPath,
  cityPath,
  costPath,
  HOME,
  jobListingPath,
  jobPath,
  OPS_PREFIX,
  providerPath,
  servicePath,
  SITEMAP_INDEX,
  sitemapFilePath,
  statePath,
} from '../urls/paths'
import { DATA_PREFIX } from '../urls/data-prefix'
import { TAG } from '../cache/tags'

/**
 * The chunked sitemap files, and the table each is cut from: a file per block of the table
 * (src/data/sitemap-rows.ts), in id order. A block holds at most 1,000 cities
 * (migrations/control/0001_control.sql), listed at most 12 times each (services, job services),
 * or at most 50,000 providers or jobs, a page each. So a file can never pass 50,000 URLs. The
 * index lists as many files as the tables have blocks, however far apart their ids: the
 * 1M-provider catalog has 23 of profiles.
 */
export const CHUNKS = {
  directories: 'cities',
  'job-listings': 'cities',
  hubs: 'cities',
  'cost-guides': 'cities',
  providers: 'providers',
  jobs: 'jobs',
} as const satisfies Record<string, BlockTable>

type Chunked = keyof typeof CHUNKS
/** Rows of entity sitemaps are read in parts of this many rows, all at once. */
const BATCH = 5_000

/** `/sitemap.xml`: the sitemap index. */
export async function sitemapIndex(c: Context<AppEnv>): Promise<Response> {
  const counts = await countBlocks(c.get('db'))
  const files = [sitemapFilePath('pages')]
  for (const [kind, table] of Object.entries(CHUNKS))
    for (let n = 1; n <= counts[table]; n++) files.push(sitemapFilePath(`${kind}-${n}`))
  return xml(sitemapStream('sitemapindex', replay([files.map((f) => ({ loc: url(c, f) }))])))
}

/** `/sitemaps/{kind}-{n}.xml` and `/sitemaps/pages.xml`: one file of the index. */
export async function sitemapFile(c: Context<AppEnv>): Promise<Response> {
  const m = /^([a-z-]+?)(?:-([1-9][0-9]{0,5}))?\.xml$/.exec(c.req.param('file') ?? '')
  const kind = m?.[1] ?? ''
  if (kind === 'pages' && !m?.[2]) return xml(sitemapStream('urlset', await readAll(pages(c))))
  if (!(kind in CHUNKS) || !m?.[2]) throw new HTTPException(404)
  const { entityTables } = c.get('shards')
  const parts = await findBlock(
    c.get('db'),
    CHUNKS[kind as Chunked],
    Number(m[2]),
    BATCH,
    entityTables,
  )
  const first = parts[0]?.first
  const last = parts.at(-1)?.last
  if (first === undefined || last === undefined) throw new HTTPException(404)
  const entries = CHUNK_ENTRIES[kind as Chunked](c, { first, last }, parts)
  return xml(sitemapStream('urlset', await readAll(entries)))
}

/** `/robots.txt`: everything but the data and ops paths, and where the sitemaps are. */
export function robotsTxt(c: Context<AppEnv>): Response {
  const body = [
    'User-agent: *',
    'Allow: /',
    `Disallow: ${DATA_PREFIX}/`,
    `Disallow: ${OPS_PREFIX}/`,
    '',
    `Sitemap: ${url(c, SITEMAP_INDEX)}`,
    '',
  ].join('\n')
  return new Response(body, {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-tag': TAG.page('robots') },
  })
}

/** A file's entries from its block: the block's whole id range, and its parts of BATCH rows. */
const CHUNK_ENTRIES: Record<
  Chunked,
  (c: Context<AppEnv>, block: IdRange, parts: IdRange[]) => AsyncIterable<SitemapEntry[]>
> = {
  async *directories(c, { first, last }) {
    const shown = shownServices(c.get('flags').on).map((s) => s.slug)
    const rows = await findServiceCityRows(c.get('db'), first, last)
    yield rows
      .filter((r) => shown.includes(r.service) && decideIndexing({ inventory: r.count }).index)
      .map((r) => ({ loc: url(c, cityPath(r.service, r.citySlug)), lastmod: r.updatedAt }))
  },

  async *'job-listings'(c, { first, last }) {
    const rows = await findJobCityRows(c.get('db'), first, last)
    yield rows
      .filter((r) => decideIndexing({ inventory: r.count }).index)
      .map((r) => ({ loc: url(c, jobListingPath(r.service, r.citySlug)), lastmod: r.updatedAt }))
  },

  async *hubs(c, { first, last }) {
    const shown = shownServices(c.get('flags').on).map((s) => s.slug)
    const [services, jobs] = await Promise.all([
      findServiceCityRows(c.get('db'), first, last),
      findJobCityRows(c.get('db'), first, last),
    ])
    const cities = new Map<
      number,
      { slug: string; services: number[]; jobs: number[]; dates: string[] }
    >()
    const city = (r: CityRow) =>
      cities.get(r.cityId) ??
      cities.set(r.cityId, { slug: r.citySlug, services: [], jobs: [], dates: [] }).get(r.cityId)
    for (const r of services) {
      if (!shown.includes(r.service)) continue
      city(r)?.services.push(r.count)
      city(r)?.dates.push(r.updatedAt)
    }
    for (const r of jobs) {
      city(r)?.jobs.push(r.count)
      city(r)?.dates.push(r.updatedAt)
    }
    yield [...cities.values()]
      .filter((h) => decideIndexing({ inventory: hubInventory(h.services, h.jobs) }).index)
      .map((h) => ({ loc: url(c, cityHubPath(h.slug)), lastmod: newestDate(h.dates) }))
  },

  async *'cost-guides'(c, { first, last }) {
    // City guides exist only with the cost guide local page configuration key.
    if (!c.get('flags').config.costGuideLocalPage) return
    const guides = COST_GUIDE_SERVICES.map((s) => s.slug)
    const rows = await findServiceCityRows(c.get('db'), first, last)
    yield rows
      .filter(
        (r) =>
          guides.includes(r.service) && decideIndexing({ inventory: costInventory(r.count) }).index,
      )
      .map((r) => ({ loc: url(c, costPath(r.service, r.citySlug)), lastmod: r.updatedAt }))
  },

  providers: (c, _, parts) =>
    entities(
      (after, upTo) =>
        findProviderRows(c.get('db'), c.get('shards').entityTables, after, upTo, BATCH),
      parts,
      (r) => ({
        loc: url(c, providerPath({ nameSlug: r.slug, id: r.id })),
        lastmod: r.updatedAt,
      }),
    ),

  jobs: (c, _, parts) => {
    // A job is indexable until it closes; a stored sitemap may be served for as long as its
    // stale-while-revalidate window, so jobs closing within it are left out.
    const openUntil = new Date(Date.now() + POLICIES.sitemap.swr * 1000).toISOString()
    return entities(
      (after, upTo) =>
        findOpenJobRows(c.get('db'), c.get('shards').entityTables, after, upTo, openUntil, BATCH),
      parts,
      (r) => ({
        loc: url(c, jobPath({ titleSlug: r.slug, id: r.id })),
        lastmod: r.updatedAt,
      }),
    )
  },
}

/**
 * The home page, and pages about a service, a state, a segment, a national cost guide or an
 * activity keyword.
 */
async function* pages(c: Context<AppEnv>): AsyncGenerator<SitemapEntry[]> {
  const { on } = c.get('flags')
  const [national, states, activities] = await Promise.all([
    findNationalRows(c.get('db')),
    findStateRows(c.get('db')),
    findActivityRows(c.get('db')),
  ])
  const entries: SitemapEntry[] = []
  // The home page: indexable on the providers of the shown services, dated by the newest.
  const home = national.filter((r) => shownServices(on).some((s) => s.slug === r.service))
  if (decideIndexing({ inventory: home.reduce((n, r) => n + r.providers, 0) }).index)
    entries.push({ loc: url(c, HOME), lastmod: newestDate(home.map((r) => r.updatedAt)) })
  for (const service of shownServices(on)) {
    const row = national.find((r) => r.service === service.slug)
    if (decideIndexing({ inventory: row?.providers ?? 0 }).index)
      entries.push({ loc: url(c, servicePath(service.slug)), lastmod: row?.updatedAt })
    for (const code of Object.keys(STATES)) {
      const largest = states.find((r) => r.service === service.slug && r.stateCode === code)
      if (decideIndexing({ inventory: stateInventory([largest?.providers ?? 0]) }).index)
        entries.push({ loc: url(c, statePath(service.slug, code)), lastmod: largest?.updatedAt })
    }
  }
  for (const segment of SEGMENTS) entries.push({ loc: url(c, servicePath(segment.slug)) })
  for (const service of COST_GUIDE_SERVICES) {
    const row = national.find((r) => r.service === service.slug)
    if (decideIndexing({ inventory: costInventory(row?.providers ?? 0) }).index)
      entries.push({ loc: url(c, costPath(service.slug)), lastmod: row?.updatedAt })
  }
  const categories = shownCategories(on)
  for (const keyword of ACTIVITY_KEYWORDS) {
    const count = activities.find((r) => r.keyword === keyword.slug)?.activities ?? 0
    if (categories.includes(keyword.category) && decideIndexing({ inventory: count }).index)
      entries.push({ loc: url(c, activitiesPath(keyword.slug)) })
  }
  yield entries
}

/**
 * Entity pages of a block, read by its parts: each holds at most BATCH rows, so it is one read,
 * and all are read at once, in one round trip.
 */
async function* entities(
  read: (after: number, upTo: number) => Promise<EntityRow[]>,
  parts: IdRange[],
  toEntry: (row: EntityRow) => SitemapEntry,
): AsyncGenerator<SitemapEntry[]> {
  const reads = parts.map(({ first, last }) => read(first - 1, last))
  // Only ids a URL can carry (src/catalog/ranges.ts): a row stored before the contract said so
  // would be a link that answers 404.
  for (const rows of await Promise.all(reads)) {
    const routed = rows.filter((r) => isId(r.id))
    if (routed.length) yield routed.map(toEntry)
  }
}

/**
 * Every batch of a file, read before its status is decided: D1 failing is then a 503 or the
 * stored copy (docs/caching.md), never a 200 cut short. A file of 50,000 URLs is a few MB of
 * rows, which the edge cache's copy of the file holds whole anyway.
 */
async function readAll<T>(batches: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const read: T[] = []
  for await (const batch of batches) read.push(batch)
  return replay(read)
}

// eslint-disable-next-line @typescript-eslint/require-await -- batches already read, as a stream takes them
async function* replay<T>(batches: readonly T[]): AsyncGenerator<T> {
  yield* batches
}

function url(c: Context<AppEnv>, path: string): string {
  return absoluteUrl(c.env.PUBLIC_ORIGIN, path)
}

function xml(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'x-robots-tag': 'noindex',
      'cache-tag': TAG.page('sitemap'),
    },
  })
}
