import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { stateName } from '../catalog/states'
import { findTopProviders } from '../data/provider-listing'
import { findStateCities, findStateLeaders, findStateStats } from '../data/service-stats'
import type { Service } from '../catalog/services'
import type { ServiceCount } from '../data/service-stats'
import type { LinkItem } from '../views/parts/link-list'
import type { AppEnv } from '../env'
import type { On } from '../flags/visibility'
import { shownServices } from '../flags/visibility'
import type { Head } from '../seo/head'
import { pageHead } from '../seo/head'
import type { IndexDecision } from '../seo/indexability'
import {
  decideIndexing,
  MIN_INDEXABLE_PROVIDERS,
  stateInventory,
  worthListing,
} from '../seo/indexability'
import type { StatePageProps } from '../views/directory/state-page'
import { StatePage, stateSummary } from '../views/directory/state-page'
import { Document } from '../views/document'
import { cityPath, servicePath, statePath } from '../urls/paths'
import { renderDocument } from './render-document'
import { serviceParam } from './service-param'
import { answersOf } from '../views/parts/answers'
import { number } from '../views/parts/format'
import { TAG } from '../cache/tags'

/** `/{service}/{state}`: the cities of a state (page kind SEGMENTATION_STATE). */
export async function serviceStatePage(c: Context<AppEnv>): Promise<Response> {
  const loaded = await loadState(c)
  const { service, code, leaders, top, cities } = loaded
  const decision = decideIndexing({ inventory: stateInventory(cities.map((c) => c.providers)) })
  const { head, ...props } = describeState(c, loaded, decision)
  return renderDocument(
    c,
    { document: <Document head={head} client />, main: <StatePage {...props} /> },
    {
      decision,
      lastModified: leaders.find((r) => r.service === service.slug)?.updatedAt,
      tags: [
        TAG.service(service.slug),
        TAG.state(code.toLowerCase()),
        ...top.map((p) => TAG.provider(p.id)),
      ],
    },
  )
}

type LoadedState = Awaited<ReturnType<typeof loadState>>

/** The route's service and state, and every read of the state at once: one round trip (docs/data.md). */
async function loadState(c: Context<AppEnv>) {
  const service = serviceParam(c)
  const code = (c.req.param('state') ?? '').toUpperCase()
  const name = stateName(code)
  // State codes are a closed list: an unknown one is a 404 before any storage read.
  if (!name) throw new HTTPException(404)
  const db = c.get('db')
  const [cities, leaders, top, stats] = await Promise.all([
    findStateCities(db, service.slug, code),
    findStateLeaders(db, code),
    // The providers of the five largest cities the page links to, from the state's shards; the
    // rest from control's copies and rollups, all at once.
    findTopProviders(c.get('shards').ofState(code.toLowerCase()), service.slug, code, {
      minProviders: MIN_INDEXABLE_PROVIDERS,
    }),
    findStateStats(db, service.slug, code),
  ])
  return { service, code, name, cities, leaders, top, stats }
}

/** The state page's view: its head, summary, the cities worth a link, answers, other services. */
function describeState(
  c: Context<AppEnv>,
  { service, code, name, cities, leaders, top, stats }: LoadedState,
  decision: IndexDecision,
): StatePageProps & { head: Head } {
  // Largest first, as a visitor looks for their own city or the big one near it.
  const linked = cities
    .filter((city) => worthListing(city.providers))
    .sort((a, b) => b.population - a.population)
  // Past MAX_STATE_CITIES the page reads only the cities with the most providers, and sums the
  // state from its own row.
  const summary = stateSummary(
    service,
    name,
    cities.map((city) => ({ providers: city.providers, listed: worthListing(city.providers) })),
    stats && stats.cities > cities.length ? stats : null,
  )
  const path = statePath(service.slug, code)
  const crumbs = [
    { name: service.title, path: servicePath(service.slug) },
    { name, path },
  ]
  return {
    head: pageHead(c.env.PUBLIC_ORIGIN, {
      title: `${service.title} in ${name}`,
      description: `Find ${service.nouns} across ${name}, with rates, reviews and experience. ${summary}`,
      path,
      decision,
      crumbs,
    }),
    crumbs,
    service,
    stateName: name,
    summary,
    cities: linked.map((city) => ({
      href: cityPath(service.slug, city.slug),
      text: city.name,
      count: number(city.providers),
    })),
    top,
    answers: stats
      ? answersOf({
          service,
          place: name,
          stats,
          national: null,
          cost: true,
          next: {
            kind: 'state',
            cities: [...linked]
              .sort((a, b) => b.providers - a.providers)
              .map((city) => ({ name: city.name, providers: city.providers })),
          },
        })
      : [],
    others: otherServices(c.get('flags').on, service, { code, name }, leaders),
  }
}

/** The other services' pages of the state, where worth a link (by the state's largest city). */
function otherServices(
  on: On,
  service: Service,
  state: { code: string; name: string },
  leaders: readonly ServiceCount[],
): LinkItem[] {
  return shownServices(on)
    .filter((s) => {
      const largest = leaders.find((r) => r.service === s.slug)?.providers ?? 0
      return s.slug !== service.slug && worthListing(stateInventory([largest]))
    })
    .map((s) => ({ href: statePath(s.slug, state.code), text: `${s.title} in ${state.name}` }))
}
