import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { JobService } from '../catalog/jobs'
import { findJobService } from '../catalog/jobs'
import { stateName } from '../catalog/states'
import type { City } from '../data/cities'
import { findCityJobCounts, findJobListing } from '../data/jobs'
import { findCityServices, findCityStats } from '../data/service-stats'
import type { AppEnv } from '../env'
import { decideIndexing, isThin, worthListing } from '../seo/indexability'
import { listingHead } from '../seo/listing-head'
import { jobCard } from '../views/jobs/job-card'
import { JobListingPage } from '../views/jobs/job-listing-page'
import { listingState } from '../views/listing/listing-state'
import type { LinkItem } from '../views/parts/link-list'
import { isJobQueryFiltered, jobFilterFields, jobSearch, parseJobQuery } from '../queries/job-query'
import { hubDecision } from '../seo/indexability'
import { sortedBy } from '../queries/listing-query'
import { cityHubPath, cityPath, jobListingPath } from '../urls/paths'
import { listingPage, validQuery } from './listing-page'
import { renderDocument } from './render-document'
import { listingView } from '../views/listing/listing-layout'
import { TAG } from '../cache/tags'

/** `/{job-service}/{city-state}`: open jobs of a city (page kind JOBS). */
export async function jobListingPage(c: Context<AppEnv>): Promise<Response> {
  const loaded = await loadJobListing(c)
  const { jobs, city, counts, providers } = loaded
  const { head, crumbs, state, decision, place, hub } = describeJobListing(c, loaded)
  return renderDocument(
    c,
    listingView(state, () => ({
      head,
      main: (
        <JobListingPage
          crumbs={crumbs}
          state={state}
          title={jobs.title.toLowerCase()}
          work={jobs.slug}
          place={place}
          related={relatedLinks(jobs, city, providers?.providers ?? 0, hub)}
        />
      ),
    })),
    {
      decision,
      tags: [TAG.service(jobs.slug), TAG.service(jobs.service.slug), TAG.city(city.slug)],
      lastModified: counts.find((row) => row.service === jobs.slug)?.updatedAt,
      headers: closingHeaders(loaded.listing.cards),
    },
  )
}

/**
 * A listing links its jobs' pages, which answer 410 from the moment a job closes: the listing is
 * served from the cache no longer than until the first of its jobs closes (as a job's own page is).
 */
function closingHeaders(cards: { validThrough: string }[]): Record<string, string> {
  const first = cards.map((card) => card.validThrough).sort()[0]
  return first === undefined ? {} : { expires: new Date(first).toUTCString() }
}

type LoadedJobListing = Awaited<ReturnType<typeof loadJobListing>>

/** The route's job service, city and query, the city's open jobs and counts: one round trip. */
async function loadJobListing(c: Context<AppEnv>) {
  const jobs = findJobService(c.req.param('jobService') ?? '')
  if (!jobs) throw new HTTPException(404)
  const query = validQuery(parseJobQuery(new URL(c.req.url).searchParams, jobs))
  const now = new Date()
  const city = await c.get('cities').find(c.req.param('city') ?? '')
  if (!city) throw new HTTPException(404)
  // Everything the page reads is the city's: its shard's alone.
  const db = c.get('shards').ofCity(city.slug)
  const [listing, counts, providers, services] = await Promise.all([
    findJobListing(db, jobs.slug, city, query, now),
    findCityJobCounts(db, city.id),
    findCityStats(db, jobs.service.slug, city.id),
    findCityServices(db, city.id),
  ])
  return { jobs, query, now, city, listing, counts, providers, services }
}

/** The listing's indexing, head, trail and listing state (its HTML and its `/_data` JSON). */
function describeJobListing(
  c: Context<AppEnv>,
  { jobs, query, now, city, listing, counts, services }: LoadedJobListing,
) {
  const filtered = isJobQueryFiltered(query)
  const base = jobListingPath(jobs.slug, city.slug)
  const at = listingPage({ path: base, page: query.page, filtered }, listing.total)
  // Jobs close by the second and the stats only at the cron's next run: the plain listing's own
  // count is the live one. A filtered listing counts its matches, so it keeps the stats' figure
  // (it is noindex whatever the count).
  const open = filtered
    ? (counts.find((row) => row.service === jobs.slug)?.jobs ?? 0)
    : listing.total
  const decision = decideIndexing({ inventory: open, filtered })
  const place = `${city.name}, ${city.stateCode}`
  // The hub is in the trail and the links only when the rule lets it be linked.
  const hub = hubDecision(services, counts, c.get('flags').on).index
  const crumbs = [
    ...(hub ? [{ name: `Care in ${place}`, path: cityHubPath(city.slug) }] : []),
    { name: jobs.title, path: base },
  ]
  const head = listingHead(c.env.PUBLIC_ORIGIN, at, {
    title: `${jobs.title} in ${place}`,
    description: `${open} open ${jobs.title.toLowerCase()} in ${place}, ${stateName(city.stateCode) ?? city.stateCode}. See pay, schedules and start dates, and apply free.`,
    decision,
    crumbs,
  })
  const title = jobs.title.toLowerCase()
  const state = listingState({
    head,
    listing: at,
    heading: `${jobs.title} in ${place}`,
    found: { one: 'open job', many: 'open jobs', place },
    unfiltered: 'near you',
    notice: isThin(decision) ? `Only a few ${title} are open in ${place} right now.` : null,
    filters: jobFilterFields(jobs, query),
    total: listing.total,
    sortLabel: sortedBy(query.sort),
    cards: listing.cards.map((job) => jobCard(job, now)),
    pageHref: (page) => base + jobSearch({ ...query, page }, jobs),
    empty: filtered
      ? `No open ${title} in ${place} match these filters.`
      : `No ${title} are open in ${place} right now.`,
    intent: null,
  })
  return { head, crumbs, state, decision, place, hub }
}

/** The city's directory of the jobs' service and its hub, where the rule lets them be linked. */
function relatedLinks(jobs: JobService, city: City, providers: number, hub: boolean): LinkItem[] {
  return [
    ...(worthListing(providers)
      ? [
          {
            href: cityPath(jobs.service.slug, city.slug),
            text: `${jobs.service.title} in ${city.name}`,
          },
        ]
      : []),
    ...(hub ? [{ href: cityHubPath(city.slug), text: `All care in ${city.name}` }] : []),
  ]
}
