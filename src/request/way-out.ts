import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import type { Config } from '../flags/definitions'
import { DEFAULT_FLAGS } from '../flags/request-flags'
import { newNonce } from '../lib/nonce'
import { requestIdOf } from '../observability/log'
import { logRequest, tagsOf } from '../observability/observe'
import { Reporter } from '../observability/reporter'
import { Timing } from '../observability/timing'
import { Trail } from '../observability/trail'
import { OPS_PREFIX } from '../urls/paths'
import { isCrawler } from './crawler'
import { isPrefetch } from './prefetch'
import { secure } from './security-headers'
import type { Visitor } from './visitor-cookies'
import { setVisitorCookies, visitorOf } from './visitor-cookies'

/** What a response needs on its way out, whichever path answered it. */
export interface Outbound {
  request: Request
  /** The path as routed (decoded), for the log line and reports. */
  path: string
  /** The request's query, whose parameter names the log line names. */
  query: URLSearchParams
  env: Env
  /** This response's Content-Security-Policy nonce, made before anything rendered. */
  nonce: string
  /** The configuration the response was rendered with (the defaults before the flags step). */
  config: Pick<Config, 'tagManagerEnabled'>
  /** The visitor whose cookies the response carries; null for ops calls, which are no visits. */
  visitor: Visitor | null
  reporter: Reporter
  tags: { route: string; pageType: string }
  /** When the request arrived, in ms. */
  started: number
  bot: boolean
}

/**
 * The way out of every response, the pipeline's and the fast path's alike: the visitor cookies
 * (after any cache, so no shared cache stores them; none at all on a prefetch), `x-cache`, the
 * report of a 5xx no error explained and the sampled trace, the security headers with the
 * response's nonce, the request's log line, and HEAD without a body. A new outbound step is
 * written here, once.
 */
export function finishResponse(res: Response, out: Outbound): Response {
  const { request, path, env, reporter, tags } = out
  const apply = (headers: Headers) => {
    if (out.visitor && isPrefetch(request.headers)) headers.delete('set-cookie')
    else if (out.visitor) setVisitorCookies(headers, out.visitor, Math.floor(Date.now() / 1000))
    if (!headers.has('x-cache')) headers.set('x-cache', 'BYPASS')
    secure(headers, out.nonce, env.SENTRY_BROWSER_DSN, out.config)
  }
  try {
    apply(res.headers)
  } catch {
    // A response whose headers are immutable (one fetched as it is) is copied once.
    const headers = new Headers(res.headers)
    apply(headers)
    res = new Response(res.body, { status: res.status, statusText: res.statusText, headers })
  }
  const status = res.status
  if (status >= 500 && !reporter.reportedError)
    reporter.error(new Error(`HTTP ${status} on ${path}`), tags)
  reporter.finish(status, tags)
  logRequest({
    requestId: reporter.requestId,
    method: request.method,
    path,
    query: out.query,
    status,
    pageType: tags.pageType,
    cache: res.headers.get('x-cache') ?? 'none',
    started: out.started,
    bot: out.bot,
  })
  return request.method === 'HEAD' ? new Response(null, res) : res
}

/** The reporter of one request, with its breadcrumbs. */
export function reporterOf(
  request: Request,
  env: Env,
  waitUntil: (p: Promise<unknown>) => void,
  trail: Trail,
): Reporter {
  return new Reporter({
    requestId: requestIdOf(request),
    dsn: env.SENTRY_DSN,
    request,
    waitUntil,
    environment: env.ENVIRONMENT,
    trail,
  })
}

/**
 * The pipeline's first step and last word: it makes the nonce, timing, breadcrumbs, error
 * reporting and the visitor before anything else runs, and finishes the response with
 * `finishResponse` once everything else has.
 */
export const wayOut: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = Date.now()
  const nonce = newNonce()
  const trail = new Trail()
  const reporter = reporterOf(c.req.raw, c.env, (p) => c.executionCtx.waitUntil(p), trail)
  // The fast path's decision brings the visitor and crawler it decided for: the same device id.
  const asker = c.env.decided?.asker ?? {
    visitor: visitorOf(c.req.raw.headers.get('cookie')),
    bot: isCrawler(c.req.header('user-agent')),
  }
  const { visitor } = asker
  c.set('nonce', nonce)
  c.set('timing', new Timing())
  c.set('trail', trail)
  c.set('reporter', reporter)
  c.set('deviceId', visitor.deviceId)
  c.set('bot', asker.bot)
  c.set('asker', asker)
  // Until the flags step reads the flag set: what an early error page is rendered with.
  c.set('flags', DEFAULT_FLAGS)
  await next()
  const res = finishResponse(c.res, {
    request: c.req.raw,
    path: c.req.path,
    query: new URL(c.req.url).searchParams,
    env: c.env,
    nonce,
    config: c.get('flags').config,
    // Ops calls and the ops console are not visits.
    visitor: c.req.path === OPS_PREFIX || c.req.path.startsWith(`${OPS_PREFIX}/`) ? null : visitor,
    reporter,
    tags: tagsOf(c),
    started,
    bot: c.get('bot'),
  })
  c.res = undefined
  c.res = res
}
