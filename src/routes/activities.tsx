import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ActivityKeyword } from '../catalog/activities'
import { findActivityKeyword } from '../catalog/activities'
import type { Activity } from '../data/activities'
import { CARE_AROUND_ACTIVITIES, findActivities, findActivityCounts } from '../data/activities'
import { findNationalCounts } from '../data/home'
import type { AppEnv } from '../env'
import { shownCategories } from '../flags/visibility'
import { activityEvent } from '../seo/entity-json-ld'
import { absoluteUrl } from '../seo/head'
import { decideIndexing, isThin, worthListing } from '../seo/indexability'
import { listingHead } from '../seo/listing-head'
import { activityCard, pricedPer } from '../views/activities/activity-card'
import { ActivitiesPage } from '../views/activities/activities-page'
import { listingState } from '../views/listing/listing-state'
import type { LinkItem } from '../views/parts/link-list'
import {
  activityFilterFields,
  activitySearch,
  isActivityQueryFiltered,
  parseActivityQuery,
} from '../queries/activity-query'
import { activitiesPath } from '../urls/paths'
import { listingPage, validQuery } from './listing-page'
import { renderDocument } from './render-document'
import { listingView } from '../views/listing/listing-layout'
import { intentQuestion } from '../views/listing/intent-question'
import { TAG } from '../cache/tags'

/** `/explore/d/{keyword}`: camps and classes of an activity category or subcategory. */
export async function activitiesPage(c: Context<AppEnv>): Promise<Response> {
  const loaded = await loadActivities(c)
  const { keyword, categories } = loaded
  const { head, crumbs, state, decision, worthALink } = describeActivities(c, loaded)
  return renderDocument(
    c,
    listingView(state, () => ({
      head,
      main: (
        <ActivitiesPage
          crumbs={crumbs}
          state={state}
          signUpBanner={c.get('flags').on('providerSignUpBanner')}
          related={relatedLinks(keyword, worthALink)}
          categories={categories
            .filter((other) => other.slug !== keyword.category.slug && worthALink(other.slug))
            .map((other) => ({
              href: activitiesPath(other.slug),
              text: other.slug === 'stem' ? 'STEM' : other.label,
            }))}
        />
      ),
    })),
    { decision, tags: [TAG.keyword(keyword.slug), TAG.category(keyword.category.slug)] },
  )
}

type LoadedActivities = Awaited<ReturnType<typeof loadActivities>>

/** The route's keyword and query, its activities and the counts its links need: one round trip. */
async function loadActivities(c: Context<AppEnv>) {
  const { on } = c.get('flags')
  const keyword = findActivityKeyword(c.req.param('keyword') ?? '')
  const categories = shownCategories(on)
  // Cooking exists only with the cooking category flag.
  if (!keyword || !categories.includes(keyword.category)) throw new HTTPException(404)
  const offerCamps = on('campsFilter')
  const { searchParams } = new URL(c.req.url)
  const query = validQuery(parseActivityQuery(searchParams, keyword.category, offerCamps))
  const today = new Date().toISOString().slice(0, 10)
  const [{ total, items }, counts, care] = await Promise.all([
    findActivities(c.get('db'), keyword, query, today),
    findActivityCounts(c.get('db'), [
      ...categories.map((other) => other.slug),
      ...keyword.category.subcategories.map((s) => s.slug),
    ]),
    findNationalCounts(c.get('db'), [CARE_AROUND_ACTIVITIES]),
  ])
  return { keyword, categories, offerCamps, query, total, items, counts, care }
}

/** The page's indexing, head, trail and listing state (its HTML and its `/_data` JSON). */
function describeActivities(
  c: Context<AppEnv>,
  { keyword, offerCamps, query, total, items, counts, care }: LoadedActivities,
) {
  const worthALink = (slug: string) => worthListing(counts.get(slug) ?? 0)
  const filtered = isActivityQueryFiltered(query)
  const path = activitiesPath(keyword.slug)
  const at = listingPage({ path, page: query.page, filtered }, total)
  const decision = decideIndexing({ inventory: counts.get(keyword.slug) ?? 0, filtered })
  const origin = c.env.PUBLIC_ORIGIN
  const category = keyword.category
  const crumbs = [
    {
      name: category.slug === 'stem' ? 'STEM' : category.label,
      path: activitiesPath(category.slug),
    },
    ...(keyword.subcategory ? [{ name: keyword.label, path }] : []),
  ]
  const head = listingHead(origin, at, {
    title: `${keyword.label} classes and camps for kids`,
    description: `${total} ${keyword.label.toLowerCase()} camps and classes for kids, in person and online: dates, ages, days and prices.`,
    decision,
    jsonLd: items.flatMap((a) => eventOf(a, absoluteUrl(origin, path))),
    crumbs,
  })
  const label = keyword.label.toLowerCase()
  const state = listingState({
    head,
    listing: at,
    heading: `${keyword.label} classes and camps for kids`,
    found: { one: 'camp or class', many: 'camps and classes', place: null },
    unfiltered: 'coming up or running now',
    notice: isThin(decision) ? `Only a few ${label} activities are listed right now.` : null,
    filters: activityFilterFields(keyword, query, offerCamps),
    total,
    sortLabel: 'Sorted by: Date',
    cards: items.map((a) =>
      activityCard(a, {
        page: keyword.slug,
        worthALink,
        nationalCare: worthListing(care[0]?.providers ?? 0),
      }),
    ),
    pageHref: (page) => path + activitySearch({ ...query, page }),
    empty: filtered
      ? `No ${label} activities match these filters.`
      : `No ${label} activities are listed right now.`,
    intent: intentQuestion(
      'child-care',
      'Need child care around camp hours? When do you need it?',
      c.get('flags').on,
      path,
    ),
  })
  return { head, crumbs, state, decision, worthALink }
}

/** The keyword's category and the category's other subcategories, where worth a link. */
function relatedLinks(keyword: ActivityKeyword, worthALink: (slug: string) => boolean): LinkItem[] {
  const category = keyword.category
  const siblings = category.subcategories.filter(
    (s) => s.slug !== keyword.slug && worthALink(s.slug),
  )
  return [
    ...(keyword.subcategory && worthALink(category.slug)
      ? [{ href: activitiesPath(category.slug), text: `All ${category.label.toLowerCase()}` }]
      : []),
    ...siblings.map((s) => ({ href: activitiesPath(s.slug), text: s.label })),
  ]
}

/** A dated activity on the page, as the Event it visibly is; an ongoing class is none. */
function eventOf(a: Activity, pageUrl: string): object[] {
  if (!a.startDate || !a.endDate) return []
  return [
    activityEvent({
      url: `${pageUrl}#activity-${a.id}`,
      name: a.name,
      description: a.description,
      startDate: a.startDate,
      endDate: a.endDate,
      online: a.participation === 'ONLINE',
      venue: a.venue,
      place:
        a.cityName && a.stateCode
          ? { locality: a.cityName, region: a.stateCode, street: a.address }
          : null,
      organizer: a.organizer,
      price: a.price,
      priceUnit: pricedPer(a.priceUnit),
    }),
  ]
}
