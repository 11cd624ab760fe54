import type { Head, PageHeadInput } from './head'
import { pageHead } from './head'

/** The page of a listing a request shows. */
export interface ListingPage {
  /** The plain listing's path: no filter, the default sort, the first page. */
  path: string
  page: number
  /** Any filter, or a sort other than the default. */
  filtered: boolean
}

/**
 * The head of a page of a listing. Page N is a page of its own: its title says which (" – Page
 * N") and it keeps its own canonical (`?page=N`). A filtered or re-sorted listing points at the
 * plain page (docs/pages.md, "Listing rules").
 */
export function listingHead(
  origin: string,
  listing: ListingPage,
  head: Omit<PageHeadInput, 'path'>,
): Head {
  const paged = listing.page > 1
  return pageHead(origin, {
    ...head,
    title: paged ? `${head.title} – Page ${listing.page}` : head.title,
    path: paged && !listing.filtered ? `${listing.path}?page=${listing.page}` : listing.path,
  })
}
