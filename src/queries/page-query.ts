import { findActivityKeyword } from '../catalog/activities'
import { findJobService } from '../catalog/jobs'
import { findService } from '../catalog/services'
import type { FlagName } from '../flags/definitions'
import { activitySearch, parseActivityQuery } from './activity-query'
import { pageOfDataPath } from '../urls/data-prefix'
import { jobSearch, parseJobQuery } from './job-query'
import { listingSearch, parseListingQuery } from './listing-query'

/**
 * The query a page reads, as the route will read it: its canonical form ("" or "?…"), or null
 * when the route refuses it (a 400, never stored). The cache keys on this and nothing else of
 * the query, so a parameter the page ignores (one the service does not offer, a tracking one,
 * a repeat, another order, a default) can never make a new entry or a new render.
 */
export type PageQuery = (
  path: string,
  params: URLSearchParams,
  on: (name: FlagName) => boolean,
) => string | null

/** Pages that read no query parameter at all. */
export const noQuery: PageQuery = () => ''

/** `/{service}/{city}`: the parameters the service offers (src/queries/listing-query.ts). */
export const directoryQuery: PageQuery = (path, params) => {
  const service = findService(firstSegment(path))
  const parsed = service ? parseListingQuery(params, service) : null
  return parsed?.ok && service ? listingSearch(parsed.query, service) : null
}

/** `/{job-service}/{city}`: the job filters (src/queries/job-query.ts). */
export const jobListingQuery: PageQuery = (path, params) => {
  const jobs = findJobService(firstSegment(path))
  const parsed = jobs ? parseJobQuery(params, jobs) : null
  return parsed?.ok && jobs ? jobSearch(parsed.query, jobs) : null
}

/**
 * `/explore/d/{keyword}`: the activity filters of the keyword's category; the camps filter only
 * when it is offered. An unknown keyword is a 404 whatever the query: one entry.
 */
export const activitiesQuery: PageQuery = (path, params, on) => {
  const keyword = findActivityKeyword(lastSegment(path))
  if (!keyword) return ''
  const parsed = parseActivityQuery(params, keyword.category, on('campsFilter'))
  return parsed.ok ? activitySearch(parsed.query) : null
}

function firstSegment(path: string): string {
  return pageOfDataPath(path).split('/').filter(Boolean)[0] ?? ''
}

function lastSegment(path: string): string {
  return path.split('/').pop() ?? ''
}
