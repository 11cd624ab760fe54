import type { FlagName } from '../flags/definitions'
import { BUILD } from '../views/assets'
import type { RoutedQuery } from '../queries/page-query'

/**
 * The cache key of a page: its path as routed, the query as the page reads it (`query`, from
 * its page row's PageQuery: canonical, so nothing the page ignores reaches the key), the variant
 * fingerprint of the flags that shaped it and the build (a deploy never serves pages linking
 * assets it no longer has), on the public origin (never the Host header).
 */
export function cacheKey(origin: string, path: string, query: string, variant: string): string {
  const pairs = query.replace(/^\?/, '').split('&')
  const all = [...pairs.filter(Boolean), `__variant=${variant}`, `__build=${BUILD}`]
  return `${origin.replace(/\/+$/, '')}${path}?${all.join('&')}`
}

/**
 * The cache key of a request for the page `routed` (its row's query parser and the route's
 * parameters), for the flags it is served with;
 * null when the page refuses the query (a 400), which is then neither looked up nor stored: a
 * key of its own for every refused query would only hold errors. `path` is the path the router
 * matched (decoded), so the key names the page that is rendered, however the URL spelled it.
 */
export function pageKey(
  routed: RoutedQuery,
  origin: string,
  path: string,
  search: URLSearchParams,
  on: (name: FlagName) => boolean,
  variant: string,
): string | null {
  const query = routed.query(routed.params, search, on)
  return query === null ? null : cacheKey(origin, path, query, variant)
}
