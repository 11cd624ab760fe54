import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { PAGE_SIZE } from '../catalog/filters'
import { findJobService } from '../catalog/jobs'
import { stateName } from '../catalog/states'
import { findCity } from '../data/cities'
import { findCityJobCounts, findJobListing } from '../data/jobs'
import { findCityServices, findCityStats } from '../data/service-stats'
import type { AppEnv } from '../env'
import { absoluteUrl, pageTitle } from '../seo/head'
import { decideIndexing, robotsOf, worthListing } from '../seo/indexability'
import { breadcrumbList } from '../seo/json-ld'
import { jobCard } from '../views/jobs/job-card'
import { JobListingPage } from '../views/jobs/job-listing-page'
import { listingState } from '../views/listing/listing-state'
import { count } from '../views/shared/format'
import { isJobQueryFiltered, jobFilterFields, jobSearch, parseJobQuery } from '../queries/job-query'
import { hubDecision } from './city-hub'
import { sortedBy } from '../queries/listing-query'
import { cityHubPath, cityPath, jobListingPath } from '../urls/paths'
import { renderListing } from './render-page'

/** `/{job-service}/{city-state}`: open jobs of a city (page kind JOBS). */
export async function jobListingPage(c: Context<AppEnv>): Promise<Response> {
  const jobs = findJobService(c.req.param('jobService') ?? '')
  if (!jobs) throw new HTTPException(404)
  const parsed = parseJobQuery(new URL(c.req.url).searchParams, jobs)
  if (!parsed.ok) throw new HTTPException(400, { message: parsed.error })
  const query = parsed.query
  const { db } = c.var
  const now = new Date()

  const city = await findCity(db, c.req.param('city') ?? '')
  if (!city) throw new HTTPException(404)
  const [listing, counts, providers, services] = await Promise.all([
    findJobListing(db, jobs.slug, city, query, now),
    findCityJobCounts(db, city.id),
    findCityStats(db, jobs.service.slug, city.id),
    findCityServices(db, city.id),
  ])
  if (query.page > 1 && (query.page - 1) * PAGE_SIZE >= listing.total) throw new HTTPException(404)

  const filtered = isJobQueryFiltered(query)
  // Jobs close by the second and the stats only at the cron's next run: the plain listing's own
  // count is the live one. A filtered listing counts its matches, so it keeps the stats' figure
  // (it is noindex whatever the count).
  const open = filtered
    ? (counts.find((row) => row.service === jobs.slug)?.jobs ?? 0)
    : listing.total
  const decision = decideIndexing({ inventory: open, filtered })
  const base = jobListingPath(jobs.slug, city.slug)
  const origin = c.env.PUBLIC_ORIGIN
  const place = `${city.name}, ${city.stateCode}`
  // The hub is in the trail and the links only when the rule lets it be linked.
  const hub = hubDecision(services, counts, c.var.flags.on).index
  const crumbs = [
    ...(hub ? [{ name: `Care in ${place}`, path: cityHubPath(city.slug) }] : []),
    { name: jobs.title, path: base },
  ]
  const related = [
    ...(worthListing(providers?.providers ?? 0)
      ? [
          {
            href: cityPath(jobs.service.slug, city.slug),
            text: `${jobs.service.title} in ${city.name}`,
          },
        ]
      : []),
    ...(hub ? [{ href: cityHubPath(city.slug), text: `All care in ${city.name}` }] : []),
  ]
  const head = {
    title: pageTitle(`${jobs.title} in ${place}${query.page > 1 ? ` – Page ${query.page}` : ''}`),
    description: `${open} open ${jobs.title.toLowerCase()} in ${place}, ${stateName(city.stateCode) ?? city.stateCode}. See pay, schedules and start dates, and apply free.`,
    canonical: absoluteUrl(
      origin,
      filtered || query.page === 1 ? base : `${base}?page=${query.page}`,
    ),
    robots: robotsOf(decision),
    jsonLd: [breadcrumbList(origin, crumbs)],
  }
  const title = jobs.title.toLowerCase()
  const state = listingState({
    head,
    path: base,
    heading: `${jobs.title} in ${place}`,
    lede:
      listing.total > 0
        ? `${count(listing.total, 'open job', 'open jobs')} ${filtered ? 'match your filters' : 'near you'} in ${place}.`
        : null,
    notice:
      !decision.index && decision.reason === 'thin' && !filtered
        ? `Only a few ${title} are open in ${place} right now.`
        : null,
    filters: jobFilterFields(jobs, query),
    filtered,
    total: listing.total,
    page: query.page,
    sortLabel: sortedBy(query.sort),
    cards: listing.cards.map((job) => jobCard(job, now)),
    pageHref: (page) => base + jobSearch({ ...query, page }, jobs),
    empty: filtered
      ? `No open ${title} in ${place} match these filters.`
      : `No ${title} are open in ${place} right now.`,
    intent: null,
  })
  return renderListing(
    c,
    state,
    () => (
      <JobListingPage
        head={head}
        crumbs={crumbs}
        state={state}
        title={title}
        place={place}
        related={related}
      />
    ),
    {
      decision,
      tags: [`service:${jobs.slug}`, `service:${jobs.service.slug}`, `city:${city.slug}`],
      lastModified: counts.find((row) => row.service === jobs.slug)?.updatedAt,
    },
  )
}
