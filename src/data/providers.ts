import type { BusinessType, PayUnit } from '../catalog/enums'
import type { Db } from './db'
import { versionKey } from '../catalog/version-key'

/** A provider's profile, with the place they live in. */
export interface Provider {
  id: number
  nameSlug: string
  firstName: string
  lastName: string
  businessType: BusinessType
  businessName: string | null
  cityId: number
  citySlug: string
  cityName: string
  stateCode: string
  lat: number
  lng: number
  headline: string
  bio: string
  photoUrl: string | null
  yearsExperience: number
  badges: number
  availability: number
  traits: number
  /** Comma-separated LANGUAGES codes. */
  languages: string
  /** Comma-separated CERTIFICATIONS codes. */
  certifications: string
  education: string | null
  rating: number | null
  reviewCount: number
  capacity: number | null
  openingHours: string | null
  address: string | null
  createdAt: string
  updatedAt: string
}

export function findProvider(db: Db, id: number): Promise<Provider | null> {
  return db.first<Provider>(
    `SELECT p.id, p.name_slug AS nameSlug, p.first_name AS firstName, p.last_name AS lastName,
            p.business_type AS businessType, p.business_name AS businessName,
            p.city_id AS cityId, c.slug AS citySlug, c.name AS cityName, c.state_code AS stateCode, p.lat, p.lng,
            p.headline, p.bio, p.photo_url AS photoUrl, p.years_experience AS yearsExperience,
            p.badges, p.availability, p.traits, p.languages, p.certifications, p.education,
            p.rating, p.review_count AS reviewCount, p.capacity, p.opening_hours AS openingHours,
            p.address, p.created_at AS createdAt, p.updated_at AS updatedAt
       FROM providers p JOIN cities c ON c.id = p.city_id
      WHERE p.id = ?`,
    id,
  )
}

/**
 * Whether catalog sync removed the provider (its tombstone in sync_versions, docs/sync.md): its
 * profile is gone (410) rather than never there (404).
 */
export async function wasProviderRemoved(db: Db, id: number): Promise<boolean> {
  const row = await db.first<{ removed: number }>(
    'SELECT removed FROM sync_versions WHERE key = ?',
    versionKey('provider', id),
  )
  return row?.removed === 1
}

/** One service a provider offers, with its rates and coded options. */
export interface ProviderService {
  service: string
  rateMin: number
  rateMax: number
  payUnit: PayUnit
  ages: number
  options: number
  schedules: number
}

export function findProviderServices(db: Db, id: number): Promise<ProviderService[]> {
  return db.all<ProviderService>(
    `SELECT service, rate_min AS rateMin, rate_max AS rateMax, pay_unit AS payUnit, ages, options, schedules
       FROM provider_services WHERE provider_id = ?`,
    id,
  )
}

export interface Review {
  id: number
  author: string
  rating: number
  body: string
  createdAt: string
}

// Not each review's category ratings: the page shows only their averages (findRatingAverages).
export function findReviews(db: Db, providerId: number, limit = 10): Promise<Review[]> {
  return db.all<Review>(
    `SELECT id, author, rating, body, created_at AS createdAt
       FROM reviews WHERE provider_id = ? ORDER BY created_at DESC LIMIT ?`,
    providerId,
    limit,
  )
}

export interface RatingAverage {
  category: string
  average: number
  count: number
}

/** The average of each of the product's rating categories over all of a provider's reviews. */
export function findRatingAverages(db: Db, providerId: number): Promise<RatingAverage[]> {
  return db.all<RatingAverage>(
    `SELECT j.key AS category, AVG(j.value) AS average, COUNT(*) AS count
       FROM reviews r, json_each(r.ratings) j
      WHERE r.provider_id = ?
      GROUP BY j.key ORDER BY j.key`,
    providerId,
  )
}

/**
 * How many people offer any of `services` in a city: a provider with several services is one
 * caregiver. Summed from the city's sets of services (city_service_mixes), a dozen rows at most.
 */
export async function countCityProviders(
  db: Db,
  cityId: number,
  services: readonly string[],
): Promise<number> {
  const mixes = await db.all<{ services: string; providers: number }>(
    'SELECT services, providers FROM city_service_mixes WHERE city_id = ?',
    cityId,
  )
  const wanted = new Set(services)
  return mixes
    .filter((mix) => mix.services.split(',').some((s) => wanted.has(s)))
    .reduce((n, mix) => n + mix.providers, 0)
}
