import type { Context } from 'hono'
import type { Service } from '../catalog/services'
import type { PlaceMatch, Point } from '../data/place-search'
import { findNearestServed, findPlaceMatches, findZip } from '../data/place-search'
import { findTopCities } from '../data/service-stats'
import type { AppEnv } from '../env'
import { shownServices } from '../flags/visibility'
import type { Place, SearchQuery } from '../queries/search-query'
import { parseSearchQuery } from '../queries/search-query'
import { pageHead } from '../seo/head'
import { decideIndexing, MIN_INDEXABLE_PROVIDERS } from '../seo/indexability'
import { isDataPath } from '../urls/data-prefix'
import { cityPath, servicePath } from '../urls/paths'
import { SEARCH, searchPath } from '../urls/search-path'
import type { LinkItem } from '../views/parts/link-list'
import type { Suggestion } from '../views/search/search-form'
import { MIN_SUGGEST, placeLabel, searchFormProps } from '../views/search/search-form'
import { SearchPage } from '../views/search/search-page'
import { renderDocument } from './render-document'

/**
 * A search is about one visitor's text: never stored by any cache, never in an index (its
 * answers are a redirect to a page that is, or a question back). docs/pages.md, "Search".
 */
const SEARCH_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' }
/** Suggestions depend only on the letters typed: the browser may reuse them a few minutes. */
const SUGGESTION_HEADERS = { 'cache-control': 'private, max-age=300', 'x-robots-tag': 'noindex' }
const MAX_MATCHES = 8
const NOT_INDEXED = decideIndexing({ private: true })

/**
 * `/search?service=…&place=…`: 302 to the directory of the city nearest the place that has
 * providers of the service; when the place is ambiguous or unknown, a page of close matches;
 * when something is missing, the form again with what to fix. At `/_data/search?place=…`, the
 * cities the typeahead suggests.
 */
export async function searchPage(c: Context<AppEnv>): Promise<Response> {
  const query = parseSearchQuery(new URL(c.req.url).searchParams)
  const db = c.get('db')
  if (isDataPath(c.req.path)) {
    const places: Suggestion[] =
      query.place?.kind === 'city' && query.text.length >= MIN_SUGGEST
        ? await findPlaceMatches(db, query.place, MAX_MATCHES).then(({ exact, close }) =>
            [...exact, ...close].map(({ slug, name, stateCode }) => ({ slug, name, stateCode })),
          )
        : []
    return c.json({ places }, 200, SUGGESTION_HEADERS)
  }

  const services = shownServices(c.get('flags').on)
  const service = services.find((s) => s.slug === query.service) ?? null
  const answer = (status: number, page: Omit<Answer, 'query'>) =>
    renderAnswer(c, status, { ...page, query }, services)
  if (!service)
    return answer(400, {
      heading: 'Find care near you',
      message: query.service
        ? `We don't offer "${query.service.slice(0, 40)}". Choose a kind of care from the list.`
        : 'Choose a kind of care, then type a city or a ZIP code.',
      service: null,
      places: {
        title: 'Care by service',
        items: services.map((s) => ({ href: servicePath(s.slug), text: s.title })),
      },
    })
  if (!query.place)
    return answer(400, {
      heading: `Find ${service.nouns} near you`,
      message: 'Type a city (Atlanta, GA) or a five-digit ZIP code.',
      service,
      places: await largestCities(c, service),
    })

  const found = await resolvePlace(c, query.place, query.text, service)
  if ('point' in found) {
    const nearest = await findNearestServed(db, found.point, service.slug)
    // No city anywhere has this service yet: its national page says so and offers the rest.
    const target = nearest ? cityPath(service.slug, nearest.slug) : servicePath(service.slug)
    const res = c.redirect(target, 302)
    for (const [name, value] of Object.entries(SEARCH_HEADERS)) res.headers.set(name, value)
    return res
  }
  return answer(found.status, { ...found.page, service })
}

type Resolved =
  { point: Point } | { status: number; page: Pick<Answer, 'heading' | 'message' | 'places'> }

/** Where a typed place is, or the page that asks which place was meant. */
async function resolvePlace(
  c: Context<AppEnv>,
  place: Place,
  text: string,
  service: Service,
): Promise<Resolved> {
  const db = c.get('db')
  if (place.kind === 'zip') {
    const zip = await findZip(db, place.zip)
    if (zip) return { point: zip }
    return {
      status: 404,
      page: {
        heading: `We couldn't find ZIP code ${place.zip}`,
        message: `No US ZIP code ${place.zip} is on our map. Check the digits, or type your city.`,
        places: await largestCities(c, service),
      },
    }
  }
  const { exact, close } = await findPlaceMatches(db, place, MAX_MATCHES)
  const [only] = exact
  if (only && exact.length === 1) return { point: only }
  const choose = (matches: readonly PlaceMatch[]) =>
    matches.map((m) => ({ href: searchPath(service.slug, m.slug), text: placeLabel(m) }))
  if (exact.length > 1)
    return {
      status: 200,
      page: {
        heading: `Which ${exact[0]?.name ?? 'place'}?`,
        message: `${exact.length} places are called ${exact[0]?.name ?? ''}. Choose yours to see ${service.nouns} near it.`,
        places: { title: 'Places with that name', items: choose(exact) },
      },
    }
  if (close.length)
    return {
      status: 200,
      page: {
        heading: 'Did you mean one of these?',
        message: `We couldn't find a place called "${text}". These are the closest names we know.`,
        places: { title: 'Close matches', items: choose(close) },
      },
    }
  return {
    status: 404,
    page: {
      heading: `We couldn't find "${text}"`,
      message: 'Check the spelling, add the state (Springfield, IL), or type a ZIP code.',
      places: await largestCities(c, service),
    },
  }
}

/** Where the service has the most providers: a next step when the place meant nothing. */
async function largestCities(c: Context<AppEnv>, service: Service): Promise<Answer['places']> {
  const cities = await findTopCities(c.get('db'), service.slug, {
    limit: 12,
    minProviders: MIN_INDEXABLE_PROVIDERS,
  })
  return {
    title: `${service.title} in the cities with the most`,
    items: cities.map((city) => ({
      href: cityPath(service.slug, city.slug),
      text: `${city.name}, ${city.stateCode}`,
    })),
  }
}

interface Answer {
  heading: string
  message: string
  service: Service | null
  query: SearchQuery
  places: { title: string; items: readonly LinkItem[] }
}

function renderAnswer(
  c: Context<AppEnv>,
  status: number,
  page: Answer,
  services: readonly Service[],
): Promise<Response> {
  return renderDocument(
    c,
    <SearchPage
      head={{
        // About one visitor's text: no canonical URL of its own.
        ...pageHead(c.env.PUBLIC_ORIGIN, {
          title: page.heading,
          description: page.message,
          path: SEARCH,
          decision: NOT_INDEXED,
          crumbs: null,
        }),
        canonical: undefined,
      }}
      heading={page.heading}
      message={page.message}
      form={searchFormProps(services, page.service, page.query.text)}
      places={page.places}
    />,
    { status, decision: NOT_INDEXED, headers: SEARCH_HEADERS },
  )
}
