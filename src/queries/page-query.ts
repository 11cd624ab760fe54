import { findActivityKeyword } from '../catalog/activities'
import { findJobService } from '../catalog/jobs'
import { findService } from '../catalog/services'
import type { FlagName } from '../flags/definitions'
import { activitySearch, parseActivityQuery } from './activity-query'
import { jobSearch, parseJobQuery } from './job-query'
import { listingSearch, parseListingQuery } from './listing-query'

/**
 * The query a page reads, as the route will read it, from the route's parameters (each page row
 * names its own, src/pages.ts): its canonical form ("" or "?…"), or null
 * when the route refuses it (a 400, never stored). The cache keys on this and nothing else of
 * the query, so a parameter the page ignores (one the service does not offer, a tracking one,
 * a repeat, another order, a default) can never make a new entry or a new render.
 */
export type PageQuery = (
  route: Readonly<Record<string, string>>,
  search: URLSearchParams,
  on: (name: FlagName) => boolean,
) => string | null

/** A page row's query parser and the route parameters a request matched it with. */
export interface RoutedQuery {
  query: PageQuery
  params: Readonly<Record<string, string>>
}

/** Pages that read no query parameter at all. */
export const noQuery: PageQuery = () => ''

/** `/{service}/{city}`: the parameters the service offers (src/queries/listing-query.ts). */
export const directoryQuery: PageQuery = (route, search) => {
  const service = findService(route.service ?? '')
  const parsed = service ? parseListingQuery(search, service) : null
  return parsed?.ok && service ? listingSearch(parsed.query, service) : null
}

/** `/{job-service}/{city}`: the job filters (src/queries/job-query.ts). */
export const jobListingQuery: PageQuery = (route, search) => {
  const jobs = findJobService(route.jobService ?? '')
  const parsed = jobs ? parseJobQuery(search, jobs) : null
  return parsed?.ok && jobs ? jobSearch(parsed.query, jobs) : null
}

/**
 * `/explore/d/{keyword}`: the activity filters of the keyword's category; the camps filter only
 * when it is offered. An unknown keyword is a 404 whatever the query: one entry.
 */
export const activitiesQuery: PageQuery = (route, search, on) => {
  const keyword = findActivityKeyword(route.keyword ?? '')
  if (!keyword) return ''
  const parsed = parseActivityQuery(search, keyword.category, on('campsFilter'))
  return parsed.ok ? activitySearch(parsed.query) : null
}
