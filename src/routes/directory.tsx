import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { MIN_COST_SAMPLE } from '../catalog/cost-guides'
import type { Service } from '../catalog/services'
import { caresForChildren } from '../catalog/services'
import { findActivityCounts } from '../data/activities'
import { JOB_SERVICES } from '../catalog/jobs'
import type { City } from '../data/cities'
import { findNearestCities } from '../data/cities'
import { milesBetween } from '../lib/geo'
import type { Db } from '../data/db'
import { findProviderListing } from '../data/provider-listing'
import { findCityJobCounts } from '../data/jobs'
import type { RateStats } from '../data/service-stats'
import {
  findCityServices,
  findCityStats,
  findNationalStats,
  findStateLeaders,
} from '../data/service-stats'
import type { AppEnv } from '../env'
import type { On } from '../flags/visibility'
import { shownServices } from '../flags/visibility'
import { directoryTrail } from '../seo/directory-trail'
import { decideIndexing, isThin, MIN_INDEXABLE_PROVIDERS, worthListing } from '../seo/indexability'
import { listingHead } from '../seo/listing-head'
import { DirectoryLinks, DirectoryPage } from '../views/directory/directory-page'
import { providerCard } from '../views/directory/provider-card'
import { listingState } from '../views/listing/listing-state'
import { rateAverage } from '../views/parts/format'
import type { LinkItem } from '../views/parts/link-list'
import {
  isFiltered,
  listingFilterFields,
  listingSearch,
  parseListingQuery,
  sortedBy,
} from '../queries/listing-query'
import { CAMP_KEYWORDS, campLinksOf } from '../seo/camp-links'
import { hubDecision } from '../seo/indexability'
import { cityHubPath, cityPath, costPath, jobListingPath } from '../urls/paths'
import { listingPage, validQuery } from './listing-page'
import { renderDocument } from './render-document'
import { listingView } from '../views/listing/listing-layout'
import { streamed } from '../views/render-document'
import { intentQuestion } from '../views/listing/intent-question'
import { serviceParam } from './service-param'
import { TAG } from '../cache/tags'

/** `/{service}/{city-state}`: the provider directory of a city (page kind PROVIDERS). */
export async function directoryPage(c: Context<AppEnv>): Promise<Response> {
  const loaded = await loadDirectory(c)
  const { service, city, local, listing } = loaded
  const db = c.get('db')
  const shard = c.get('shards').ofCity(city.slug)
  const { head, crumbs, state, place, decision } = describeDirectory(c, loaded)
  return renderDocument(
    c,
    listingView(state, () => ({
      head,
      main: (
        <DirectoryPage
          crumbs={crumbs}
          state={state}
          service={service}
          place={place}
          local={local}
          national={loaded.national}
          guide={localGuide(service, city, local, c.get('flags').config.costGuideLocalPage)}
        />
      ),
      streamed: (
        <DirectoryLinks
          service={service}
          place={place}
          nearby={streamed(nearbyLinks(db, service, city))}
          related={streamed(relatedLinks(shard, service, city, c.get('flags').on))}
          resources={streamed(
            caresForChildren(service)
              ? findActivityCounts(db, CAMP_KEYWORDS).then(campLinksOf)
              : Promise.resolve([]),
          )}
        />
      ),
    })),
    {
      decision,
      // A provider's purge reaches every listing its card is on.
      tags: [
        TAG.service(service.slug),
        TAG.city(city.slug),
        ...listing.cards.map((p) => TAG.provider(p.id)),
      ],
      lastModified: local?.updatedAt,
    },
  )
}

type LoadedDirectory = Awaited<ReturnType<typeof loadDirectory>>

/** The route's service, city and query, and the city's listing and rates: one round trip. */
async function loadDirectory(c: Context<AppEnv>) {
  const service = serviceParam(c)
  const query = validQuery(parseListingQuery(new URL(c.req.url).searchParams, service))
  const db = c.get('db')
  const city = await c.get('cities').find(c.req.param('city') ?? '')
  if (!city) throw new HTTPException(404)
  const shard = c.get('shards').ofCity(city.slug)
  const ranked = c.get('flags').on('rankedDirectorySorting')
  // The city's listing and figures from its shard, the nation's and state's from control.
  const [listing, local, national, leaders] = await Promise.all([
    findProviderListing(shard, service.slug, city, query, ranked),
    findCityStats(shard, service.slug, city.id),
    findNationalStats(db, service.slug),
    findStateLeaders(db, city.stateCode),
  ])
  return { service, query, city, ranked, listing, local, national, leaders }
}

/** The directory's indexing, head, trail and listing state (its HTML and its `/_data` JSON). */
function describeDirectory(
  c: Context<AppEnv>,
  { service, query, city, ranked, listing, local, leaders }: LoadedDirectory,
) {
  const filtered = isFiltered(query)
  const base = cityPath(service.slug, city.slug)
  const at = listingPage({ path: base, page: query.page, filtered }, listing.total)
  const decision = decideIndexing({ inventory: local?.providers ?? 0, filtered })
  const place = `${city.name}, ${city.stateCode}`
  const largestCity = leaders.find((r) => r.service === service.slug)?.providers ?? 0
  const crumbs = directoryTrail(service, { code: city.stateCode, largestCity }, [
    { name: city.name, path: base },
  ])
  const average = local ? ` Average rate ${rateAverage(local.rateAvg, local.payUnit)}.` : ''
  const head = listingHead(c.env.PUBLIC_ORIGIN, at, {
    title: `${service.title} in ${place}`,
    description: `Find ${service.nouns} in ${place}. Compare ${local?.providers ?? listing.total} local ${service.nouns} by rate, reviews and experience.${average}`,
    decision,
    crumbs,
  })
  const daycareCards = c.get('flags').on('robustDaycareCards')
  const state = listingState({
    head,
    listing: at,
    heading: `${service.title} in ${place}`,
    found: { one: service.noun, many: service.nouns, place },
    unfiltered: 'near you',
    notice: isThin(decision)
      ? `Only a few ${service.nouns} have profiles in ${place} so far. Nearby cities below have more.`
      : null,
    filters: listingFilterFields(service, query),
    total: listing.total,
    sortLabel: sortedBy(query.sort, ranked),
    cards: listing.cards.map((p) => providerCard(p, milesBetween(city, p), daycareCards)),
    pageHref: (page) => base + listingSearch({ ...query, page }, service),
    empty: filtered
      ? `No ${service.nouns} in ${place} match these filters.`
      : `No ${service.nouns} in ${place} have profiles yet.`,
    intent: intentQuestion(
      service.slug,
      `When do you need ${/^[aeiou]/i.test(service.noun) ? 'an' : 'a'} ${service.noun}?`,
      c.get('flags').on,
      base,
    ),
  })
  return { head, crumbs, state, place, decision }
}

/** The city's guide, for its rate summary: where city guides exist and it has rates enough. */
function localGuide(
  service: Service,
  city: City,
  local: RateStats | null,
  cityGuides: boolean,
): string | null {
  return service.costGuide && cityGuides && (local?.providers ?? 0) >= MIN_COST_SAMPLE
    ? costPath(service.slug, city.slug)
    : null
}

/**
 * The nearest cities with enough of this service to be indexable, nearest first: links never
 * lead to thin pages, and a town far from others still gets its nearest few.
 */
async function nearbyLinks(db: Db, service: Service, city: City): Promise<LinkItem[]> {
  const cities = await findNearestCities(db, city, service.slug, {
    minProviders: MIN_INDEXABLE_PROVIDERS,
  })
  return cities.map((n) => ({
    href: cityPath(service.slug, n.slug),
    text: `${n.name}, ${n.stateCode}`,
    count: `${Math.round(n.miles)} mi`,
  }))
}

/**
 * The city's other services, the jobs of this one (its job slug: errands are posted as care
 * gigs) and the city's hub, where the indexability rule lets them be linked.
 */
async function relatedLinks(db: Db, service: Service, city: City, on: On): Promise<LinkItem[]> {
  const [counts, jobCounts] = await Promise.all([
    findCityServices(db, city.id),
    findCityJobCounts(db, city.id),
  ])
  const services = shownServices(on).flatMap((s) => {
    const n = counts.find((row) => row.service === s.slug)?.providers ?? 0
    if (s.slug === service.slug || !worthListing(n)) return []
    return [
      { href: cityPath(s.slug, city.slug), text: `${s.title} in ${city.name}`, count: String(n) },
    ]
  })
  const jobs = JOB_SERVICES.flatMap((j) => {
    const n = jobCounts.find((row) => row.service === j.slug)?.jobs ?? 0
    if (j.slug !== service.jobSlug || !worthListing(n)) return []
    return [
      {
        href: jobListingPath(j.slug, city.slug),
        text: `${j.title} in ${city.name}`,
        count: String(n),
      },
    ]
  })
  const hub = hubDecision(counts, jobCounts, on).index
    ? [{ href: cityHubPath(city.slug), text: `All care in ${city.name}` }]
    : []
  return [...services, ...jobs, ...hub]
}
