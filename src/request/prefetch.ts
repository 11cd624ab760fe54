/**
 * A prefetch (`Purpose: prefetch` or `Sec-Purpose: prefetch`): no visit, no cookie
 * (docs/pages.md, "Cookies").
 */
export function isPrefetch(headers: Headers): boolean {
  return [headers.get('purpose'), headers.get('sec-purpose')].some(
    (v) => v !== null && /(^|[;,\s])prefetch\b/i.test(v),
  )
}
