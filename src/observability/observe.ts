import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import type { PageContext } from '../flags/page-context'
import { log, requestIdOf } from './log'
import { Reporter } from './reporter'
import { Timing } from './timing'
import { Trail } from './trail'

/** The route and page type of a request, as error reports and traces are tagged. */
export function tagsOf(c: Context<AppEnv>): { route: string; pageType: string } {
  // Unset only when a step before the page table's failed.
  return pageTags(c.req.routePath, c.get('page'))
}

/** The tags of a request routed to `routePath` (a Hono pattern) for `page`. */
export function pageTags(
  routePath: string,
  page: PageContext | undefined,
): { route: string; pageType: string } {
  // The route pattern without its parameters' regular expressions: `/explore/d/:keyword`.
  return {
    route: routePath.replace(/\{[^{}]*\}/g, ''),
    pageType: page?.target.pageType ?? 'none',
  }
}

/** What the log line of a request says. */
export interface RequestLine {
  requestId: string
  method: string
  path: string
  /** The query, of which only the parameter names are logged. */
  query: URLSearchParams
  status: number
  pageType: string
  cache: string
  started: number
  bot: boolean
}

/** The one log line of a request (Workers Logs and `wrangler tail` show it). */
export function logRequest(line: RequestLine): void {
  const { requestId, method, path, query, status, pageType, cache, started, bot } = line
  log('info', 'request', {
    requestId,
    method,
    path,
    // Parameter names only: values could identify a visitor.
    params: [...new Set(query.keys())],
    status,
    pageType,
    cache,
    ms: Date.now() - started,
    bot,
  })
}

/**
 * The first step of every request and the last word on it: sets up timing, breadcrumbs and
 * error reporting, makes sure every 5xx is reported exactly once, sends the sampled trace, and
 * writes one JSON log line (`wrangler tail` shows it).
 */
export const observe: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = Date.now()
  const trail = new Trail()
  const requestId = requestIdOf(c.req.raw)
  const reporter = new Reporter({
    requestId,
    dsn: c.env.SENTRY_DSN,
    request: c.req.raw,
    waitUntil: (p) => c.executionCtx.waitUntil(p),
    environment: c.env.ENVIRONMENT,
    trail,
  })
  c.set('timing', new Timing())
  c.set('trail', trail)
  c.set('reporter', reporter)
  await next()

  if (!c.res.headers.has('x-cache')) c.header('x-cache', 'BYPASS')
  const status = c.res.status
  const tags = tagsOf(c)
  if (status >= 500 && !reporter.reportedError)
    reporter.error(new Error(`HTTP ${status} on ${c.req.path}`), tags)
  reporter.finish(status, tags)
  logRequest({
    requestId,
    method: c.req.method,
    path: c.req.path,
    query: new URL(c.req.url).searchParams,
    status,
    pageType: tags.pageType,
    cache: c.res.headers.get('x-cache') ?? 'none',
    started,
    bot: c.get('bot') ?? false,
  })
}
