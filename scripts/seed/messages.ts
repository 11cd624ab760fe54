// The generated catalog as change messages (src/sync/messages.ts): what `npm run seed` writes
// and imports, as a marketplace's own catalog would be. Rows keep D1's shape for the generator;
// here their bitmasks become the lists of codes the messages carry.
import type { Labelled } from '../../src/catalog/enums'
import { BADGES, TRAITS, WEEKDAYS } from '../../src/catalog/enums'
import { ACTIVITY_AGE_GROUPS } from '../../src/catalog/activities'
import { findJobService, JOB_REQUIREMENTS } from '../../src/catalog/jobs'
import { findService } from '../../src/catalog/services'
import type { CatalogMessage } from '../../src/sync/messages'
import type { CityRows, Row } from './city-rows'

/** The codes of the members of `list` set in `mask`. */
export function codesOf(mask: number, list: readonly Labelled[]): string[] {
  return list.filter((_, i) => mask & (2 ** i)).map((item) => item.code)
}

const str = (row: Row, column: string) => row[column] as string
const num = (row: Row, column: string) => row[column] as number
const strOrNull = (row: Row, column: string) => row[column] as string | null
const list = (row: Row, column: string) => (str(row, column) ? str(row, column).split(',') : [])

/**
 * One city's rows as messages, parents before children (the city, each provider, its
 * listings and reviews, then jobs and activities): every message names only what came before.
 * `version` is the seed's moment: the whole catalog is one snapshot.
 */
export function* cityMessages(rows: CityRows, version: number): Generator<CatalogMessage> {
  for (const c of rows.cities)
    yield {
      kind: 'city.added',
      id: num(c, 'id'),
      version,
      entity: {
        name: str(c, 'name'),
        stateCode: str(c, 'state_code'),
        lat: num(c, 'lat'),
        lng: num(c, 'lng'),
        population: num(c, 'population'),
      },
    }
  const listings = groupBy(rows.provider_services, 'provider_id')
  const reviews = groupBy(rows.reviews, 'provider_id')
  for (const p of rows.providers) {
    const id = num(p, 'id')
    yield {
      kind: 'provider.upserted',
      id,
      version,
      entity: {
        firstName: str(p, 'first_name'),
        lastName: str(p, 'last_name'),
        businessType: str(p, 'business_type') as 'CAREGIVER' | 'SMB',
        businessName: strOrNull(p, 'business_name'),
        cityId: num(p, 'city_id'),
        lat: num(p, 'lat'),
        lng: num(p, 'lng'),
        headline: str(p, 'headline'),
        bio: str(p, 'bio'),
        photoUrl: strOrNull(p, 'photo_url'),
        yearsExperience: num(p, 'years_experience'),
        badges: codesOf(num(p, 'badges'), BADGES),
        availability: codesOf(num(p, 'availability'), WEEKDAYS),
        traits: codesOf(num(p, 'traits'), TRAITS),
        languages: list(p, 'languages') as never,
        certifications: list(p, 'certifications') as never,
        education: strOrNull(p, 'education'),
        capacity: p.capacity as number | null,
        openingHours: strOrNull(p, 'opening_hours'),
        address: strOrNull(p, 'address'),
        createdAt: str(p, 'created_at'),
        updatedAt: str(p, 'updated_at'),
      },
    }
    for (const l of listings.get(id) ?? []) {
      const service = findService(str(l, 'service'))
      if (!service) throw new Error(`the generator listed an unknown service: ${str(l, 'service')}`)
      yield {
        kind: 'provider-service.offered',
        id,
        service: service.slug,
        version,
        entity: {
          rateMin: num(l, 'rate_min'),
          rateMax: num(l, 'rate_max'),
          ages: codesOf(num(l, 'ages'), service.ages),
          options: codesOf(num(l, 'options'), service.options),
          schedules: codesOf(num(l, 'schedules'), service.schedules),
          rankScore: num(l, 'rank_score'),
          createdAt: str(l, 'created_at'),
        },
      }
    }
    for (const r of reviews.get(id) ?? []) {
      // OVERALL travels as the review's `rating`.
      const ratings = JSON.parse(str(r, 'ratings')) as Record<string, number>
      delete ratings.OVERALL
      yield {
        kind: 'review.added',
        id: num(r, 'id'),
        version,
        entity: {
          providerId: id,
          service: str(r, 'service'),
          author: str(r, 'author'),
          rating: num(r, 'rating'),
          ratings,
          body: str(r, 'body'),
          createdAt: str(r, 'created_at'),
        },
      }
    }
  }
  for (const j of rows.jobs) {
    const jobService = findJobService(str(j, 'service'))
    if (!jobService) throw new Error(`the generator posted an unknown job: ${str(j, 'service')}`)
    yield {
      kind: 'job.upserted',
      id: num(j, 'id'),
      version,
      entity: {
        title: str(j, 'title'),
        service: jobService.slug,
        jobType: str(j, 'job_type') as 'SEEKER_JOB' | 'SMB_JOB',
        employer: str(j, 'employer'),
        cityId: num(j, 'city_id'),
        lat: num(j, 'lat'),
        lng: num(j, 'lng'),
        description: str(j, 'description'),
        payMin: num(j, 'pay_min'),
        payMax: num(j, 'pay_max'),
        payUnit: str(j, 'pay_unit') as never,
        schedule: str(j, 'schedule'),
        hoursPerWeek: j.hours_per_week as number | null,
        startDate: str(j, 'start_date'),
        children: num(j, 'children'),
        ages: codesOf(num(j, 'ages'), jobService.service.ages),
        requirements: codesOf(num(j, 'requirements'), JOB_REQUIREMENTS),
        rankScore: num(j, 'rank_score'),
        postedAt: str(j, 'posted_at'),
        validThrough: str(j, 'valid_through'),
      },
    }
  }
  for (const a of rows.activities)
    yield {
      kind: 'activity.upserted',
      id: num(a, 'id'),
      version,
      entity: {
        name: str(a, 'name'),
        organizer: str(a, 'organizer'),
        source: str(a, 'source'),
        category: str(a, 'category'),
        subcategory: strOrNull(a, 'subcategory'),
        participation: str(a, 'participation') as 'IN_PERSON' | 'ONLINE',
        ages: codesOf(num(a, 'ages'), ACTIVITY_AGE_GROUPS),
        days: codesOf(num(a, 'days'), WEEKDAYS),
        startDate: strOrNull(a, 'start_date'),
        endDate: strOrNull(a, 'end_date'),
        isCamp: num(a, 'is_camp') === 1,
        price: num(a, 'price'),
        priceUnit: str(a, 'price_unit') as 'session' | 'wk' | 'mo' | 'flat',
        description: str(a, 'description'),
        cityId: a.city_id as number | null,
        venue: strOrNull(a, 'venue'),
        address: strOrNull(a, 'address'),
        rankScore: num(a, 'rank_score'),
      },
    }
}

function groupBy(rows: readonly Row[], column: string): Map<number, Row[]> {
  const groups = new Map<number, Row[]>()
  for (const row of rows) {
    const key = row[column] as number
    const group = groups.get(key)
    if (group) group.push(row)
    else groups.set(key, [row])
  }
  return groups
}
