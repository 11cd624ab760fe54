import type { ActivityCategory, ActivityKeyword } from '../catalog/activities'
import {
  ACTIVITY_AGE_GROUPS,
  ACTIVITY_CATEGORIES,
  PARTICIPATION_TYPES,
} from '../catalog/activities'
import { WEEKDAYS } from '../catalog/enums'
import type { FilterField } from './filter-fields'
import type { ParseResult, QueryReader } from './query-params'
import { readQuery, searchOf, slugsOf } from './query-params'

// The product's activity query filters: categories, subcategories, activityDates,
// childCareAgeGroups, activityDaysOfWeek, activityParticipationType, onlyCampActivities.
// Ages and days match activities that serve any of the chosen ones.

export interface ActivityQuery {
  categories: string[]
  subcategories: string[]
  /** Activities running on some day of this range (one day when from = to). */
  dates: { from: string; to: string } | null
  ages: number
  days: number
  participation: 'IN_PERSON' | 'ONLINE' | null
  onlyCamps: boolean
  page: number
}

const MAX_RANGE_DAYS = 366

/**
 * The query of a keyword page of `category`: its `subcategories` are the category's own (another
 * category's would only ever list nothing, under a URL and a cache entry of its own: a 400).
 */
export function parseActivityQuery(
  params: URLSearchParams,
  category: ActivityCategory,
  offerCamps = true,
): ParseResult<ActivityQuery> {
  return readQuery(params, (r) => ({
    categories: r.list(
      'categories',
      ACTIVITY_CATEGORIES.map((c) => c.slug),
    ),
    subcategories: r.list(
      'subcategories',
      category.subcategories.map((s) => s.slug),
    ),
    dates: dates(r),
    ages: r.mask('childCareAgeGroups', ACTIVITY_AGE_GROUPS),
    days: r.mask('activityDaysOfWeek', WEEKDAYS),
    participation:
      r.pick('activityParticipationType', PARTICIPATION_TYPES, (p) => p.slug)?.code ?? null,
    onlyCamps:
      offerCamps && r.pick('onlyCampActivities', ['true', 'false'] as const, (v) => v) === 'true',
    page: r.page(),
  }))
}

/** `YYYY-MM-DD`, or a range `YYYY-MM-DD..YYYY-MM-DD` of at most a year. */
function dates(r: QueryReader): ActivityQuery['dates'] {
  const value = r.raw('activityDates')
  if (value === null) return null
  const [from = '', to = from, ...rest] = value.split('..')
  if (rest.length || !isDate(from) || !isDate(to) || to < from)
    throw r.invalid('activityDates', value)
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 > MAX_RANGE_DAYS)
    throw r.invalid('activityDates', value)
  return { from, to }
}

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s)
}

export function isActivityQueryFiltered(q: ActivityQuery): boolean {
  return activitySearch({ ...q, page: 1 }) !== ''
}

export function activitySearch(q: ActivityQuery): string {
  return searchOf({
    activityDates: q.dates
      ? q.dates.from === q.dates.to
        ? q.dates.from
        : `${q.dates.from}..${q.dates.to}`
      : null,
    activityDaysOfWeek: slugsOf(q.days, WEEKDAYS),
    activityParticipationType:
      PARTICIPATION_TYPES.find((p) => p.code === q.participation)?.slug ?? null,
    categories: q.categories.join(','),
    childCareAgeGroups: slugsOf(q.ages, ACTIVITY_AGE_GROUPS),
    onlyCampActivities: q.onlyCamps ? 'true' : null,
    page: q.page > 1 ? q.page : null,
    subcategories: q.subcategories.join(','),
  })
}

/** The filter form of a keyword page: its category's subcategories, ages, days, where, camps. */
export function activityFilterFields(
  keyword: ActivityKeyword,
  q: ActivityQuery,
  offerCamps: boolean,
): FilterField[] {
  const fields: FilterField[] = [
    {
      kind: 'select',
      name: 'activityParticipationType',
      label: 'Where',
      value: PARTICIPATION_TYPES.find((p) => p.code === q.participation)?.slug ?? '',
      options: [
        { value: '', label: 'In-person and online' },
        ...PARTICIPATION_TYPES.map((p) => ({ value: p.slug, label: p.label })),
      ],
    },
    {
      kind: 'date',
      name: 'activityDates',
      label: 'On date',
      value: q.dates?.from === q.dates?.to ? (q.dates?.from ?? '') : '',
    },
  ]
  if (offerCamps) {
    fields.push({
      kind: 'select',
      name: 'onlyCampActivities',
      label: 'Camps',
      value: q.onlyCamps ? 'true' : '',
      options: [
        { value: '', label: 'Camps and classes' },
        { value: 'true', label: 'Camps only' },
      ],
    })
  }
  if (!keyword.subcategory && keyword.category.subcategories.length) {
    const subs = keyword.category.subcategories
    fields.push({
      kind: 'checks',
      name: 'subcategories',
      legend: 'Activities',
      items: subs,
      mask: subs.reduce((m, s, i) => (q.subcategories.includes(s.slug) ? m | (2 ** i) : m), 0),
    })
  }
  return [...fields, ...whenFields(q)]
}

/** The ages and days fields every keyword page's filter form ends with. */
function whenFields(q: ActivityQuery): FilterField[] {
  return [
    {
      kind: 'checks',
      name: 'childCareAgeGroups',
      legend: 'Ages',
      items: ACTIVITY_AGE_GROUPS,
      mask: q.ages,
    },
    { kind: 'checks', name: 'activityDaysOfWeek', legend: 'Days', items: WEEKDAYS, mask: q.days },
  ]
}
