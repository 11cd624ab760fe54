import { HTTPException } from 'hono/http-exception'
import { lastPage } from '../catalog/filters'
import type { ParseResult } from '../queries/query-params'
import type { ListingPage } from '../seo/listing-head'

/** A listing's parsed query; a malformed one is a 400 page that says what was wrong. */
export function validQuery<T>(parsed: ParseResult<T>): T {
  if (!parsed.ok) throw new HTTPException(400, { message: parsed.error })
  return parsed.query
}

/**
 * The page of a listing of `total` results a request shows. A page past the last one is a 404:
 * as an empty listing answering 200 it would be a soft 404 (docs/pages.md, "Listing rules").
 */
export function listingPage(listing: ListingPage, total: number): ListingPage {
  if (listing.page > lastPage(total)) throw new HTTPException(404)
  return listing
}
