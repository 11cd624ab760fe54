import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { log } from './log'

/** The route and page type of a request, as error reports and traces are tagged. */
export function tagsOf(c: Context<AppEnv>): { route: string; pageType: string } {
  // Unset only when a step before the page table's failed.
  return pageTags(c.req.routePath, c.get('page')?.target.pageType)
}

/** The tags of a request routed to `routePath` (a Hono pattern) for a page of `pageType`. */
export function pageTags(
  routePath: string,
  pageType: string | null | undefined,
): { route: string; pageType: string } {
  // The route pattern without its parameters' regular expressions: `/explore/d/:keyword`.
  return {
    route: routePath.replace(/\{[^{}]*\}/g, ''),
    pageType: pageType ?? 'none',
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
