// How long each kind of page may be served from the edge cache (docs/caching.md, "Policies"):
// lifetimes only; how a page's query is read is its page row's (src/pages.ts).
//   sMaxage: fresh, served as HIT
//   swr: then served STALE while one background render refreshes it
//   staleIfError: then kept only to be served STALE when rendering fails
// A page that states an Expires (a job's closing moment) is never served past it.

export interface Policy {
  name: string
  sMaxage: number
  swr: number
  staleIfError: number
}

const DAY = 86_400

export const POLICIES = {
  directory: { name: 'directory', sMaxage: 600, swr: 3600, staleIfError: 7 * DAY },
  hub: { name: 'hub', sMaxage: 1800, swr: DAY, staleIfError: 7 * DAY },
  jobs: { name: 'jobs', sMaxage: 300, swr: 1800, staleIfError: DAY },
  profile: { name: 'profile', sMaxage: 3600, swr: DAY, staleIfError: 7 * DAY },
  job: { name: 'job', sMaxage: 600, swr: 3600, staleIfError: DAY },
  cost: { name: 'cost', sMaxage: DAY, swr: 7 * DAY, staleIfError: 7 * DAY },
  activities: { name: 'activities', sMaxage: 3600, swr: DAY, staleIfError: 7 * DAY },
  segment: { name: 'segment', sMaxage: DAY, swr: 7 * DAY, staleIfError: 7 * DAY },
  // Crawlers read these: an hour fresh, then refreshed in the background.
  sitemap: { name: 'sitemap', sMaxage: 3600, swr: DAY, staleIfError: 7 * DAY },
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
