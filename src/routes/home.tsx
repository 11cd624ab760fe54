import type { Context } from 'hono'
import { COST_GUIDE_SERVICES } from '../catalog/cost-guides'
import { findActivityCounts } from '../data/activities'
import { findLargestCities, findNationalCounts } from '../data/home'
import type { AppEnv } from '../env'
import { shownServices } from '../flags/visibility'
import { pageHead } from '../seo/head'
import {
  costInventory,
  decideIndexing,
  MIN_INDEXABLE_PROVIDERS,
  worthListing,
} from '../seo/indexability'
import { newestDate } from '../seo/newest-date'
import { HomePage } from '../views/home/home-page'
import { number } from '../views/parts/format'
import { cityHubPath, costPath, HOME, servicePath } from '../urls/paths'
import { CAMP_KEYWORDS, campLinksOf } from '../seo/camp-links'
import { renderDocument } from './render-document'
import { searchFormProps } from '../views/search/search-form'
import { TAG } from '../cache/tags'

/** How many of the largest cities the home page links. */
const LARGEST_CITIES = 24

/** `/`: every service's national page, the largest cities' hubs, cost guides, camps. */
export async function homePage(c: Context<AppEnv>): Promise<Response> {
  const db = c.get('db')
  const { on } = c.get('flags')
  const services = shownServices(on)
  const slugs = services.map((s) => s.slug)
  // Every read at once: one round trip (docs/data.md).
  const [national, cities, activities] = await Promise.all([
    findNationalCounts(db, slugs),
    findLargestCities(db, slugs, { limit: LARGEST_CITIES, minProviders: MIN_INDEXABLE_PROVIDERS }),
    findActivityCounts(db, CAMP_KEYWORDS),
  ])
  const providersOf = (slug: string) => national.find((r) => r.service === slug)?.providers ?? 0
  const serviceLinks = services
    .filter((s) => worthListing(providersOf(s.slug)))
    .map((s) => ({ href: servicePath(s.slug), text: s.title, count: number(providersOf(s.slug)) }))
  const guideLinks = COST_GUIDE_SERVICES.filter(
    (s) => slugs.includes(s.slug) && worthListing(costInventory(providersOf(s.slug))),
  ).map((s) => ({ href: costPath(s.slug), text: `${s.title} costs` }))
  const decision = decideIndexing({ inventory: national.reduce((n, r) => n + r.providers, 0) })
  return renderDocument(
    c,
    <HomePage
      head={pageHead(c.env.PUBLIC_ORIGIN, {
        title: 'Find child care, senior care and more near you',
        description: `Compare caregivers near you: ${services
          .slice(0, 4)
          .map((s) => s.title.toLowerCase())
          .join(', ')} and more, with profiles, reviews and rates. Cost guides and camps too.`,
        path: HOME,
        decision,
        crumbs: null,
      })}
      services={serviceLinks}
      cities={cities.map((city) => ({
        href: cityHubPath(city.slug),
        text: `${city.name}, ${city.stateCode}`,
      }))}
      costGuides={guideLinks}
      activities={campLinksOf(activities)}
      search={searchFormProps(services, null)}
    />,
    {
      decision,
      tags: [TAG.page('home')],
      lastModified: newestDate(national.map((r) => r.updatedAt)),
    },
  )
}
