import type { Labelled, Sort } from '../catalog/enums'
import { BADGES, DEFAULT_SORT, SORT_ORDERS, WEEKDAYS } from '../catalog/enums'
import { DISTANCES, EXPERIENCE_YEARS, RATE_BANDS } from '../catalog/filters'
import type { Service } from '../catalog/services'
import type { FilterField } from './filter-fields'
import type { ParseResult } from './query-params'
import { readQuery, searchOf, slugsOf } from './query-params'

// The query of a provider directory (docs/pages.md, "Listing rules"): parsed and validated into a
// value, and written back in one canonical order for links and canonical URLs. Parameters the
// service does not offer, and tracking parameters, are ignored.

export interface ListingQuery {
  distance: number | null
  rate: { low: number; high: number } | null
  experience: number | null
  /** Bitmasks over the lists of the service; 0 means "any". */
  availability: number
  ages: number
  options: number
  schedules: number
  badges: number
  sort: Sort
  page: number
}

export const DEFAULT_QUERY: ListingQuery = {
  distance: null,
  rate: null,
  experience: null,
  availability: 0,
  ages: 0,
  options: 0,
  schedules: 0,
  badges: 0,
  sort: DEFAULT_SORT,
  page: 1,
}

type MaskField = 'availability' | 'ages' | 'options' | 'schedules' | 'badges'

interface MaskParam {
  name: string
  legend: string
  list: readonly Labelled[]
  field: MaskField
}

/** The multi-valued parameters a service offers. */
export function maskParams(service: Service): MaskParam[] {
  const offers = (t: string) => service.filters.some((f) => f === t)
  const out: MaskParam[] = []
  if (offers('AVAILABILITY'))
    out.push({
      name: 'availability',
      legend: 'Available on',
      list: WEEKDAYS,
      field: 'availability',
    })
  if (offers('AGE') || offers('EXPERIENCE_WITH_AGES'))
    out.push({ name: 'ages', legend: 'Ages', list: service.ages, field: 'ages' })
  if (offers('SERVICES'))
    out.push({ name: 'services', legend: 'Services', list: service.options, field: 'options' })
  if (offers('SUBJECT_AREA'))
    out.push({ name: 'subjects', legend: 'Subjects', list: service.options, field: 'options' })
  if (offers('SCHEDULE'))
    out.push({ name: 'schedule', legend: 'Schedule', list: service.schedules, field: 'schedules' })
  out.push({ name: 'badges', legend: 'Badges', list: BADGES, field: 'badges' })
  return out
}

export function parseListingQuery(
  params: URLSearchParams,
  service: Service,
): ParseResult<ListingQuery> {
  const offers = (t: string) => service.filters.some((f) => f === t)
  return readQuery(params, (r) => {
    const rate = offers('PAY_RATE') ? r.pick('rate', RATE_BANDS, (b) => b.value) : null
    const query: ListingQuery = {
      ...DEFAULT_QUERY,
      distance: offers('DISTANCE') ? r.pick('distance', DISTANCES, String) : null,
      rate: rate && { low: rate.low, high: rate.high },
      experience: offers('YEARS_OF_EXPERIENCE')
        ? r.pick('experience', EXPERIENCE_YEARS, String)
        : null,
      sort: r.sort(),
      page: r.page(),
    }
    for (const { name, list, field } of maskParams(service)) query[field] = r.mask(name, list)
    return query
  })
}

/** True when the listing differs from the plain page: any filter, or a non-default sort. */
export function isFiltered(q: ListingQuery): boolean {
  return (
    q.distance !== null ||
    q.rate !== null ||
    q.experience !== null ||
    (q.availability | q.ages | q.options | q.schedules | q.badges) !== 0 ||
    q.sort !== DEFAULT_SORT
  )
}

/**
 * The canonical query string of a listing ("" or "?…"): parameters in alphabetical order,
 * list values comma-separated in catalog order, defaults left out.
 */
export function listingSearch(q: ListingQuery, service: Service): string {
  const pairs: Record<string, string | number | null> = {
    distance: q.distance,
    experience: q.experience,
    page: q.page > 1 ? q.page : null,
    rate: q.rate && `${q.rate.low}-${q.rate.high}`,
    sort: q.sort === DEFAULT_SORT ? null : q.sort,
  }
  for (const { name, list, field } of maskParams(service)) pairs[name] = slugsOf(q[field], list)
  return searchOf(pairs)
}

/** The filter form of a provider directory. */
export function listingFilterFields(service: Service, q: ListingQuery): FilterField[] {
  const offers = (t: string) => service.filters.some((f) => f === t)
  const fields: FilterField[] = []
  if (offers('DISTANCE')) {
    fields.push({
      kind: 'select',
      name: 'distance',
      label: 'Distance',
      value: q.distance === null ? '' : String(q.distance),
      options: [
        { value: '', label: 'Any distance' },
        ...DISTANCES.map((d) => ({
          value: String(d),
          label: `Within ${d} ${d === 1 ? 'mile' : 'miles'}`,
        })),
      ],
    })
  }
  if (offers('PAY_RATE')) {
    fields.push({
      kind: 'select',
      name: 'rate',
      label: 'Hourly rate',
      value: q.rate ? `${q.rate.low}-${q.rate.high}` : '',
      options: [
        { value: '', label: 'Any rate' },
        ...RATE_BANDS.map((b) => ({ value: b.value, label: b.label })),
      ],
    })
  }
  if (offers('YEARS_OF_EXPERIENCE')) {
    fields.push({
      kind: 'select',
      name: 'experience',
      label: 'Experience',
      value: q.experience === null ? '' : String(q.experience),
      options: [
        { value: '', label: 'Any' },
        ...EXPERIENCE_YEARS.map((y) => ({ value: String(y), label: `${y}+ years` })),
      ],
    })
  }
  fields.push(sortField(q.sort))
  for (const { name, legend, list, field } of maskParams(service)) {
    fields.push({ kind: 'checks', name, legend, items: list, mask: q[field] })
  }
  return fields
}

/**
 * What the results say about their order, in the words of the sort field: RECOMMENDED reads
 * "Newest" where the listing is not ranked (flag rankedDirectorySorting off orders by recency).
 */
export function sortedBy(sort: Sort, ranked = true): string {
  const order = ranked ? sort : 'newest'
  return `Sorted by: ${SORT_ORDERS.find((s) => s.slug === order)?.label ?? ''}`
}

export function sortField(sort: Sort): FilterField {
  return {
    kind: 'select',
    name: 'sort',
    label: 'Sort by',
    value: sort,
    options: SORT_ORDERS.map((s) => ({ value: s.slug, label: s.label })),
  }
}
