/** A prefetch (`Purpose: prefetch` or `Sec-Purpose: prefetch`, SPEC section 7): no visit, no cookie. */
export function isPrefetch(headers: Headers): boolean {
  return [headers.get('purpose'), headers.get('sec-purpose')].some(
    (v) => v !== null && /(^|[;,\s])prefetch\b/i.test(v),
  )
}
