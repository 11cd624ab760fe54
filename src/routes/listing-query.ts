import type { Labelled } from '../catalog/enums'
import { BADGES, WEEKDAYS } from '../catalog/enums'
import { DISTANCES, EXPERIENCE_YEARS, MAX_PAGE, RATE_BANDS } from '../catalog/filters'
import type { Service } from '../catalog/services'

// The query of a provider directory (SPEC section 5): parsed and validated into a value, and
// written back in one canonical order for links, canonical URLs and (later) cache keys.
// Parameters the service does not offer, and tracking parameters, are ignored.

export type Sort = 'recommended' | 'newest'

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
  sort: 'recommended',
  page: 1,
}

export type ParseResult = { ok: true; query: ListingQuery } | { ok: false; error: string }

type MaskField = 'availability' | 'ages' | 'options' | 'schedules' | 'badges'

/** The multi-valued parameters a service offers: name → list and field. */
export function maskParams(
  service: Service,
): { name: string; list: readonly Labelled[]; field: MaskField }[] {
  const out: { name: string; list: readonly Labelled[]; field: MaskField }[] = []
  const offers = (t: string) => service.filters.some((f) => f === t)
  if (offers('AVAILABILITY'))
    out.push({ name: 'availability', list: WEEKDAYS, field: 'availability' })
  if (offers('AGE') || offers('EXPERIENCE_WITH_AGES'))
    out.push({ name: 'ages', list: service.ages, field: 'ages' })
  if (offers('SERVICES')) out.push({ name: 'services', list: service.options, field: 'options' })
  if (offers('SUBJECT_AREA'))
    out.push({ name: 'subjects', list: service.options, field: 'options' })
  if (offers('SCHEDULE'))
    out.push({ name: 'schedule', list: service.schedules, field: 'schedules' })
  out.push({ name: 'badges', list: BADGES, field: 'badges' })
  return out
}

class QueryError extends Error {}

export function parseListingQuery(params: URLSearchParams, service: Service): ParseResult {
  try {
    return { ok: true, query: parse(params, service) }
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: error.message }
    throw error
  }
}

function parse(params: URLSearchParams, service: Service): ListingQuery {
  const values = (name: string): string[] => [
    ...new Set(
      params
        .getAll(name)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim().toLowerCase())
        .filter((v) => v !== ''),
    ),
  ]
  const one = (name: string): string | null => {
    const vs = values(name)
    if (vs.length > 1) throw new QueryError(`"${name}" takes one value`)
    return vs[0] ?? null
  }
  const invalid = (name: string, value: string) =>
    new QueryError(`"${value.slice(0, 40)}" is not a valid value for "${name}"`)
  const offers = (t: string) => service.filters.some((f) => f === t)

  const query: ListingQuery = { ...DEFAULT_QUERY }

  const distance = offers('DISTANCE') ? one('distance') : null
  if (distance !== null) {
    const miles = DISTANCES.find((d) => String(d) === distance)
    if (miles === undefined) throw invalid('distance', distance)
    query.distance = miles
  }

  const rate = offers('PAY_RATE') ? one('rate') : null
  if (rate !== null) {
    const band = RATE_BANDS.find((b) => b.value === rate)
    if (!band) throw invalid('rate', rate)
    query.rate = { low: band.low, high: band.high }
  }

  const experience = offers('YEARS_OF_EXPERIENCE') ? one('experience') : null
  if (experience !== null) {
    const years = EXPERIENCE_YEARS.find((y) => String(y) === experience)
    if (years === undefined) throw invalid('experience', experience)
    query.experience = years
  }

  for (const { name, list, field } of maskParams(service)) {
    for (const v of values(name)) {
      const i = list.findIndex((item) => item.slug === v)
      if (i < 0) throw invalid(name, v)
      query[field] |= 2 ** i
    }
  }

  const sort = one('sort')
  if (sort !== null) {
    if (sort !== 'recommended' && sort !== 'newest') throw invalid('sort', sort)
    query.sort = sort
  }

  const page = one('page')
  if (page !== null) {
    if (!/^[1-9][0-9]{0,5}$/.test(page) || Number(page) > MAX_PAGE) throw invalid('page', page)
    query.page = Number(page)
  }
  return query
}

/** True when the listing differs from the plain page: any filter, or a non-default sort. */
export function isFiltered(q: ListingQuery): boolean {
  return (
    q.distance !== null ||
    q.rate !== null ||
    q.experience !== null ||
    q.availability !== 0 ||
    q.ages !== 0 ||
    q.options !== 0 ||
    q.schedules !== 0 ||
    q.badges !== 0 ||
    q.sort !== 'recommended'
  )
}

/**
 * The canonical query string of a listing ("" or "?…"): parameters in alphabetical order,
 * list values comma-separated in catalog order, defaults left out.
 */
export function listingSearch(q: ListingQuery, service: Service): string {
  const pairs: [string, string][] = []
  for (const { name, list, field } of maskParams(service)) {
    const slugs = list.filter((_, i) => q[field] & (2 ** i)).map((item) => item.slug)
    if (slugs.length) pairs.push([name, slugs.join(',')])
  }
  if (q.distance !== null) pairs.push(['distance', String(q.distance)])
  if (q.experience !== null) pairs.push(['experience', String(q.experience)])
  if (q.page > 1) pairs.push(['page', String(q.page)])
  if (q.rate) pairs.push(['rate', `${q.rate.low}-${q.rate.high}`])
  if (q.sort !== 'recommended') pairs.push(['sort', q.sort])
  pairs.sort(([a], [b]) => (a < b ? -1 : 1))
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''
}
