import type { Handler, MiddlewareHandler } from 'hono'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'
import type { Policy } from './cache/policies'
import { POLICIES } from './cache/policies'
import type { PageKind, PageType } from './catalog/enums'
import type { AppEnv } from './env'
import type { Shaping } from './flags/definitions'
import { CALL_TO_ACTION_FLAGS, DOCUMENT_FLAGS, EVERY_PAGE_FLAGS } from './flags/definitions'
import type { PageContext } from './flags/page-context'
import { NO_PAGE } from './flags/page-context'
import { pageTarget } from './flags/page-target'
import type { RoutedPage } from './request/decision'
import type { EntityKind, GateKind } from './gate/gate-filter'
import type { PageQuery } from './queries/page-query'
import { activitiesQuery, directoryQuery, jobListingQuery, noQuery } from './queries/page-query'
import { activitiesPage } from './routes/activities'
import { cityHubPage } from './routes/city-hub'
import { cityCostGuidePage, nationalCostGuidePage } from './routes/cost-guide'
import { directoryPage } from './routes/directory'
import { homePage } from './routes/home'
import { jobDetailPage } from './routes/job-detail'
import { jobListingPage } from './routes/job-listing'
import { purgeEndpoint } from './routes/ops-purge'
import { opsSignIn } from './routes/ops-sign-in'
import { opsFlagChange, opsFlags, opsFlagSave, opsFlagVisitor } from './routes/ops-flags'
import {
  opsCheck,
  opsConsole,
  opsLivePreview,
  opsPurgeConfirm,
  opsPurgePreview,
  opsPurgeResult,
  opsPurges,
} from './routes/ops-console'
import { catalogEndpoint, replayEndpoint } from './routes/ops-catalog'
import { opsHealth, opsHealthReplay, opsLiveHealth } from './routes/ops-health'
import { guestMessageSent, sendGuestMessage } from './routes/guest-message'
import { providerProfilePage } from './routes/provider-profile'
import { searchPage } from './routes/search'
import { segmentPage } from './routes/segment'
import { serviceNationalPage } from './routes/service-national'
import { serviceStatePage } from './routes/service-state'
import { robotsTxt, sitemapFile, sitemapIndex } from './routes/sitemaps'
import { intentStep, providerEntry, whoNeedsCareStep } from './routes/visitor-flow'
import { DATA_PREFIX } from './urls/data-prefix'
import {
  OPS_CATALOG,
  OPS_CATALOG_REPLAY,
  OPS_CHECK,
  OPS_HEALTH,
  OPS_HEALTH_REPLAY,
  OPS_LIVE_HEALTH,
  OPS_LIVE_PREVIEW,
  OPS_CONSOLE,
  OPS_PURGE,
  OPS_PURGE_PREVIEW,
  OPS_PURGE_RESULT,
  OPS_PURGES,
  OPS_SIGN_IN,
  OPS_FLAGS,
  OPS_FLAG_CHANGE,
  OPS_FLAG_VISITOR,
  PATTERNS,
  ROBOTS,
  SITEMAP_FILE,
  SITEMAP_INDEX,
} from './urls/paths'

/**
 * One route of the site: everything the pipeline needs to know about a URL before its handler
 * runs. app.ts mounts each row; adding a page type is a row, a handler and a view
 * (docs/request-flow.md).
 */
export interface PageRow {
  /** A Hono pattern from src/urls/paths.ts. */
  pattern: string
  method: 'GET' | 'POST'
  /**
   * The analytics page type (`seoSearchListing`, …), coarser than the row: what flag rules
   * target (src/flags/page-target.ts), the log line's `pageType` and the `page:` cache tag.
   */
  pageType: PageType | null
  /** The analytics page kind of listings. */
  pageKind: PageKind | null
  /** Route parameters the gate checks against the bloom filter before any read. */
  gate: Record<string, GateKind> | null
  /**
   * An entity's own page, at a path ending in its slug (`:slug`): a request under another name
   * part of an entity the isolate has answered for is redirected before the edge cache
   * (src/cache/entity-redirect.ts).
   */
  entity: EntityKind | null
  /** How long the edge cache keeps it (src/cache/policies.ts); null: never stored. */
  policy: Policy | null
  /**
   * The query it reads, canonical, from its route parameters (src/queries/page-query.ts): the
   * only part of the query in its cache key. Default: none, so every query form is one entry.
   */
  query: PageQuery
  /** Whether the page also answers its state as JSON at `/_data{path}` for client navigation. */
  data: boolean
  /** The flags and configuration keys that shape it: its variant keys on exactly these. */
  flags: readonly Shaping[]
  handler: Handler<AppEnv>
}

const page = (row: Partial<PageRow> & Pick<PageRow, 'pattern' | 'handler'>): PageRow => ({
  method: 'GET',
  pageType: null,
  pageKind: null,
  gate: null,
  entity: null,
  policy: null,
  query: noQuery,
  data: false,
  flags: CALL_TO_ACTION_FLAGS,
  ...row,
})

const CITY_GATE = { city: 'city' } as const
/** Sitemaps and robots.txt list the pages that exist: the flags and keys that remove some. */
const SITEMAP_FLAGS: readonly Shaping[] = [
  ...EVERY_PAGE_FLAGS,
  'cookingCategory',
  'costGuideLocalPage',
]
const LISTING = 'seoSearchListing'

/**
 * Every route of the site, and what shapes each, by the page's name (`PageName`): what the
 * sample pages, the bench, the audit and the screenshots call it (docs/request-flow.md).
 */
export const PAGES = {
  home: page({
    pattern: PATTERNS.home,
    policy: POLICIES.hub,
    handler: homePage,
  }),
  // A visitor's search: answered with a redirect or a question back, never stored; its JSON twin
  // is the typeahead's suggestions.
  search: page({
    pattern: PATTERNS.search,
    data: true,
    flags: DOCUMENT_FLAGS,
    handler: searchPage,
  }),
  serviceNational: page({
    pattern: PATTERNS.serviceNational,
    pageType: LISTING,
    policy: POLICIES.hub,
    flags: [...CALL_TO_ACTION_FLAGS, 'pillarPageRouting'],
    handler: serviceNationalPage,
  }),
  serviceState: page({
    pattern: PATTERNS.serviceState,
    pageType: LISTING,
    pageKind: 'SEGMENTATION_STATE',
    policy: POLICIES.hub,
    flags: [...CALL_TO_ACTION_FLAGS, 'robustDaycareCards'],
    handler: serviceStatePage,
  }),
  directory: page({
    pattern: PATTERNS.serviceCity,
    pageType: LISTING,
    pageKind: 'PROVIDERS',
    gate: CITY_GATE,
    policy: POLICIES.directory,
    query: directoryQuery,
    data: true,
    flags: [
      ...CALL_TO_ACTION_FLAGS,
      'rankedDirectorySorting',
      'robustDaycareCards',
      'costGuideLocalPage',
    ],
    handler: directoryPage,
  }),
  jobListing: page({
    pattern: PATTERNS.jobListing,
    pageType: LISTING,
    pageKind: 'JOBS',
    gate: CITY_GATE,
    policy: POLICIES.jobs,
    query: jobListingQuery,
    data: true,
    handler: jobListingPage,
  }),
  cityHub: page({
    pattern: PATTERNS.cityHub,
    pageType: LISTING,
    pageKind: 'ALL_SERVICES_CITY',
    gate: CITY_GATE,
    policy: POLICIES.hub,
    handler: cityHubPage,
  }),
  profile: page({
    pattern: PATTERNS.provider,
    pageType: 'seoProviderProfile',
    gate: { slug: 'provider' },
    entity: 'provider',
    policy: POLICIES.profile,
    flags: [...CALL_TO_ACTION_FLAGS, 'embeddedGuestMessaging', 'robustDaycareCards'],
    handler: providerProfilePage,
  }),
  // The profile's message form (flag embeddedGuestMessaging): about one visitor, never stored.
  // The profile's page type, so a rollout that targets profiles reaches the form's post too.
  profileMessage: page({
    pattern: PATTERNS.providerMessage,
    method: 'POST',
    pageType: 'seoProviderProfile',
    gate: { slug: 'provider' },
    flags: [...DOCUMENT_FLAGS, 'embeddedGuestMessaging'],
    handler: sendGuestMessage,
  }),
  profileMessageSent: page({
    pattern: PATTERNS.providerMessageSent,
    pageType: 'seoProviderProfile',
    gate: { slug: 'provider' },
    flags: [...DOCUMENT_FLAGS, 'embeddedGuestMessaging'],
    handler: guestMessageSent,
  }),
  job: page({
    pattern: PATTERNS.job,
    pageType: 'seoJobDetail',
    gate: { slug: 'job' },
    entity: 'job',
    policy: POLICIES.job,
    handler: jobDetailPage,
  }),
  costNational: page({
    pattern: PATTERNS.costNational,
    pageType: 'costGuide',
    policy: POLICIES.cost,
    flags: [...CALL_TO_ACTION_FLAGS, 'costGuideLocalPage'],
    handler: nationalCostGuidePage,
  }),
  costCity: page({
    pattern: PATTERNS.costCity,
    pageType: 'costGuide',
    gate: CITY_GATE,
    policy: POLICIES.cost,
    flags: [...CALL_TO_ACTION_FLAGS, 'costGuideLocalPage'],
    handler: cityCostGuidePage,
  }),
  activities: page({
    pattern: PATTERNS.activities,
    pageType: 'campsAndActivities',
    policy: POLICIES.activities,
    query: activitiesQuery,
    data: true,
    flags: [...CALL_TO_ACTION_FLAGS, 'providerSignUpBanner', 'campsFilter', 'cookingCategory'],
    handler: activitiesPage,
  }),
  segment: page({
    pattern: PATTERNS.segment,
    policy: POLICIES.segment,
    handler: segmentPage,
  }),
  flowIntent: page({
    pattern: PATTERNS.flowIntent,
    data: true,
    handler: intentStep(isReturnPage),
  }),
  flowWhoNeedsCare: page({
    pattern: PATTERNS.flowWhoNeedsCare,
    handler: whoNeedsCareStep(isReturnPage),
  }),
  flowProvider: page({
    pattern: PATTERNS.flowProvider,
    handler: providerEntry(isReturnPage),
  }),
  sitemapIndex: page({
    pattern: SITEMAP_INDEX,
    policy: POLICIES.sitemap,
    flags: SITEMAP_FLAGS,
    handler: sitemapIndex,
  }),
  sitemapFile: page({
    pattern: SITEMAP_FILE,
    policy: POLICIES.sitemap,
    flags: SITEMAP_FLAGS,
    handler: sitemapFile,
  }),
  robots: page({
    pattern: ROBOTS,
    policy: POLICIES.sitemap,
    flags: SITEMAP_FLAGS,
    handler: robotsTxt,
  }),
  opsPurge: page({
    pattern: OPS_PURGE,
    method: 'POST',
    flags: DOCUMENT_FLAGS,
    handler: purgeEndpoint,
  }),
  opsCatalog: page({
    pattern: OPS_CATALOG,
    method: 'POST',
    flags: DOCUMENT_FLAGS,
    handler: catalogEndpoint,
  }),
  opsCatalogReplay: page({
    pattern: OPS_CATALOG_REPLAY,
    method: 'POST',
    flags: DOCUMENT_FLAGS,
    handler: replayEndpoint,
  }),
  // The ops console, behind Cloudflare Access (src/request/ops-access.ts); never stored.
  opsConsole: page({ pattern: OPS_CONSOLE, flags: DOCUMENT_FLAGS, handler: opsConsole }),
  opsPurges: page({ pattern: OPS_PURGES, flags: DOCUMENT_FLAGS, handler: opsPurges }),
  opsPurgeConfirm: page({
    pattern: OPS_PURGES,
    method: 'POST',
    flags: DOCUMENT_FLAGS,
    handler: opsPurgeConfirm,
  }),
  opsPurgePreview: page({
    pattern: OPS_PURGE_PREVIEW,
    flags: DOCUMENT_FLAGS,
    handler: opsPurgePreview,
  }),
  opsPurgeResult: page({
    pattern: OPS_PURGE_RESULT,
    flags: DOCUMENT_FLAGS,
    handler: opsPurgeResult,
  }),
  opsCheck: page({ pattern: OPS_CHECK, flags: DOCUMENT_FLAGS, handler: opsCheck }),
  opsFlags: page({ pattern: OPS_FLAGS, flags: DOCUMENT_FLAGS, handler: opsFlags }),
  opsFlagSave: page({
    pattern: OPS_FLAGS,
    method: 'POST',
    flags: DOCUMENT_FLAGS,
    handler: opsFlagSave,
  }),
  opsFlagChange: page({ pattern: OPS_FLAG_CHANGE, flags: DOCUMENT_FLAGS, handler: opsFlagChange }),
  opsFlagPreview: page({
    pattern: OPS_FLAG_CHANGE,
    method: 'POST',
    flags: DOCUMENT_FLAGS,
    handler: opsFlagChange,
  }),
  opsFlagVisitor: page({
    pattern: OPS_FLAG_VISITOR,
    flags: DOCUMENT_FLAGS,
    handler: opsFlagVisitor,
  }),
  opsHealth: page({ pattern: OPS_HEALTH, flags: DOCUMENT_FLAGS, handler: opsHealth }),
  opsHealthReplay: page({
    pattern: OPS_HEALTH_REPLAY,
    method: 'POST',
    flags: DOCUMENT_FLAGS,
    handler: opsHealthReplay,
  }),
  // What the console's islands fetch (src/client/ops.tsx), behind Access as its pages.
  opsLivePreview: page({
    pattern: OPS_LIVE_PREVIEW,
    flags: DOCUMENT_FLAGS,
    handler: opsLivePreview,
  }),
  opsLiveHealth: page({ pattern: OPS_LIVE_HEALTH, flags: DOCUMENT_FLAGS, handler: opsLiveHealth }),
  opsSignIn: page({ pattern: OPS_SIGN_IN, flags: DOCUMENT_FLAGS, handler: opsSignIn }),
} satisfies Record<string, PageRow>

/** A page's name: its row's key in the page table. */
export type PageName = keyof typeof PAGES

/** Each row's paths: its pattern, and its JSON twin under `/_data` when it has one. */
export const ROUTES: readonly { name: PageName; row: PageRow; path: string }[] = (
  Object.entries(PAGES) as [PageName, PageRow][]
).flatMap(([name, row]) =>
  row.data
    ? [
        { name, row, path: row.pattern },
        { name, row, path: DATA_PREFIX + row.pattern },
      ]
    : [{ name, row, path: row.pattern }],
)

// The routers Hono itself chooses from: the first that can hold every pattern.
const router = new SmartRouter<{ name: PageName; row: PageRow }>({
  routers: [new RegExpRouter(), new TrieRouter()],
})
for (const { name, row, path } of ROUTES) router.add(row.method, path, { name, row })

/** The page a request's method and path route to: its name, its row, the route's parameters. */
export function matchPage(
  method: string,
  path: string,
): { name: PageName; row: PageRow; params: Record<string, string> } | null {
  const [matches, stash] = router.match(method === 'HEAD' ? 'GET' : method, path)
  const first = matches[0]
  if (!first) return null
  const [{ name, row }, found] = first
  const params: Record<string, string> = {}
  for (const [param, at] of Object.entries(found))
    params[param] = stash ? (stash[at as number] ?? '') : String(at)
  return { name, row, params }
}

/**
 * The methods `path` answers, from the page table: each method a row serves it by, with HEAD
 * beside GET. A path no row serves answers GET and HEAD, with a 404.
 */
export function methodsOf(path: string): readonly string[] {
  const served = (['GET', 'POST'] as const).filter((method) => matchPage(method, path) !== null)
  if (served.length === 0) return ['GET', 'HEAD']
  return served.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]))
}

/** The rows that are files for crawlers, no page for a person. */
export const CRAWLER_FILES: ReadonlySet<PageName> = new Set([
  'sitemapIndex',
  'sitemapFile',
  'robots',
])

/**
 * Whether the visitor flow may send a visitor back to `path` (src/urls/return-path.ts): a page
 * for people that a row serves, one the edge cache stores. Flow steps, sitemaps and the ops
 * endpoint are no place to return to.
 */
export function isReturnPage(path: string): boolean {
  const match = matchPage('GET', path)
  return match !== null && match.row.policy !== null && !CRAWLER_FILES.has(match.name)
}

/** What the fast path needs of the row a GET path routes to, or null for none. */
export function routedPage(path: string): RoutedPage | null {
  const match = matchPage('GET', path)
  if (!match) return null
  return routedOf(match.row, match.params)
}

/**
 * Whether `row`'s URL names a provider or a job by id: the gate passes such ids on to control's
 * directory read, whose 404s are limited per address (src/request/id-misses.ts).
 */
export function namesAnId(row: PageRow): boolean {
  return Object.values(row.gate ?? {}).some((kind) => kind !== 'city')
}

/** What the steps after the page table need of a request routed to `row`. */
function routedOf(row: PageRow, params: Readonly<Record<string, string>>): RoutedPage {
  return {
    pattern: row.pattern,
    page: contextOf(row, params),
    policy: row.policy,
    query: row.query,
    gate: row.gate,
    params,
  }
}

/** What the flags and analytics know of the page a request asks for. */
export function pageContextOf(method: string, path: string): PageContext {
  const match = matchPage(method, path)
  if (!match) return NO_PAGE
  return contextOf(match.row, match.params)
}

/** What the flags and analytics know of a request routed to `row`. */
function contextOf(
  row: PageRow,
  params: Readonly<Record<string, string | undefined>>,
): PageContext {
  return {
    target: pageTarget(row.pageType, params),
    shapedBy: row.flags,
    pageKind: row.pageKind,
  }
}

/**
 * Tells a request routed to `row` its row and page, first thing, for every step after (the ones
 * the fast path decided for, when it handed the request on); mounted on the row's paths, so the
 * URL is routed once (a request no row matches keeps NO_PAGE).
 */
export function pageContext(row: PageRow): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const routed = c.env.decided?.routed ?? routedOf(row, c.req.param())
    c.set('routed', routed)
    c.set('page', routed.page)
    await next()
  }
}

/** Every request starts with no page; a row's own step, after this, names its page. */
export const noPage: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('page', NO_PAGE)
  c.set('routed', null)
  await next()
}
