// The deterministic catalog generator: real places in, realistic providers and jobs out. Each
// city is generated from its own seed, so the same city always gets the same people whatever
// else is generated with it; ids are numbered in city order.
import { faker } from '@faker-js/faker'
import { ACTIVITY_KEYWORDS } from '../../src/catalog/activities'
import { JOB_SERVICES } from '../../src/catalog/jobs'
import { generateActivity } from './activity'
import type { CityRows } from './city-rows'
import type { Ids } from './ids'
import { generateJob } from './job'
import type { Place } from './places'
import { AU_PAIRS, ERRAND_RUNNERS, generateProvider } from './provider'

export interface GenerateOptions {
  /** Multiplies the providers and jobs of every city: 1 is the default catalog (30,000+ providers). */
  scale: number
  seed: number
  /** Dates in the catalog lie before this moment, but for jobs' closing dates. */
  now: Date
}

const SEED_CITY_PROVIDERS = 800

/** The large setting (`--large`): every place of the place data, a million providers. */
export const LARGE = { scale: 7.4, cities: 20_000 }

/** Providers generated for a place at scale 1: many in the seed cities, by population elsewhere. */
export function providersFor(place: Place, isSeedCity: boolean, scale: number): number {
  const base = isSeedCity
    ? SEED_CITY_PROVIDERS
    : Math.min(400, Math.max(6, place.population / 4500))
  return Math.max(1, Math.round(base * scale))
}

/**
 * Au pairs and errand runners in a place, for its other providers at scale 1: au pairs live
 * with host families, mostly in large, well-off metros; errand runners are everywhere.
 */
export function newVerticalsFor(providers: number): { auPairs: number; errandRunners: number } {
  return { auPairs: Math.round(providers * 0.04), errandRunners: Math.round(providers * 0.06) }
}

/** Jobs open or recently closed in a place: about one for every three providers. */
export function jobsFor(providers: number): number {
  return Math.round(providers * 0.35)
}

/** Camps and classes run in a place: a few for every hundred providers. */
export function activitiesFor(providers: number): number {
  return Math.round(providers * 0.05)
}

/** The seed cities: the first places, with the most providers and every job family and activity. */
const seedCitiesOf = (places: readonly Place[]) => new Set(places.slice(0, 20).map((p) => p.slug))

/**
 * Each place's providers at `scale` (au pairs and errand runners aside), in order: known before
 * anything is generated, so each city's share of the catalog is too (the seed's progress line).
 */
export function placeProviders(places: readonly Place[], scale: number): number[] {
  const seedCities = seedCitiesOf(places)
  return places.map((place) => providersFor(place, seedCities.has(place.slug), scale))
}

export function* generateCatalog(
  places: readonly Place[],
  options: GenerateOptions,
): Generator<CityRows> {
  const ids: Ids = { provider: 0, review: 0, job: 0, activity: 0 }
  const seedCities = seedCitiesOf(places)
  const counts = placeProviders(places, options.scale)
  for (const [index, place] of places.entries()) {
    faker.seed([options.seed, place.id])
    const providers = counts[index] ?? 0
    const rows: CityRows = {
      cities: [
        {
          id: place.id,
          slug: place.slug,
          name: place.name,
          state_code: place.stateCode,
          lat: place.lat,
          lng: place.lng,
          population: place.population,
        },
      ],
      providers: [],
      provider_services: [],
      reviews: [],
      jobs: [],
      activities: [],
    }
    for (let i = 0; i < providers; i++) generateProvider(rows, ids, place, options.now)
    // Every job family has open jobs in the seed cities; the rest follow demand.
    const families = seedCities.has(place.slug) ? JOB_SERVICES.map((j) => j.slug) : []
    for (const slug of families) generateJob(rows, ids, place, options.now, slug)
    for (let i = families.length; i < jobsFor(providers); i++)
      generateJob(rows, ids, place, options.now)
    // And every activity keyword has something on in the seed cities.
    const keywords = seedCities.has(place.slug) ? ACTIVITY_KEYWORDS.map((k) => k.slug) : []
    for (const slug of keywords) generateActivity(rows, ids, place, options.now, slug)
    for (let i = 0; i < activitiesFor(providers); i++)
      generateActivity(rows, ids, place, options.now)
    // Drawn from a seed of their own, after the rest: adding these verticals changed no other
    // provider, job or activity of the city (only later provider ids moved up).
    faker.seed([options.seed, place.id, 1])
    const { auPairs, errandRunners } = newVerticalsFor(providers)
    for (let i = 0; i < auPairs; i++) generateProvider(rows, ids, place, options.now, AU_PAIRS)
    for (let i = 0; i < errandRunners; i++)
      generateProvider(rows, ids, place, options.now, ERRAND_RUNNERS)
    yield rows
  }
}
