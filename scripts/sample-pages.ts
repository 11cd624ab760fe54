// One page of each page of the page table on a running server, for `npm run audit` and `npm run screenshots`:
// fixed paths where the generated catalog guarantees them, else the first link of the kind on a listing.
import { existsSync } from 'node:fs'
import { findJobService } from '../src/catalog/jobs'
import { ACCESS_HEADER } from '../src/request/ops-access'
import type { PageName } from '../src/pages'
import { CRAWLER_FILES } from '../src/pages'
import { FLOW_SEGMENTS, SEGMENTS } from '../src/catalog/segments'
import {
  activitiesPath,
  cityHubPath,
  cityPath,
  costPath,
  flowPath,
  HOME,
  jobListingPath,
  OPS_CONSOLE,
  OPS_FLAG_VISITOR,
  OPS_FLAGS,
  OPS_HEALTH,
  OPS_PURGE_PREVIEW,
  OPS_PURGES,
  ROBOTS,
  servicePath,
  SITEMAP_INDEX,
  sitemapFilePath,
  statePath,
} from '../src/urls/paths'
import { DEV_KEYS_FILE, DEV_PEOPLE, developmentKeys, developmentToken } from './access-dev'

const SERVICE = 'babysitters'
const STATE = 'ga'
const CITY = 'atlanta-ga'
const JOB_SERVICE = 'babysitting-jobs'
const KEYWORD = 'robotics'

export interface SamplePage {
  /** The page's name in the page table, numbered from its second sample (`directory 2`). */
  name: string
  path: string
  /** Headers to send with it: the ops console's Access token. */
  headers?: Record<string, string>
}

/**
 * The ops console's pages, as an editor signed in with `npm start`'s development key pair
 * (scripts/access-dev.ts) sees them; none when there is no pair here, or the server at
 * `origin` does not take its tokens (each is checked to answer 200, as every sample).
 */
export async function consolePages(origin: string): Promise<SamplePage[]> {
  if (!existsSync(DEV_KEYS_FILE)) return []
  const token = await developmentToken(developmentKeys(DEV_KEYS_FILE), DEV_PEOPLE.editor, {
    hours: 1,
  })
  const headers = { [ACCESS_HEADER]: token }
  const pages = [
    { name: 'ops-console', path: OPS_CONSOLE, headers },
    { name: 'ops-preview', path: `${OPS_PURGE_PREVIEW}?by=city&value=${CITY}`, headers },
    { name: 'ops-purges', path: OPS_PURGES, headers },
    { name: 'ops-flags', path: OPS_FLAGS, headers },
    {
      name: 'ops-flag-visitor',
      path: `${OPS_FLAG_VISITOR}?url=${encodeURIComponent(cityPath(SERVICE, CITY))}&visitor=new`,
      headers,
    },
    { name: 'ops-health', path: OPS_HEALTH, headers },
  ]
  const found: SamplePage[] = []
  for (const page of pages) {
    const { status } = await get(origin, page.path, headers)
    if (status === 200) found.push(page)
    else console.log(`skip ${page.name}: ${page.path} answers ${status}`)
  }
  return found
}

/** A sample of a page row: a path the generated catalog guarantees, or the first link of a kind on a page. */
export type RowSample = string | { from: string; link: RegExp }

const segment = SEGMENTS[0]?.slug

/**
 * Sample pages of each row of the page table (src/pages.ts), by the row's name: what
 * `npm run audit` and `npm run screenshots` load, and what test/pages.test.ts checks every row
 * with a cache policy has, each with a cache key (so no row is silently never stored).
 */
export const ROW_SAMPLES: Readonly<Partial<Record<PageName, readonly RowSample[]>>> = {
  home: [HOME],
  serviceNational: [servicePath(SERVICE), servicePath('errands')],
  serviceState: [statePath(SERVICE, STATE), statePath('au-pairs', STATE)],
  directory: [cityPath(SERVICE, CITY), cityPath('au-pairs', CITY), cityPath('errands', CITY)],
  profile: [{ from: cityPath(SERVICE, CITY), link: /href="(\/p\/[^"?#]+)"/ }],
  jobListing: [jobListingPath(JOB_SERVICE, CITY)],
  job: [{ from: jobListingPath(JOB_SERVICE, CITY), link: /href="(\/job\/[^"?#]+)"/ }],
  cityHub: [cityHubPath(CITY)],
  costNational: [costPath(SERVICE)],
  costCity: [costPath(SERVICE, CITY)],
  activities: [activitiesPath(KEYWORD)],
  segment: segment ? [`/${segment}`] : [],
  flowIntent: FLOW_SEGMENTS.includes(SERVICE) ? [flowPath(SERVICE)] : [],
  sitemapIndex: [SITEMAP_INDEX],
  sitemapFile: [sitemapFilePath('pages')],
  robots: [ROBOTS],
}

/** The pages, each checked to answer 200; a page that does not is skipped, with a note. */
export async function samplePages(origin: string): Promise<SamplePage[]> {
  if (!findJobService(JOB_SERVICE)) throw new Error(`no job service ${JOB_SERVICE}`)
  // Files for crawlers are no page for a person: left out of the audit and the screenshots.
  const candidates = (Object.entries(ROW_SAMPLES) as [PageName, readonly RowSample[]][])
    .filter(([page]) => !CRAWLER_FILES.has(page))
    .flatMap(([page, samples]) =>
      samples.map((sample, i) => ({ name: i === 0 ? page : `${page} ${i + 1}`, sample })),
    )
  const found: SamplePage[] = []
  for (const { name, sample: c } of candidates) {
    let path: string
    if (typeof c === 'string') path = c
    else {
      const res = await get(origin, c.from)
      const m = res.status === 200 ? c.link.exec(res.text) : null
      if (!m?.[1]) {
        console.log(`skip ${name}: no ${c.link.source} link on ${c.from} (${res.status})`)
        continue
      }
      path = m[1]
    }
    const { status } = await get(origin, path)
    if (status === 200) found.push({ name, path })
    else console.log(`skip ${name}: ${path} answers ${status}`)
  }
  return found
}

async function get(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const url = new URL(path, origin)
  const res = await fetch(url, { redirect: 'manual', headers }).catch((e: unknown) => {
    const cause = e instanceof Error ? e.cause : undefined
    throw new Error(
      `cannot fetch ${url.href}: ${cause instanceof Error ? cause.message : String(e)}`,
    )
  })
  return { status: res.status, text: await res.text() }
}
