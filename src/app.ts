import { Hono } from 'hono'
import type { AppEnv } from './env'
import { gate } from './gate/gate'
import { requestContext } from './request/request-context'
import { allowMethods, normaliseRequest } from './request/normalise-request'
import { directoryPage } from './routes/directory'
import { notFound, onError } from './routes/error-response'
import { PATTERNS } from './routes/paths'
import { serviceNationalPage } from './routes/service-national'
import { serviceStatePage } from './routes/service-state'

// The request pipeline, top to bottom: context → normalise → methods → gate → route → errors.
export const app = new Hono<AppEnv>()

app.use(requestContext)
app.use(normaliseRequest)
app.use(allowMethods)

app.use(PATTERNS.serviceCity, gate({ city: 'city' }))

app.get(PATTERNS.serviceNational, serviceNationalPage)
app.get(PATTERNS.serviceState, serviceStatePage)
app.get(PATTERNS.serviceCity, directoryPage)

app.notFound(notFound)
app.onError(onError)
