// Every read a page makes, asked of SQLite as EXPLAIN QUERY PLAN: the query-plan test checks
// them on the test catalog, `npm run bench` on the default and the large catalogs.
import { findService } from '../../src/catalog/services'
import type { City } from '../../src/data/cities'
import { findCity, findNearbyCities, findNearbyHubs } from '../../src/data/cities'
import type { Db, Param } from '../../src/data/db'
import {
  findCityJobCounts,
  findJob,
  findJobListing,
  findNearbyOpenJobs,
  findOpenJobs,
} from '../../src/data/jobs'
import {
  findProviderListing,
  findSimilarProviders,
  findTopProviders,
} from '../../src/data/provider-listing'
import {
  countCityProviders,
  findProvider,
  findProviderServices,
  findRatingAverages,
  findReviews,
} from '../../src/data/providers'
import { findJobService } from '../../src/catalog/jobs'
import { findActivityKeyword } from '../../src/catalog/activities'
import { findActivities, findActivityCounts } from '../../src/data/activities'
import { findExperienceRates, findLargeCityRates, findStateRates } from '../../src/data/cost-guides'
import { findLargestCities, findNationalCounts } from '../../src/data/home'
import { parseActivityQuery } from '../../src/queries/activity-query'
import { parseJobQuery } from '../../src/queries/job-query'
import {
  findCityServices,
  findCityStats,
  findNationalStats,
  findStateCities,
  findStateCounts,
  findStateLeaders,
  findTopCities,
} from '../../src/data/service-stats'
import type { ListingQuery } from '../../src/queries/listing-query'
import { parseListingQuery } from '../../src/queries/listing-query'

export interface QueryPlan {
  sql: string
  plan: string[]
}

/**
 * A Db that asks SQLite how it would run each query instead of running it: on the first of
 * `d1` that has every table the query names (a shard, then control: docs/scale.md).
 */
export function explainingDb(d1: D1Database | readonly D1Database[], plans: QueryPlan[]): Db {
  const databases: readonly D1Database[] = 'prepare' in d1 ? [d1] : d1
  const explain = async (sql: string, params: Param[]) => {
    for (const [i, db] of databases.entries()) {
      try {
        const { results } = await db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...params)
          .all<{ detail: string }>()
        plans.push({ sql, plan: results.map((r) => r.detail) })
        return []
      } catch (error) {
        if (i === databases.length - 1 || !/no such table/.test(String(error))) throw error
      }
    }
    return []
  }
  return {
    all: (sql, ...params) => explain(sql, params),
    first: async (sql, ...params) => (await explain(sql, params), null),
  }
}

export const ATLANTA: City = {
  id: 4180439,
  slug: 'atlanta-ga',
  name: 'Atlanta',
  stateCode: 'GA',
  lat: 33.749,
  lng: -84.388,
  population: 463878,
}

export function listingQuery(search: string): ListingQuery {
  const service = findService('babysitters')
  if (!service) throw new Error('no babysitters')
  const parsed = parseListingQuery(new URLSearchParams(search), service)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.query
}

/** The plans of every read the pages make, each on the first of `d1` holding its tables. */
export async function explainPageReads(
  d1: D1Database | readonly D1Database[],
): Promise<QueryPlan[]> {
  const plans: QueryPlan[] = []
  const db = explainingDb(d1, plans)
  // Nearby cities walk a latitude band; every other read is an equality range of an index.
  await findCity(db, 'atlanta-ga')
  await findNearbyCities(db, ATLANTA, 'babysitters')
  for (const search of [
    '',
    'sort=newest',
    'distance=5&rate=15-20&experience=3&availability=monday&ages=teen&badges=premium&page=3',
  ]) {
    await findProviderListing(db, 'babysitters', ATLANTA, listingQuery(search))
  }
  await findTopProviders([db], 'babysitters', 'GA')
  await findCityStats(db, 'babysitters', ATLANTA.id)
  await findNationalStats(db, 'babysitters')
  await findTopCities(db, 'babysitters')
  await findStateCities(db, 'babysitters', 'GA')
  await findStateCounts(db, 'babysitters')
  await findCityServices(db, ATLANTA.id)
  await findCityServices(db, { provider: 1 })
  await findCityServices(db, { job: 1 })
  // A profile's state leaders: its state from control's directory, so the state's own.
  await findStateLeaders(db, 'GA')
  await findNearbyHubs(db, ATLANTA)
  await countCityProviders(db, ATLANTA.id, ['babysitters', 'tutors', 'day-care'])
  await findProvider(db, 1)
  await findProviderServices(db, 1)
  await findReviews(db, 1)
  await findRatingAverages(db, 1)
  await findSimilarProviders(db, 'babysitters', ATLANTA.id, 1)
  const jobs = findJobService('babysitting-jobs')
  if (!jobs) throw new Error('no babysitting jobs')
  await findJob(db, 1)
  for (const search of [
    '',
    'sort=newest',
    'schedule=part-time&rate=15-20&jobType=family&hours=10-20&ages=teen',
  ]) {
    const parsed = parseJobQuery(new URLSearchParams(search), jobs)
    if (!parsed.ok) throw new Error(parsed.error)
    await findJobListing(db, jobs.slug, ATLANTA, parsed.query, new Date())
  }
  await findOpenJobs(db, [jobs.slug], ATLANTA.id, new Date())
  // A closed job's page, when its own listing has too few: the family around, the city's others.
  await findNearbyOpenJobs(db, ATLANTA, [jobs.slug], new Date())
  await findOpenJobs(db, ['nanny-jobs', 'tutoring-jobs'], ATLANTA.id, new Date())
  await findCityJobCounts(db, ATLANTA.id)
  await findCityJobCounts(db, { job: 1 })
  await findExperienceRates(db, 'babysitters', ATLANTA.id)
  await findStateRates(db, 'babysitters', 'GA', { minProviders: 10 })
  await findLargeCityRates(db, 'babysitters', { minProviders: 10 })
  // The home page.
  await findNationalCounts(db, ['babysitters', 'au-pairs', 'errands'])
  await findLargestCities(db, ['babysitters', 'au-pairs', 'errands'], { minProviders: 5 })
  for (const slug of ['stem', 'robotics']) {
    const keyword = findActivityKeyword(slug)
    if (!keyword) throw new Error(slug)
    for (const search of [
      '',
      'onlyCampActivities=true&activityDates=2026-12-01..2026-12-31&childCareAgeGroups=4-5-yrs&activityDaysOfWeek=monday&activityParticipationType=online&subcategories=coding',
    ]) {
      const parsed = parseActivityQuery(new URLSearchParams(search), keyword.category)
      if (!parsed.ok) throw new Error(parsed.error)
      await findActivities(db, keyword, parsed.query, '2026-11-22')
    }
  }
  await findActivityCounts(db, ['stem', 'robotics'])

  return plans
}

/** A step that reads a whole table or index (json_each walks one review's JSON: not a table). */
export function isScan(step: string): boolean {
  return /^SCAN (?!.*VIRTUAL TABLE)/.test(step)
}
