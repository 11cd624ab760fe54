import { Hono } from 'hono'
import type { Rerender } from './cache/edge-cache'
import { edgeCache } from './cache/edge-cache'
import { POLICIES } from './cache/policies'
import type { AppEnv } from './env'
import { flags } from './flags/flags-middleware'
import { gate } from './gate/gate'
import { observe } from './observability/observe'
import { requestContext } from './request/request-context'
import { securityHeaders } from './request/security-headers'
import { allowMethods, normaliseRequest } from './request/normalise-request'
import { dataRequests } from './request/data-requests'
import { visitorCookies } from './request/visitor-cookies'
import { activitiesPage } from './routes/activities'
import { cityHubPage } from './routes/city-hub'
import { costGuidePage } from './routes/cost-guide'
import { directoryPage } from './routes/directory'
import { notFound, onError } from './routes/error-response'
import { jobDetailPage } from './routes/job-detail'
import { jobListingPage } from './routes/job-listing'
import { purgeEndpoint } from './routes/ops-purge'
import { DATA_PREFIX } from './urls/data-prefix'
import { OPS_PURGE, PATTERNS, ROBOTS, SITEMAP_FILE, SITEMAP_INDEX } from './urls/paths'
import { providerProfilePage } from './routes/provider-profile'
import { segmentPage } from './routes/segment'
import { serviceNationalPage } from './routes/service-national'
import { serviceStatePage } from './routes/service-state'
import { robotsTxt, sitemapFile, sitemapIndex } from './routes/sitemaps'
import { intentStep, whoNeedsCareStep } from './routes/visitor-flow'

// The request pipeline, top to bottom:
// security headers (on the way out) → observe (reporting, log line) → context → visitor cookies (on the way out) → normalise →
// methods → data requests → gate → flags → edge cache → route → errors.
export const app = new Hono<AppEnv>()

app.use(securityHeaders)
app.use(observe)
app.use(requestContext)
app.use(visitorCookies)
app.use(normaliseRequest)
app.use(allowMethods)

// Listing pages also answer their state as JSON at /_data{path}, for client navigation
// (SPEC section 8): the same gate, cache and route, told apart by the path.
const data = (pattern: string) => `${DATA_PREFIX}${pattern}`
app.use(data('/*'), dataRequests)

app.use(PATTERNS.serviceCity, gate({ city: 'city' }))
app.use(data(PATTERNS.serviceCity), gate({ city: 'city' }))
app.use(PATTERNS.jobListing, gate({ city: 'city' }))
app.use(data(PATTERNS.jobListing), gate({ city: 'city' }))
app.use(PATTERNS.cityHub, gate({ city: 'city' }))
app.use(PATTERNS.costCity, gate({ city: 'city' }))
app.use(PATTERNS.provider, gate({ slug: 'provider' }))
app.use(PATTERNS.job, gate({ slug: 'job' }))

app.use(flags)

// A stale page is refreshed by rendering its request again, through this same pipeline.
const rerender: Rerender = async (request, env, ctx) => app.fetch(request, env, ctx)
app.use(PATTERNS.serviceNational, edgeCache(POLICIES.hub, rerender))
app.use(PATTERNS.serviceState, edgeCache(POLICIES.hub, rerender))
app.use(PATTERNS.serviceCity, edgeCache(POLICIES.directory, rerender))
app.use(data(PATTERNS.serviceCity), edgeCache(POLICIES.directory, rerender))
app.use(PATTERNS.jobListing, edgeCache(POLICIES.jobs, rerender))
app.use(data(PATTERNS.jobListing), edgeCache(POLICIES.jobs, rerender))
app.use(PATTERNS.cityHub, edgeCache(POLICIES.hub, rerender))
app.use(PATTERNS.provider, edgeCache(POLICIES.profile, rerender))
app.use(PATTERNS.job, edgeCache(POLICIES.job, rerender))
app.use(PATTERNS.costNational, edgeCache(POLICIES.cost, rerender))
app.use(PATTERNS.costCity, edgeCache(POLICIES.cost, rerender))
app.use(PATTERNS.activities, edgeCache(POLICIES.activities, rerender))
app.use(data(PATTERNS.activities), edgeCache(POLICIES.activities, rerender))
app.use(PATTERNS.segment, edgeCache(POLICIES.segment, rerender))
app.use(SITEMAP_INDEX, edgeCache(POLICIES.sitemap, rerender))
app.use(SITEMAP_FILE, edgeCache(POLICIES.sitemap, rerender))
app.use(ROBOTS, edgeCache(POLICIES.sitemap, rerender))

app.get(PATTERNS.serviceNational, serviceNationalPage)
app.get(PATTERNS.serviceState, serviceStatePage)
app.get(PATTERNS.serviceCity, directoryPage)
app.get(data(PATTERNS.serviceCity), directoryPage)
app.get(PATTERNS.jobListing, jobListingPage)
app.get(data(PATTERNS.jobListing), jobListingPage)
app.get(PATTERNS.cityHub, cityHubPage)
app.get(PATTERNS.provider, providerProfilePage)
app.get(PATTERNS.job, jobDetailPage)
app.get(PATTERNS.costNational, costGuidePage)
app.get(PATTERNS.costCity, costGuidePage)
app.get(PATTERNS.activities, activitiesPage)
app.get(data(PATTERNS.activities), activitiesPage)
app.get(PATTERNS.segment, segmentPage)
app.get(PATTERNS.flowWhoNeedsCare, whoNeedsCareStep)
app.get(PATTERNS.flowIntent, intentStep)
app.get(data(PATTERNS.flowIntent), intentStep)

app.get(SITEMAP_INDEX, sitemapIndex)
app.get(SITEMAP_FILE, sitemapFile)
app.get(ROBOTS, robotsTxt)

app.post(OPS_PURGE, purgeEndpoint)

app.notFound(notFound)
app.onError(onError)
