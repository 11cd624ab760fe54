// Seeded random choices (faker's generator, seeded per city by generate-catalog.ts) and small
// pure helpers shared by the provider and job generators.
import { faker } from '@faker-js/faker'
import type { Labelled } from '../../src/catalog/enums'
import { WEEKDAYS } from '../../src/catalog/enums'
import type { Place } from './places'

export const DAY = 86_400_000

/** Each member of `list` with its own probability. */
export function mask(list: readonly Labelled[], probabilities: readonly number[]): number {
  return list.reduce(
    (m, _, i) => (faker.datatype.boolean(probabilities[i] ?? 0.5) ? m | (2 ** i) : m),
    0,
  )
}

/** One to six members of `list`. */
export function someOf(list: readonly Labelled[]): number {
  if (list.length === 0) return 0
  const picked = faker.helpers.arrayElements(list, { min: 1, max: Math.min(list.length, 6) })
  return picked.reduce((m, item) => m | (2 ** list.indexOf(item)), 0)
}

/** Typical weeks: weekdays, weekends, a few days, or every day. */
export function availabilityMask(): number {
  const weekdays = 0b0011111
  const weekend = 0b1100000
  return faker.helpers.weightedArrayElement([
    { weight: 35, value: weekdays },
    { weight: 15, value: weekend },
    { weight: 20, value: weekdays | weekend },
    { weight: 30, value: someOf(WEEKDAYS) },
  ])
}

/** A point within `radius` miles of the place's centre, denser towards the middle. */
export function pointNear(place: Place, radius: number): { lat: number; lng: number } {
  const angle = faker.number.float({ min: 0, max: 2 * Math.PI })
  const dist = radius * Math.sqrt(faker.number.float({ min: 0, max: 1 }))
  return {
    lat: round(place.lat + (dist / 69) * Math.sin(angle), 5),
    lng: round(
      place.lng + (dist / (69 * Math.cos((place.lat * Math.PI) / 180))) * Math.cos(angle),
      5,
    ),
  }
}

/** A moment between `from` and `to`. */
export function between(from: Date, to: Date): Date {
  return new Date(
    from.getTime() + faker.number.int({ min: 0, max: Math.max(0, to.getTime() - from.getTime()) }),
  )
}

export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

export function bitCount(n: number): number {
  let c = 0
  for (let v = n; v; v &= v - 1) c++
  return c
}

export function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n))
}

export function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
