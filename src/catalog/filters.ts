import type { FilterType } from './enums'

// Filter values of listings (docs/pages.md, "Listing rules") and the product's business constants.

/** Distance options in miles. */
export const DISTANCES = [1, 2, 3, 4, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50] as const

/** Pay-rate bands: "below $10 to $10 (shown as 5-10), then $5 steps up to $45-$50". */
export const RATE_BANDS = [5, 10, 15, 20, 25, 30, 35, 40, 45].map((low) => ({
  value: `${low}-${low + 5}`,
  low,
  high: low + 5,
  label: low === 5 ? 'Below $10' : `$${low}–$${low + 5}`,
}))

/** Minimum years of experience; "Any" is no parameter. */
export const EXPERIENCE_YEARS = [3, 5, 7, 10] as const

/** The query parameter that carries each filter type. */
export const FILTER_PARAMS: Readonly<Record<FilterType, string>> = {
  AGE: 'ages',
  AVAILABILITY: 'availability',
  DISTANCE: 'distance',
  EXPERIENCE_WITH_AGES: 'ages',
  HOURS: 'hours',
  JOB_TYPE: 'jobType',
  PAY_RATE: 'rate',
  SCHEDULE: 'schedule',
  SERVICES: 'services',
  SUBJECT_AREA: 'subjects',
  YEARS_OF_EXPERIENCE: 'experience',
}

export const PAGE_SIZE = 20
/** Deep offsets cost D1 time and serve nobody; past this a listing answers 404. */
export const MAX_PAGE = 100

/** The last page of a listing of `total` results: an empty listing still has its first page. */
export function lastPage(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE))
}
