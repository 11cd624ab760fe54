import { BUILD } from '../views/assets'

/** Values that mean the same as no parameter at all. */
const DEFAULTS: Readonly<Record<string, string>> = { page: '1', sort: 'recommended' }

/** Tracking parameters: never part of a key, never a reason for a new render. */
const TRACKING = /^(utm_.*|gclid|fbclid|msclkid|dclid|mc_(cid|eid)|_ga)$/i

/**
 * The cache key of a page: its normalised path, only the query parameters that change it
 * (sorted, values lowercased, lists in one order, repeats collapsed), the variant fingerprint
 * of the flags that shaped it and the build (a deploy never serves pages linking assets it no
 * longer has), on the public origin (never the Host header).
 */
export function cacheKey(
  origin: string,
  url: URL,
  params: readonly string[],
  variant: string,
): string {
  const pairs = new Set<string>()
  for (const [name, value] of url.searchParams) {
    if (TRACKING.test(name) || !params.includes(name)) continue
    const values = value
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter((v) => v !== '' && DEFAULTS[name] !== v)
    for (const v of values) pairs.add(`${encodeURIComponent(name)}=${encodeURIComponent(v)}`)
  }
  const query = [...pairs].sort()
  query.push(`__variant=${variant}`, `__build=${BUILD}`)
  return `${origin.replace(/\/+$/, '')}${url.pathname}?${query.join('&')}`
}

/** The tag every page has, so a URL purge reaches all its variants and query forms. */
export function urlTag(path: string): string {
  return `url:${path}`
}
