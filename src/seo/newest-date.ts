/**
 * The newest of a page's data dates (ISO 8601, as D1 stores them), for its `Last-Modified` and
 * its sitemap `lastmod`: a page built from several rows changed when the newest of them did.
 * Undefined when no row has a date: no date is better than a made-up one.
 */
export function newestDate(dates: Iterable<string | null | undefined>): string | undefined {
  let newest: string | undefined
  for (const date of dates) if (date && (newest === undefined || date > newest)) newest = date
  return newest
}
