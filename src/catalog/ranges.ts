// The range of each value of the catalog, defined once: the change contract
// (src/sync/messages.ts) refuses a value outside it, and the URL parser, the gate and the
// sitemaps take exactly the ids it accepts, so an entity the catalog takes is one its pages
// serve (docs/sync.md, "Values and their ranges").

/** An inclusive range of whole numbers or of numbers. */
export interface Range {
  min: number
  max: number
}

/**
 * Every entity's id: positive, and at most 2^53 − 1, up to where D1's integers and JavaScript's
 * numbers are both exact, so an id read back from D1 or from a URL is the id sent.
 */
export const ID: Range = { min: 1, max: Number.MAX_SAFE_INTEGER }

/** The digits of the longest id: 16 (9007199254740991). */
export const ID_DIGITS = String(ID.max).length

/** Whether `value` is an id some entity may have. */
export function isId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= ID.min && (value as number) <= ID.max
}

/** The ranges of the other numbers of the contract, each a field's (or fields') own. */
export const RANGES = {
  /** A change's version, such as the source's `updated_at` in milliseconds. */
  version: { min: 0, max: Number.MAX_SAFE_INTEGER },
  latitude: { min: -90, max: 90 },
  longitude: { min: -180, max: 180 },
  /** Rates, pay and prices, in whole dollars. */
  money: { min: 0, max: 1_000_000 },
  population: { min: 0, max: Number.MAX_SAFE_INTEGER },
  yearsExperience: { min: 0, max: 80 },
  /** Children a centre cares for at once. */
  capacity: { min: 1, max: 100_000 },
  hoursPerWeek: { min: 1, max: 168 },
  children: { min: 0, max: 20 },
  /** A review's rating and each of its rating categories. */
  rating: { min: 1, max: 5 },
} as const satisfies Record<string, Range>
