// One page of each page type on a running server, for `npm run audit` and `npm run screenshots`:
// fixed paths where the seed guarantees them, else the first link of the kind on a listing.
import { findJobService } from '../src/catalog/jobs'
import { FLOW_SEGMENTS, SEGMENTS } from '../src/catalog/segments'
import {
  activitiesPath,
  cityHubPath,
  cityPath,
  costPath,
  flowPath,
  HOME,
  jobListingPath,
  servicePath,
  statePath,
} from '../src/urls/paths'

const SERVICE = 'babysitters'
const STATE = 'ga'
const CITY = 'atlanta-ga'
const JOB_SERVICE = 'babysitting-jobs'
const KEYWORD = 'robotics'

export interface SamplePage {
  type: string
  path: string
}

/** The pages, each checked to answer 200; a page that does not is skipped, with a note. */
export async function samplePages(origin: string): Promise<SamplePage[]> {
  if (!findJobService(JOB_SERVICE)) throw new Error(`no job service ${JOB_SERVICE}`)
  const segment = SEGMENTS[0]?.slug
  const candidates: (SamplePage | { type: string; from: string; link: RegExp })[] = [
    { type: 'home', path: HOME },
    { type: 'national', path: servicePath(SERVICE) },
    { type: 'state', path: statePath(SERVICE, STATE) },
    { type: 'directory', path: cityPath(SERVICE, CITY) },
    { type: 'provider profile', from: cityPath(SERVICE, CITY), link: /href="(\/p\/[^"?#]+)"/ },
    { type: 'job listing', path: jobListingPath(JOB_SERVICE, CITY) },
    {
      type: 'job detail',
      from: jobListingPath(JOB_SERVICE, CITY),
      link: /href="(\/job\/[^"?#]+)"/,
    },
    { type: 'directory (au pairs)', path: cityPath('au-pairs', CITY) },
    { type: 'state (au pairs)', path: statePath('au-pairs', STATE) },
    { type: 'directory (errands)', path: cityPath('errands', CITY) },
    { type: 'national (errands)', path: servicePath('errands') },
    { type: 'city hub', path: cityHubPath(CITY) },
    { type: 'cost guide', path: costPath(SERVICE, CITY) },
    { type: 'activities', path: activitiesPath(KEYWORD) },
    ...(segment ? [{ type: 'segment', path: `/${segment}` }] : []),
    ...(FLOW_SEGMENTS.includes(SERVICE) ? [{ type: 'visitor flow', path: flowPath(SERVICE) }] : []),
  ]
  const found: SamplePage[] = []
  for (const c of candidates) {
    let path: string
    if ('path' in c) path = c.path
    else {
      const res = await get(origin, c.from)
      const m = res.status === 200 ? c.link.exec(res.text) : null
      if (!m?.[1]) {
        console.log(`skip ${c.type}: no ${c.link.source} link on ${c.from} (${res.status})`)
        continue
      }
      path = m[1]
    }
    const { status } = await get(origin, path)
    if (status === 200) found.push({ type: c.type, path })
    else console.log(`skip ${c.type}: ${path} answers ${status}`)
  }
  return found
}

async function get(origin: string, path: string): Promise<{ status: number; text: string }> {
  const url = new URL(path, origin)
  const res = await fetch(url, { redirect: 'manual' }).catch((e: unknown) => {
    const cause = e instanceof Error ? e.cause : undefined
    throw new Error(
      `cannot fetch ${url.href}: ${cause instanceof Error ? cause.message : String(e)}`,
    )
  })
  return { status: res.status, text: await res.text() }
}
