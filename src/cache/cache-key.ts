import { BUILD } from '../views/assets'

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
