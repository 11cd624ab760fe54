// What care costs where: national base rates per service, scaled by the state's cost of care
// and a little by city size, so cities differ the way they do in life.
import type { Place } from './places'

/** National base rates per service, in dollars per the service's pay unit. */
export const BASE_RATE: Record<string, number> = {
  babysitters: 18,
  nannies: 21,
  'child-care': 19,
  'senior-care': 19,
  housekeeping: 21,
  tutors: 28,
  'pet-care': 16,
  'personal-assistants': 19,
  'special-needs': 21,
  'day-care': 260,
  // A weekly stipend: the State Department's minimum for au pairs is about $196 a week.
  'au-pairs': 235,
  errands: 18,
}

// Relative cost of care by state, so cities differ the way they do in life.
const STATE_COST: Record<string, number> = {
  CA: 1.24,
  NY: 1.24,
  DC: 1.25,
  MA: 1.22,
  WA: 1.18,
  HI: 1.2,
  NJ: 1.15,
  CT: 1.12,
  MD: 1.1,
  CO: 1.08,
  OR: 1.08,
  IL: 1.04,
  VA: 1.04,
  MN: 1.03,
  MS: 0.82,
  AR: 0.84,
  WV: 0.85,
  AL: 0.86,
  OK: 0.87,
  KY: 0.87,
  LA: 0.88,
  TN: 0.9,
  SC: 0.9,
  IN: 0.9,
  MO: 0.9,
  NM: 0.9,
  OH: 0.92,
  NC: 0.93,
  GA: 0.94,
  TX: 0.95,
  FL: 0.97,
}

/** The cost factor of a place: 1 is the national average. */
export function costOf(place: Place): number {
  return (STATE_COST[place.stateCode] ?? 1) * (1 + Math.min(0.08, place.population / 50_000_000))
}

/** How far from the centre people of a place live, in miles. */
export function radiusOf(place: Place): number {
  return Math.min(15, 3 + Math.sqrt(place.population) / 150)
}
