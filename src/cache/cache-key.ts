import type { FlagName } from '../flags/definitions'
import { BUILD } from '../views/assets'
import type { Policy } from './policies'

/**
 * The cache key of a page: its normalised path, the query as the page reads it (`query`, from
 * the policy's PageQuery: canonical, so nothing the page ignores reaches the key; null for a
 * query the page refuses), the variant fingerprint of the flags that shaped it and the build
 * (a deploy never serves pages linking assets it no longer has), on the public origin (never
 * the Host header).
 */
export function cacheKey(
  origin: string,
  path: string,
  query: string | null,
  variant: string,
): string {
  const pairs = query === null ? ['__query=invalid'] : query.replace(/^\?/, '').split('&')
  const all = [...pairs.filter(Boolean), `__variant=${variant}`, `__build=${BUILD}`]
  return `${origin.replace(/\/+$/, '')}${path}?${all.join('&')}`
}

/** The tag every page has, so a URL purge reaches all its variants and query forms. */
export function urlTag(path: string): string {
  return `url:${path}`
}

/** The cache key of a request for a page stored under `policy`, for the flags it is served with. */
export function pageKey(
  policy: Policy,
  origin: string,
  url: URL,
  on: (name: FlagName) => boolean,
  variant: string,
): string {
  return cacheKey(origin, url.pathname, policy.query(url.pathname, url.searchParams, on), variant)
}
