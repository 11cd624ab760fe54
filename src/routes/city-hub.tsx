import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { JOB_SERVICES } from '../catalog/jobs'
import { findActivityCounts } from '../data/activities'
import { findNearbyHubs } from '../data/cities'
import { findCityJobCounts } from '../data/jobs'
import { countCityProviders } from '../data/providers'
import { findCityServices } from '../data/service-stats'
import type { AppEnv } from '../env'
import { shownServices } from '../flags/visibility'
import type { Head } from '../seo/head'
import { pageHead } from '../seo/head'
import type { IndexDecision } from '../seo/indexability'
import { hubDecision, MIN_INDEXABLE_PROVIDERS, worthListing } from '../seo/indexability'
import type { CityHubPageProps } from '../views/hub/city-hub-page'
import { CityHubPage } from '../views/hub/city-hub-page'
import { Document } from '../views/document'
import { cityHubPath, cityPath, jobListingPath } from '../urls/paths'
import { CAMP_KEYWORDS, campLinksOf } from '../seo/camp-links'
import { renderDocument } from './render-document'
import { count, listOf, number } from '../views/parts/format'
import { newestDate } from '../seo/newest-date'
import { TAG } from '../cache/tags'

/** `/local/{city-state}`: every service and job family of a city, linking only to pages worth a visit. */
export async function cityHubPage(c: Context<AppEnv>): Promise<Response> {
  const loaded = await loadHub(c)
  const { city, shown, services, jobs } = loaded
  const decision = hubDecision(services, jobs, c.get('flags').on)
  const { head, ...hub } = describeHub(c, loaded, decision)
  return renderDocument(
    c,
    { document: <Document head={head} client />, main: <CityHubPage {...hub} /> },
    {
      decision,
      tags: [TAG.city(city.slug)],
      // The sitemap's lastmod of the hub (src/routes/sitemaps.ts): the newest row behind it.
      lastModified: newestDate([
        ...services.filter((r) => shown.some((s) => s.slug === r.service)).map((r) => r.updatedAt),
        ...jobs.map((r) => r.updatedAt),
      ]),
    },
  )
}

type LoadedHub = Awaited<ReturnType<typeof loadHub>>

/** The route's city, and its counts, nearby hubs and camps: one round trip. */
async function loadHub(c: Context<AppEnv>) {
  const db = c.get('db')
  const city = await c.get('cities').find(c.req.param('city') ?? '')
  if (!city) throw new HTTPException(404)
  const shard = c.get('shards').ofCity(city.slug)
  const shown = shownServices(c.get('flags').on)
  // The city's own figures from its shard; its neighbours (maybe on another shard) and the
  // activities from control.
  const [services, jobs, nearby, providers, activities] = await Promise.all([
    findCityServices(shard, city.id),
    findCityJobCounts(shard, city.id),
    findNearbyHubs(db, city, { minProviders: MIN_INDEXABLE_PROVIDERS }),
    countCityProviders(
      shard,
      city.id,
      shown.map((s) => s.slug),
    ),
    findActivityCounts(db, CAMP_KEYWORDS),
  ])
  return { city, shown, services, jobs, nearby, providers, activities }
}

/** The hub's view: its head and the links to the city's pages worth a visit. */
function describeHub(
  c: Context<AppEnv>,
  { city, shown, services, jobs, nearby, providers, activities }: LoadedHub,
  decision: IndexDecision,
): CityHubPageProps & { head: Head } {
  const worth = <T extends { n: number }>(rows: T[]) => rows.filter((r) => worthListing(r.n))
  const serviceLinks = worth(
    shown.map((s) => ({
      s,
      n: services.find((r) => r.service === s.slug)?.providers ?? 0,
    })),
  ).map(({ s, n }) => ({
    href: cityPath(s.slug, city.slug),
    text: s.title,
    count: number(n),
  }))
  const jobLinks = worth(
    JOB_SERVICES.map((j) => ({ j, n: jobs.find((r) => r.service === j.slug)?.jobs ?? 0 })),
  ).map(({ j, n }) => ({
    href: jobListingPath(j.slug, city.slug),
    text: j.title,
    count: number(n),
  }))
  const open = jobs.reduce((n, r) => n + r.jobs, 0)
  const path = cityHubPath(city.slug)
  const place = `${city.name}, ${city.stateCode}`
  const crumbs = [{ name: `Care in ${place}`, path }]
  return {
    head: pageHead(c.env.PUBLIC_ORIGIN, {
      title: `Care in ${place}: caregivers and jobs`,
      description: `${hubCare(serviceLinks.map((l) => l.text))} in ${place}: ${count(providers, 'caregiver', 'caregivers')} and ${count(open, 'open job', 'open jobs')}.`,
      path,
      decision,
      crumbs,
    }),
    crumbs,
    place,
    providers,
    jobs: open,
    services: serviceLinks,
    jobLinks,
    camps: campLinksOf(activities),
    nearby: nearby.map((n) => ({ href: cityHubPath(n.slug), text: `${n.name}, ${n.stateCode}` })),
  }
}

/**
 * What the hub links, in its description: the services it has pages for (the first four, then
 * "and more"), or plain "Care" when it links none.
 */
function hubCare(titles: readonly string[]): string {
  if (titles.length === 0) return 'Care'
  const named = titles.slice(0, 4).map((t, i) => (i === 0 ? t : t.toLowerCase()))
  return titles.length > 4 ? `${named.join(', ')} and more` : listOf(named)
}
