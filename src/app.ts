import { Hono } from 'hono'
import type { AppEnv } from './env'
import { flags } from './flags/flags-middleware'
import { gate } from './gate/gate'
import { observe } from './observability/observe'
import { requestContext } from './request/request-context'
import { allowMethods, normaliseRequest } from './request/normalise-request'
import { visitorCookies } from './request/visitor-cookies'
import { activitiesPage } from './routes/activities'
import { cityHubPage } from './routes/city-hub'
import { costGuidePage } from './routes/cost-guide'
import { directoryPage } from './routes/directory'
import { notFound, onError } from './routes/error-response'
import { jobDetailPage } from './routes/job-detail'
import { jobListingPage } from './routes/job-listing'
import { PATTERNS } from './routes/paths'
import { providerProfilePage } from './routes/provider-profile'
import { segmentPage } from './routes/segment'
import { serviceNationalPage } from './routes/service-national'
import { serviceStatePage } from './routes/service-state'
import { intentStep, whoNeedsCareStep } from './routes/visitor-flow'

// The request pipeline, top to bottom:
// observe (reporting, log line) → context → visitor cookies (on the way out) → normalise →
// methods → gate → flags → route → errors.
export const app = new Hono<AppEnv>()

app.use(observe)
app.use(requestContext)
app.use(visitorCookies)
app.use(normaliseRequest)
app.use(allowMethods)

app.use(PATTERNS.serviceCity, gate({ city: 'city' }))
app.use(PATTERNS.jobListing, gate({ city: 'city' }))
app.use(PATTERNS.cityHub, gate({ city: 'city' }))
app.use(PATTERNS.costCity, gate({ city: 'city' }))
app.use(PATTERNS.provider, gate({ slug: 'provider' }))
app.use(PATTERNS.job, gate({ slug: 'job' }))

app.use(flags)

app.get(PATTERNS.serviceNational, serviceNationalPage)
app.get(PATTERNS.serviceState, serviceStatePage)
app.get(PATTERNS.serviceCity, directoryPage)
app.get(PATTERNS.jobListing, jobListingPage)
app.get(PATTERNS.cityHub, cityHubPage)
app.get(PATTERNS.provider, providerProfilePage)
app.get(PATTERNS.job, jobDetailPage)
app.get(PATTERNS.costNational, costGuidePage)
app.get(PATTERNS.costCity, costGuidePage)
app.get(PATTERNS.activities, activitiesPage)
app.get(PATTERNS.segment, segmentPage)
app.get(PATTERNS.flowWhoNeedsCare, whoNeedsCareStep)
app.get(PATTERNS.flowIntent, intentStep)

app.notFound(notFound)
app.onError(onError)
