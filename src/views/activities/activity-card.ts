import { ACTIVITY_AGE_GROUPS } from '../../catalog/activities'
import { WEEKDAYS } from '../../catalog/enums'
import { labelsOf } from '../../catalog/labels'
import type { Activity } from '../../data/activities'
import type { CardModel } from '../listing/listing-state'
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

/**
 * A camp or class: organizer and format, price, dates and days, ages and place. Its element id
 * is what the page's Event JSON-LD points at.
 */
export function activityCard(a: Activity): CardModel {
  const meta = (text: string) => ({ kind: 'text' as const, className: 'meta', text })
  return {
    key: `a${a.id}`,
    anchor: `activity-${a.id}`,
    avatar: null,
    title: a.name,
    href: null,
    lines: [
      meta(
        `${a.organizer} · ${a.participation === 'ONLINE' ? 'Online' : 'In-person'}${a.isCamp ? ' · Camp' : ''}`,
      ),
      { kind: 'text', className: 'rate', text: `${dollars(a.price)} per ${UNIT[a.priceUnit]}` },
      meta(`${when(a)} · ${labelsOf(a.days, WEEKDAYS).join(', ')}`),
      meta(`Ages ${labelsOf(a.ages, ACTIVITY_AGE_GROUPS).join(', ')} · ${where(a)}`),
      { kind: 'text', className: 'bio', text: a.description },
    ],
  }
}
