import { ACTIVITY_AGE_GROUPS } from '../../catalog/activities'
import { WEEKDAYS } from '../../catalog/enums'
import { labelsOf } from '../../catalog/labels'
import type { Activity } from '../../data/activities'
import { CARE_AROUND_ACTIVITIES } from '../../data/activities'
import { worthListing } from '../../seo/indexability'
import { activitiesPath, cityPath, servicePath } from '../../urls/paths'
import type { CardLine, CardModel } from '../listing/listing-state'
import { dollars, longDate } from '../parts/format'

const UNIT: Record<Activity['priceUnit'], string> = {
  session: 'session',
  wk: 'week',
  mo: 'month',
  flat: 'program',
}

/** The unit a price is per, as the card says it; null for a one-off price (the whole program). */
export function pricedPer(unit: Activity['priceUnit']): string | null {
  return unit === 'flat' ? null : UNIT[unit]
}

function when(a: Pick<Activity, 'startDate' | 'endDate'>): string {
  return a.startDate && a.endDate
    ? `${longDate(a.startDate)} to ${longDate(a.endDate)}`
    : 'Ongoing, join any week'
}

function where(a: Activity): string {
  return a.participation === 'ONLINE'
    ? 'Online'
    : `${a.venue ?? ''}, ${a.address ?? ''}, ${a.cityName ?? ''}, ${a.stateCode ?? ''}`
}

/** Where an activity's card may lead: only to pages worth a visit (the indexability rule). */
export interface ActivityLinks {
  /** The keyword page the card is on. */
  page: string
  /** Whether a keyword page has activities enough to be linked. */
  worthALink: (keyword: string) => boolean
  /** Whether the national child care page is worth a link (for online activities). */
  nationalCare: boolean
}

/**
 * A camp or class: organizer and format, price, dates and days, ages and place. Its element id
 * is what the page's Event JSON-LD points at. No card is a dead end: its title leads to its
 * subcategory's page when the card is on its category's, and a line to child care around it
 * (the city's directory, or the national page for an online activity or a city with too few).
 */
export function activityCard(a: Activity, links: ActivityLinks): CardModel {
  const meta = (text: string) => ({ kind: 'text' as const, className: 'meta', text })
  const more =
    a.subcategory && a.subcategory !== links.page && links.worthALink(a.subcategory)
      ? activitiesPath(a.subcategory)
      : null
  return {
    key: `a${a.id}`,
    anchor: `activity-${a.id}`,
    avatar: null,
    title: a.name,
    href: more,
    lines: [
      meta(
        `${a.organizer} · ${a.participation === 'ONLINE' ? 'Online' : 'In-person'}${a.isCamp ? ' · Camp' : ''}`,
      ),
      { kind: 'text', className: 'rate', text: `${dollars(a.price)} per ${UNIT[a.priceUnit]}` },
      meta(`${when(a)} · ${labelsOf(a.days, WEEKDAYS).join(', ')}`),
      meta(`Ages ${labelsOf(a.ages, ACTIVITY_AGE_GROUPS).join(', ')} · ${where(a)}`),
      { kind: 'text', className: 'bio', text: a.description },
      ...careNearby(a, links),
    ],
  }
}

/** Child care around the activity's hours: in its city when worth a link, else nationally. */
function careNearby(a: Activity, links: ActivityLinks): CardLine[] {
  const line = (href: string, text: string): CardLine => ({
    kind: 'link',
    className: 'next',
    href,
    text,
  })
  if (a.participation === 'IN_PERSON' && a.citySlug && worthListing(a.cityChildCare ?? 0))
    return [
      line(
        cityPath(CARE_AROUND_ACTIVITIES, a.citySlug),
        `Child care in ${a.cityName ?? ''}, ${a.stateCode ?? ''}`,
      ),
    ]
  return links.nationalCare
    ? [line(servicePath(CARE_AROUND_ACTIVITIES), 'Child care near you')]
    : []
}
