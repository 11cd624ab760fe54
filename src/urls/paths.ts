import { ACTIVITY_KEYWORDS } from '../catalog/activities'
import { COST_GUIDE_SERVICES } from '../catalog/cost-guides'
import { JOB_SERVICES } from '../catalog/jobs'
import { ID_DIGITS, isId } from '../catalog/ranges'
import { FLOW_SEGMENTS, SEGMENTS } from '../catalog/segments'
import { SERVICES } from '../catalog/services'
import { SEARCH } from './search-path'

// URL shapes (docs/pages.md, "Page types"): the Hono patterns that route them and the builders
// of links.

// Alternatives are grouped: Hono joins param patterns into one regular expression.
const SERVICE = `(?:${SERVICES.map((s) => s.slug).join('|')})`
const JOB_SERVICE = `(?:${JOB_SERVICES.map((j) => j.slug).join('|')})`
const COST_SERVICE = `(?:${COST_GUIDE_SERVICES.map((s) => s.slug).join('|')})`
const KEYWORD = `(?:${ACTIVITY_KEYWORDS.map((k) => k.slug).join('|')})`
const SEGMENT = `(?:${SEGMENTS.map((s) => s.slug).join('|')})`
const FLOW_SEGMENT = `(?:${FLOW_SEGMENTS.join('|')})`
// An entity: an optional name part, then the id (`/p/123` redirects to its canonical URL).
const ENTITY = '(?:[a-z0-9]+-)*[0-9]+'
const STATE = '[a-z][a-z]'
const CITY = '[a-z0-9]+(?:-[a-z0-9]+)*-[a-z][a-z]'

/** The visitor flow's steps: about one visitor, never for search. */
export const FLOW = '/us-subscription/segment/nonmember'

/** The home page. */
export const HOME = '/'

export const PATTERNS = {
  home: HOME,
  search: SEARCH,
  serviceNational: `/:service{${SERVICE}}`,
  serviceState: `/:service{${SERVICE}}/:state{${STATE}}`,
  serviceCity: `/:service{${SERVICE}}/:city{${CITY}}`,
  jobListing: `/:jobService{${JOB_SERVICE}}/:city{${CITY}}`,
  cityHub: `/local/:city{${CITY}}`,
  provider: `/p/:slug{${ENTITY}}`,
  job: `/job/:slug{${ENTITY}}`,
  costNational: `/cost/:service{${COST_SERVICE}}`,
  costCity: `/cost/:service{${COST_SERVICE}}/:city{${CITY}}`,
  activities: `/explore/d/:keyword{${KEYWORD}}`,
  segment: `/:segment{${SEGMENT}}`,
  flowIntent: `${FLOW}/:segment{${FLOW_SEGMENT}}`,
  flowWhoNeedsCare: `${FLOW}/in-facility/who-needs-care`,
  flowProvider: `${FLOW}/provider`,
  providerMessage: `/p/:slug{${ENTITY}}/message`,
  providerMessageSent: `/p/:slug{${ENTITY}}/message/sent`,
} as const

export const servicePath = (service: string) => `/${service}`
export const statePath = (service: string, stateCode: string) =>
  `/${service}/${stateCode.toLowerCase()}`
export const cityPath = (service: string, citySlug: string) => `/${service}/${citySlug}`
/**
 * An entity's canonical slug: its name part, then its id (`maria-g-123`); the id alone when the
 * name has no letter a slug keeps (a name in Arabic script: `123`), which routes as it is.
 */
export const providerSlug = (p: { nameSlug: string; id: number }) =>
  p.nameSlug ? `${p.nameSlug}-${p.id}` : String(p.id)
export const jobSlug = (j: { titleSlug: string; id: number }) =>
  j.titleSlug ? `${j.titleSlug}-${j.id}` : String(j.id)
export const providerPath = (p: { nameSlug: string; id: number }) => `/p/${providerSlug(p)}`
export const jobPath = (j: { titleSlug: string; id: number }) => `/job/${jobSlug(j)}`
/** Where a profile's message form posts, and where a sent message lands. */
export const providerMessagePath = (p: { nameSlug: string; id: number }) =>
  `${providerPath(p)}/message`
export const providerMessageSentPath = (p: { nameSlug: string; id: number }) =>
  `${providerMessagePath(p)}/sent`
/** Whether `path` is a profile's message path, which takes POST alone. */
export const isProviderMessagePath = (path: string) =>
  new RegExp(`^/p/${ENTITY}/message$`).test(path)
export const jobListingPath = (jobService: string, citySlug: string) => `/${jobService}/${citySlug}`
export const cityHubPath = (citySlug: string) => `/local/${citySlug}`
export const costPath = (service: string, citySlug?: string) =>
  `/cost/${service}${citySlug ? `/${citySlug}` : ''}`
export const activitiesPath = (keyword: string) => `/explore/d/${keyword}`

const ENTITY_ID = new RegExp(`(?:^|-)([0-9]{1,${ID_DIGITS}})$`)

/**
 * The id at the end of an entity URL's last segment (`maria-g-123` → 123): every id the catalog
 * takes (src/catalog/ranges.ts), and nothing else (a 17th digit, 0, or past 2^53 − 1: null).
 */
export function entityId(slug: string): number | null {
  const m = ENTITY_ID.exec(slug)
  const id = m ? Number(m[1]) : null
  return isId(id) ? id : null
}
export const SITEMAP_INDEX = '/sitemap.xml'
export const SITEMAP_FILE = '/sitemaps/:file{[a-z0-9-]+\\.xml}'
/** A file of the sitemap index: `pages`, or a kind and a number (`directories-1`). */
export const sitemapFilePath = (name: string) => `/sitemaps/${name}.xml`
export const ROBOTS = '/robots.txt'

/** The ops endpoints: for operators, never pages (no cookies, disallowed to crawlers). */
export const OPS_PREFIX = '/__ops'
/** The ops endpoint that purges the edge cache. */
export const OPS_PURGE = `${OPS_PREFIX}/purge`
/** The ops console behind Cloudflare Access (docs/operations.md, "The ops console"). */
export const OPS_CONSOLE = OPS_PREFIX
/** The console's purges: GET lists the audit log, POST makes a previewed purge. */
export const OPS_PURGES = `${OPS_PREFIX}/purges`
export const OPS_PURGE_PREVIEW = `${OPS_PURGES}/preview`
export const OPS_PURGE_RESULT = `${OPS_PURGES}/:id{[0-9]{1,15}}`
export const opsPurgeResultPath = (id: number) => `${OPS_PURGES}/${id}`
/** Where `npm start`'s development tokens sign a person in; no page where Access stands. */
export const OPS_SIGN_IN = `${OPS_PREFIX}/sign-in`
/** The console's flags: GET lists them, POST saves a previewed change. */
export const OPS_FLAGS = `${OPS_PREFIX}/flags`
export const OPS_FLAG_CHANGE = `${OPS_FLAGS}/change`
/** The console's flag values for a chosen visitor on a chosen page. */
export const OPS_FLAG_VISITOR = `${OPS_FLAGS}/visitor`
/** The console's check of a page: fetched again, its x-cache and render time. */
export const OPS_CHECK = `${OPS_PREFIX}/check`
/** The ops endpoint that takes catalog changes (docs/sync.md). */
export const OPS_CATALOG = `${OPS_PREFIX}/catalog`
/** Sends the catalog's dead letters back to its queue (bearer token, as OPS_CATALOG). */
export const OPS_CATALOG_REPLAY = `${OPS_CATALOG}/replay`
/** The console's catalog health page, and its form replaying dead letters. */
export const OPS_HEALTH = `${OPS_PREFIX}/health`
export const OPS_HEALTH_REPLAY = `${OPS_HEALTH}/replay`
/**
 * What the console's islands fetch as JSON (src/client/ops.tsx): a purge's preview as it is
 * typed, and the health page's counts as they change.
 */
export const OPS_LIVE_PREVIEW = `${OPS_PREFIX}/live/purge-preview`
export const OPS_LIVE_HEALTH = `${OPS_PREFIX}/live/health`

export const flowPath = (segment: string) => `${FLOW}/${segment}`
export const whoNeedsCarePath = `${FLOW}/in-facility/who-needs-care`
/** The entry of people who want care work (docs/pages.md, "Visitor flow"). */
export const providerEntryPath = `${FLOW}/provider`

/** A path with a query of the given parameters, those without a value left out. */
export function withQuery(path: string, params: Record<string, string | null>): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value)
  const search = query.toString()
  return search ? `${path}?${search}` : path
}
