// How long each kind of page may be served from the edge cache (docs/caching.md, "Policies").
//   sMaxage: fresh, served as HIT
//   swr: then served STALE while one background render refreshes it
//   staleIfError: then kept only to be served STALE when rendering fails
// A page that states an Expires (a job's closing moment) is never served past it.

import type { PageQuery } from '../queries/page-query'
import { activitiesQuery, directoryQuery, jobListingQuery, noQuery } from '../queries/page-query'

export interface Policy {
  name: string
  sMaxage: number
  swr: number
  staleIfError: number
  /** The query the page reads, canonical: the only part of the query in its cache key. */
  query: PageQuery
}

const DAY = 86_400

export const POLICIES = {
  directory: {
    name: 'directory',
    sMaxage: 600,
    swr: 3600,
    staleIfError: 7 * DAY,
    query: directoryQuery,
  },
  hub: { name: 'hub', sMaxage: 1800, swr: DAY, staleIfError: 7 * DAY, query: noQuery },
  jobs: { name: 'jobs', sMaxage: 300, swr: 1800, staleIfError: DAY, query: jobListingQuery },
  profile: { name: 'profile', sMaxage: 3600, swr: DAY, staleIfError: 7 * DAY, query: noQuery },
  job: { name: 'job', sMaxage: 600, swr: 3600, staleIfError: DAY, query: noQuery },
  cost: { name: 'cost', sMaxage: DAY, swr: 7 * DAY, staleIfError: 7 * DAY, query: noQuery },
  activities: {
    name: 'activities',
    sMaxage: 3600,
    swr: DAY,
    staleIfError: 7 * DAY,
    query: activitiesQuery,
  },
  segment: { name: 'segment', sMaxage: DAY, swr: 7 * DAY, staleIfError: 7 * DAY, query: noQuery },
  // Crawlers read these: an hour fresh, then refreshed in the background.
  sitemap: { name: 'sitemap', sMaxage: 3600, swr: DAY, staleIfError: 7 * DAY, query: noQuery },
} as const satisfies Record<string, Policy>

/** Not-found answers are cached briefly, so a flood of bad URLs costs one render each. */
export const NOT_FOUND_TTL = 60
export const GONE_TTL = 300
/**
 * An entity under another slug redirects to its canonical URL (src/routes/provider-profile.tsx,
 * job-detail.tsx); the answer costs the entity's reads, so it is kept as briefly as a gone page:
 * short enough that a renamed entity's old redirects soon follow it.
 */
export const REDIRECT_TTL = 300

/** The Cache-Control a page is sent with: browsers revalidate (ETag), shared caches keep it. */
export function cacheControl(p: Pick<Policy, 'sMaxage' | 'swr' | 'staleIfError'>): string {
  return `public, max-age=0, s-maxage=${p.sMaxage}, stale-while-revalidate=${p.swr}, stale-if-error=${p.staleIfError}`
}
