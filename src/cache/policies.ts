// How long each kind of page may be served from the edge cache (SPEC section 11).
//   sMaxage: fresh, served as HIT
//   swr: then served STALE while one background render refreshes it
//   staleIfError: then kept only to be served STALE when rendering fails
// A page that states an Expires (a job's closing moment) is never served past it.

export interface Policy {
  name: string
  sMaxage: number
  swr: number
  staleIfError: number
  /** The query parameters that change the page; every other one is left out of the key. */
  params: readonly string[]
}

const DAY = 86_400

const LISTING_PARAMS = [
  'distance',
  'rate',
  'experience',
  'availability',
  'ages',
  'services',
  'subjects',
  'schedule',
  'badges',
  'sort',
  'page',
]
const JOB_PARAMS = ['schedule', 'rate', 'jobType', 'hours', 'ages', 'sort', 'page']
const ACTIVITY_PARAMS = [
  'categories',
  'subcategories',
  'activityDates',
  'childCareAgeGroups',
  'activityDaysOfWeek',
  'activityParticipationType',
  'onlyCampActivities',
  'page',
]

export const POLICIES = {
  directory: {
    name: 'directory',
    sMaxage: 600,
    swr: 3600,
    staleIfError: 7 * DAY,
    params: LISTING_PARAMS,
  },
  hub: { name: 'hub', sMaxage: 1800, swr: DAY, staleIfError: 7 * DAY, params: [] },
  jobs: { name: 'jobs', sMaxage: 300, swr: 1800, staleIfError: DAY, params: JOB_PARAMS },
  profile: { name: 'profile', sMaxage: 3600, swr: DAY, staleIfError: 7 * DAY, params: [] },
  job: { name: 'job', sMaxage: 600, swr: 3600, staleIfError: DAY, params: [] },
  cost: { name: 'cost', sMaxage: DAY, swr: 7 * DAY, staleIfError: 7 * DAY, params: [] },
  activities: {
    name: 'activities',
    sMaxage: 3600,
    swr: DAY,
    staleIfError: 7 * DAY,
    params: ACTIVITY_PARAMS,
  },
  segment: { name: 'segment', sMaxage: DAY, swr: 7 * DAY, staleIfError: 7 * DAY, params: [] },
  // Crawlers read these: an hour fresh, then refreshed in the background.
  sitemap: { name: 'sitemap', sMaxage: 3600, swr: DAY, staleIfError: 7 * DAY, params: [] },
} as const satisfies Record<string, Policy>

/** Not-found answers are cached briefly, so a flood of bad URLs costs one render each. */
export const NOT_FOUND_TTL = 60
export const GONE_TTL = 300

/** The Cache-Control a page is sent with: browsers revalidate (ETag), shared caches keep it. */
export function cacheControl(p: Pick<Policy, 'sMaxage' | 'swr' | 'staleIfError'>): string {
  return `public, max-age=0, s-maxage=${p.sMaxage}, stale-while-revalidate=${p.swr}, stale-if-error=${p.staleIfError}`
}
