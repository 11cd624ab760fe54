import { Hono } from 'hono'
import type { Rerender } from './cache/edge-cache'
import { edgeCache } from './cache/edge-cache'
import { knownEntityPath } from './cache/entity-redirect'
import type { AppEnv } from './env'
import {
  methodsOf,
  namesAnId,
  noPage,
  pageContext,
  pageContextOf,
  ROUTES,
  routedPage,
} from './pages'
import { dataRequests } from './request/data-requests'
import { withDecision } from './request/decision'
import { decision } from './request/decision-step'
import { fastPath } from './fast-path'
import { allowMethods, normaliseRequest } from './request/normalise-request'
import { Memory } from './memory'
import type { SourcesOf } from './request/page-reads'
import { routedSources } from './request/page-reads'
import { idMisses } from './request/id-misses'
import { requestContext } from './request/request-context'
import { wayOut } from './request/way-out'
import { notFound, onError, renderedNotFound } from './routes/error-response'
import { DATA_PREFIX } from './urls/data-prefix'
import { OPS_PREFIX } from './urls/paths'

/**
 * The pipeline, top to bottom: the way out (src/request/way-out.ts) → the page table's row →
 * context → normalise → methods → data requests → the decision (gate, flags, cache key) → an
 * entity's known path → edge cache → the limit of id 404s → route → errors.
 * The app keeps `memory` between requests: a new app starts as a fresh isolate does. `routes`:
 * the page table's, or the benchmark's with one row's handler replaced (scripts/bench).
 * `sources`: which database each role of a page's reads is (src/request/page-reads.ts).
 */
export function createApp(
  memory = new Memory(),
  routes = ROUTES,
  sources: SourcesOf = routedSources,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  app.use(wayOut, noPage)
  for (const { row, path } of routes) app.use(path, pageContext(row))
  app.use(requestContext(memory, sources), normaliseRequest, allowMethods(methodsOf))
  app.use(`${DATA_PREFIX}/*`, dataRequests)
  app.use(`${OPS_PREFIX}/*`, async (c, next) => {
    // Hono types its context's ExecutionContext apart from the runtime's; it is the runtime's.
    const ctx = c.executionCtx as unknown as ExecutionContext
    c.set('fetchSelf', async (request) => withFastPath(memory, app)(request, c.env, ctx))
    c.set('pageOf', (path) => pageContextOf('GET', path))
    await next()
  })

  app.use(decision)

  // A stale page is refreshed by rendering its request again, through this same pipeline,
  // which decides it afresh.
  const rerender: Rerender = async (request, env, ctx) =>
    app.fetch(request, withDecision(env, undefined), ctx)
  for (const { row, path } of routes) {
    if (row.entity) app.use(path, knownEntityPath(row.entity))
    if (row.policy) app.use(path, edgeCache(row.policy, rerender))
    if (namesAnId(row)) app.use(path, idMisses)
    app.on(row.method, path, row.handler)
  }

  app.notFound(notFound)
  app.onError(onError)
  return app
}

/**
 * The worker's fetch: the fast path (src/fast-path.ts) first, then `app`, handed the decision
 * the fast path made of the request, if any.
 */
export function withFastPath(
  memory: Memory,
  app: Hono<AppEnv>,
): (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response> {
  const early = fastPath(memory, { route: routedPage, notFound: renderedNotFound })
  return (request, env, ctx) => {
    const answered = early(request, env, ctx)
    if (answered instanceof Response) return answered
    return app.fetch(request, withDecision(env, answered ?? undefined), ctx)
  }
}

/** The worker's app and what its isolate keeps, which the cron's refresh also reaches. */
export const memory = new Memory()
export const app = createApp(memory)
export const fetch = withFastPath(memory, app)
