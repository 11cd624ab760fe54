import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { findActivityKeyword } from '../catalog/activities'
import { PAGE_SIZE } from '../catalog/filters'
import { findActivities, findActivityCounts } from '../data/activities'
import type { AppEnv } from '../env'
import { shownCategories } from '../flags/visibility'
import { activityEvent } from '../seo/entity-json-ld'
import { absoluteUrl, pageTitle } from '../seo/head'
import { decideIndexing, robotsOf, worthListing } from '../seo/indexability'
import { breadcrumbList } from '../seo/json-ld'
import { activityCard, pricedPer } from '../views/activities/activity-card'
import { ActivitiesPage } from '../views/activities/activities-page'
import { listingState } from '../views/listing/listing-state'
import { count } from '../views/shared/format'
import {
  activityFilterFields,
  activitySearch,
  isActivityQueryFiltered,
  parseActivityQuery,
} from '../queries/activity-query'
import { activitiesPath } from '../urls/paths'
import { renderListing } from './render-page'
import { intentQuestion } from './visitor-flow'

/** `/explore/d/{keyword}`: camps and classes of an activity category or subcategory. */
export async function activitiesPage(c: Context<AppEnv>): Promise<Response> {
  const { on } = c.var.flags
  const keyword = findActivityKeyword(c.req.param('keyword') ?? '')
  const categories = shownCategories(on)
  // Cooking exists only with the cooking category flag.
  if (!keyword || !categories.includes(keyword.category)) throw new HTTPException(404)
  const offerCamps = on('campsFilter')
  const parsed = parseActivityQuery(new URL(c.req.url).searchParams, offerCamps)
  if (!parsed.ok) throw new HTTPException(400, { message: parsed.error })
  const query = parsed.query
  const today = new Date().toISOString().slice(0, 10)
  const [{ total, items }, counts] = await Promise.all([
    findActivities(c.var.db, keyword, query, today),
    findActivityCounts(c.var.db, [
      ...categories.map((other) => other.slug),
      ...keyword.category.subcategories.map((s) => s.slug),
    ]),
  ])
  const worthALink = (slug: string) => worthListing(counts.get(slug) ?? 0)
  if (query.page > 1 && (query.page - 1) * PAGE_SIZE >= total) throw new HTTPException(404)

  const filtered = isActivityQueryFiltered(query)
  const decision = decideIndexing({ inventory: counts.get(keyword.slug) ?? 0, filtered })
  const path = activitiesPath(keyword.slug)
  const origin = c.env.PUBLIC_ORIGIN
  const url = absoluteUrl(origin, path)
  const category = keyword.category
  const crumbs = [
    {
      name: category.slug === 'stem' ? 'STEM' : category.label,
      path: activitiesPath(category.slug),
    },
    ...(keyword.subcategory ? [{ name: keyword.label, path }] : []),
  ]
  // Every dated activity on the page, as the Event it visibly is.
  const events = items.flatMap((a) =>
    a.startDate && a.endDate
      ? [
          activityEvent({
            url: `${url}#activity-${a.id}`,
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
      : [],
  )
  const siblings = category.subcategories.filter(
    (s) => s.slug !== keyword.slug && worthALink(s.slug),
  )
  const head = {
    title: pageTitle(
      `${keyword.label} classes and camps for kids${query.page > 1 ? ` – Page ${query.page}` : ''}`,
    ),
    description: `${total} ${keyword.label.toLowerCase()} camps and classes for kids, in person and online: dates, ages, days and prices.`,
    canonical: absoluteUrl(
      origin,
      filtered || query.page === 1 ? path : `${path}?page=${query.page}`,
    ),
    robots: robotsOf(decision),
    jsonLd: [...events, breadcrumbList(origin, crumbs)],
  }
  const label = keyword.label.toLowerCase()
  const state = listingState({
    head,
    path,
    heading: `${keyword.label} classes and camps for kids`,
    lede:
      total > 0
        ? `${count(total, 'camp or class', 'camps and classes')} ${filtered ? 'match your filters' : 'coming up or running now'}.`
        : null,
    notice:
      !decision.index && decision.reason === 'thin' && !filtered
        ? `Only a few ${label} activities are listed right now.`
        : null,
    filters: activityFilterFields(keyword, query, offerCamps),
    filtered,
    total,
    page: query.page,
    sortLabel: 'Sorted by: Date',
    cards: items.map(activityCard),
    pageHref: (page) => path + activitySearch({ ...query, page }),
    empty: filtered
      ? `No ${label} activities match these filters.`
      : `No ${label} activities are listed right now.`,
    intent: intentQuestion(
      'child-care',
      'Need child care around camp hours? When do you need it?',
      on,
    ),
  })
  return renderListing(
    c,
    state,
    () => (
      <ActivitiesPage
        head={head}
        crumbs={crumbs}
        state={state}
        signUpBanner={on('providerSignUpBanner')}
        related={[
          ...(keyword.subcategory && worthALink(category.slug)
            ? [{ href: activitiesPath(category.slug), text: `All ${category.label.toLowerCase()}` }]
            : []),
          ...siblings.map((s) => ({ href: activitiesPath(s.slug), text: s.label })),
        ]}
        categories={categories
          .filter((other) => other.slug !== category.slug && worthALink(other.slug))
          .map((other) => ({
            href: activitiesPath(other.slug),
            text: other.slug === 'stem' ? 'STEM' : other.label,
          }))}
      />
    ),
    { decision, tags: [`keyword:${keyword.slug}`, `category:${category.slug}`] },
  )
}
