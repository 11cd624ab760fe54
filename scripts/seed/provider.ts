// A provider: who they are, what they offer at what rate, and what families said of them.
import { faker } from '@faker-js/faker'
import { photoOf } from './photos'
import type { RatingCategory } from '../../src/catalog/enums'
import { BADGES, CERTIFICATIONS, LANGUAGES, TRAITS } from '../../src/catalog/enums'
import { slugOf } from '../../src/catalog/options'
import type { Service } from '../../src/catalog/services'
import { findService } from '../../src/catalog/services'
import type { CityRows } from './city-rows'
import type { Ids } from './ids'
import { BASE_RATE, costOf, radiusOf } from './market'
import type { Place } from './places'
import {
  availabilityMask,
  between,
  bitCount,
  clamp,
  DAY,
  iso,
  listOf,
  mask,
  pointNear,
  round,
  someOf,
} from './random'
import type { Family } from './texts'
import * as T from './texts'

export interface FamilyPlan {
  family: Family
  weight: number
  services: readonly { slug: string; p: number }[]
}

// Who offers what. Child care providers often list several child services.
const FAMILIES: readonly FamilyPlan[] = [
  {
    family: 'CHILDCARE',
    weight: 40,
    services: [
      { slug: 'babysitters', p: 0.75 },
      { slug: 'nannies', p: 0.45 },
      { slug: 'child-care', p: 0.6 },
    ],
  },
  { family: 'SENIRCARE', weight: 14, services: [{ slug: 'senior-care', p: 1 }] },
  { family: 'HOUSEKEEP', weight: 12, services: [{ slug: 'housekeeping', p: 1 }] },
  { family: 'TUTORINGX', weight: 10, services: [{ slug: 'tutors', p: 1 }] },
  { family: 'PETCAREXX', weight: 10, services: [{ slug: 'pet-care', p: 1 }] },
  { family: 'CAREGIGSX', weight: 5, services: [{ slug: 'personal-assistants', p: 1 }] },
  { family: 'SPCLNEEDS', weight: 4, services: [{ slug: 'special-needs', p: 1 }] },
  { family: 'DAYCARE', weight: 5, services: [{ slug: 'day-care', p: 1 }] },
]

/**
 * Au pairs and errand runners, generated as a pool of their own after the rest of a city (so
 * adding them left every other provider, job and activity of a city as it was).
 */
export const AU_PAIRS: FamilyPlan = {
  family: 'AU_PAIR',
  weight: 1,
  services: [{ slug: 'au-pairs', p: 1 }],
}
export const ERRAND_RUNNERS: FamilyPlan = {
  family: 'ERRANDS',
  weight: 1,
  services: [{ slug: 'errands', p: 1 }],
}

const RATING_CATEGORIES: Record<Family, readonly RatingCategory[]> = {
  CHILDCARE: [
    'DEPENDABILITY',
    'PUNCTUALITY',
    'COMMUNICATION',
    'GOOD_WITH_MULTIPLE_KIDS',
    'QUALITY_OF_CARE',
    'REHIRE',
  ],
  SENIRCARE: [
    'PROFESSIONALISM',
    'DEPENDABILITY',
    'QUALITY_OF_CARE',
    'RELIABLE_TRANSPORTATION',
    'COMMUNICATION',
  ],
  HOUSEKEEP: ['CLEANLINESS', 'PUNCTUALITY', 'DEPENDABILITY', 'REHIRE'],
  TUTORINGX: ['KNOWLEDGEABLE', 'QUALITY_OF_LESSON', 'COMMUNICATION', 'PUNCTUALITY'],
  PETCAREXX: ['DEPENDABILITY', 'GOOD_WITH_MULTIPLE_PETS', 'COMMUNICATION', 'REHIRE'],
  CAREGIGSX: ['RESPONSIVENESS', 'SKILL_SET', 'EXPERTISE', 'DEPENDABILITY'],
  SPCLNEEDS: ['EXPERTISE', 'QUALITY_OF_CARE', 'COMMUNICATION', 'DEPENDABILITY'],
  DAYCARE: ['FACILITIES', 'ACTIVITIES', 'CLEANLINESS', 'COMMUNICATION', 'ACCURATE_CALENDAR'],
  AU_PAIR: ['GOOD_WITH_MULTIPLE_KIDS', 'DEPENDABILITY', 'COMMUNICATION', 'ACTIVITIES', 'REHIRE'],
  ERRANDS: ['RESPONSIVENESS', 'PUNCTUALITY', 'RELIABLE_TRANSPORTATION', 'DEPENDABILITY'],
}

const CERTS_BY_FAMILY: Record<Family, readonly [string, number][]> = {
  CHILDCARE: [
    ['CPR_TRAINING', 0.6],
    ['FIRST_AID_TRAINING', 0.5],
    ['EARLY_CHILDHOOD_EDUCATION_ECE', 0.15],
    ['CHILD_DEVELOPMENT_ASSOCIATE_CDA', 0.08],
    ['EARLY_CHILD_DEVELOPMENT_COURSEWORK', 0.12],
    ['DOULA', 0.02],
  ],
  SENIRCARE: [
    ['CPR_TRAINING', 0.6],
    ['FIRST_AID_TRAINING', 0.5],
    ['CERTIFIED_NURSING_ASSISTANT', 0.3],
    ['CERTIFIED_REGISTERED_NURSE', 0.04],
    ['CRN', 0.03],
  ],
  HOUSEKEEP: [],
  TUTORINGX: [['CERTIFIED_TEACHER', 0.3]],
  PETCAREXX: [['FIRST_AID_TRAINING', 0.2]],
  CAREGIGSX: [],
  SPCLNEEDS: [
    ['SPECIAL_NEEDS_CARE', 0.6],
    ['CPR_TRAINING', 0.6],
    ['CERTIFIED_TEACHER', 0.1],
  ],
  DAYCARE: [
    ['NAFCC_CERTIFIED', 0.4],
    ['CPR_TRAINING', 0.9],
    ['FIRST_AID_TRAINING', 0.9],
  ],
  AU_PAIR: [
    ['CPR_TRAINING', 0.7],
    ['FIRST_AID_TRAINING', 0.6],
    ['EARLY_CHILD_DEVELOPMENT_COURSEWORK', 0.1],
  ],
  ERRANDS: [],
}

/**
 * One provider of `place`, with their services and reviews, appended to `rows`: of the family
 * `plan`, or of one drawn by weight from the main ones.
 */
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

const headlines = new WeakMap<CityRows, Set<string>>()

/** The headlines a city's providers have so far: a directory page never shows one twice. */
function usedHeadlines(rows: CityRows): Set<string> {
  let used = headlines.get(rows)
  if (!used) headlines.set(rows, (used = new Set()))
  return used
}

/** A text `make` makes that is not in `used` yet (after 60 tries, the last one), kept in it. */
function uniqueIn(used: Set<string>, make: (tries: number) => string): string {
  let text = make(0)
  for (let tries = 1; used.has(text) && tries < 60; tries++) text = make(tries)
  used.add(text)
  return text
}

export function generateProvider(
  rows: CityRows,
  ids: Ids,
  place: Place,
  now: Date,
  plan = faker.helpers.weightedArrayElement(FAMILIES.map((f) => ({ weight: f.weight, value: f }))),
): void {
  ids.provider += 1
  const id = ids.provider
  const family = plan.family
  const auPair = family === 'AU_PAIR'
  const smb = family === 'DAYCARE'
  const first = faker.person.firstName()
  const last = faker.person.lastName()
  const business = smb
    ? `${faker.helpers.arrayElement(T.DAYCARE_NAMES)} ${faker.helpers.arrayElement(T.DAYCARE_KINDS)}`
    : null
  // Au pairs are 18 to 26: a few years of babysitting at most.
  const years = smb
    ? faker.number.int({ min: 2, max: 35 })
    : auPair
      ? faker.number.int({ min: 1, max: 6 })
      : Math.min(30, Math.floor(faker.number.float({ min: 0, max: 1 }) ** 2 * 22) + 1)

  const { lat, lng } = pointNear(place, radiusOf(place))

  const services = plan.services.filter((s) => faker.datatype.boolean(s.p))
  if (services.length === 0 && plan.services[0]) services.push(plan.services[0])
  const primary = findService(services[0]?.slug ?? '') as Service

  const badges = mask(BADGES, [smb ? 0.9 : 0.7, 0.25, 0.4])
  const availability = availabilityMask()
  const traits = mask(
    TRAITS,
    smb
      ? [0.95, 0.4, 0, 0, 0]
      : [
          0.9,
          family === 'CAREGIGSX' || family === 'ERRANDS' ? 0.95 : 0.6,
          0.7,
          family === 'HOUSEKEEP' ? 0.5 : 0.1,
          family === 'HOUSEKEEP' ? 0.45 : 0.1,
        ],
  )
  // An au pair comes from abroad and speaks their own language as well as English.
  const origin = auPair ? faker.helpers.arrayElement(T.AU_PAIR_COUNTRIES) : null
  const languages = ['ENGLISH']
  if (origin && origin.language !== 'ENGLISH') languages.push(origin.language)
  else if (faker.datatype.boolean(0.25)) languages.push('SPANISH')
  if (!origin && faker.datatype.boolean(0.1))
    languages.push(
      faker.helpers.arrayElement(LANGUAGES.filter((l) => l !== 'ENGLISH' && l !== 'SPANISH')),
    )
  const certifications = CERTS_BY_FAMILY[family]
    .filter(([, p]) => faker.datatype.boolean(p))
    .map(([c]) => c)
  if (family === 'CHILDCARE' && place.stateCode === 'CA' && faker.datatype.boolean(0.3)) {
    certifications.push('TRUSTLINE_CERTIFIED_CALIFORNIA')
  }
  certifications.sort(
    (a, b) => CERTIFICATIONS.indexOf(a as never) - CERTIFICATIONS.indexOf(b as never),
  )

  const created = between(
    new Date(now.getTime() - 5 * 365 * DAY),
    new Date(now.getTime() - 7 * DAY),
  )
  const updated = between(created, now)

  const optionLabels = primary.options.length
    ? faker.helpers.arrayElements(primary.options, { min: 2, max: 4 }).map((o) => o.label)
    : []
  const fill = (s: string) =>
    s
      .replaceAll('{first}', first)
      .replaceAll('{years}', `${years} ${years === 1 ? 'year' : 'years'}`)
      .replaceAll('{noun}', primary.noun)
      .replaceAll('{city}', place.name)
      .replaceAll('{business}', business ?? '')
      .replaceAll('{subject}', optionLabels[0] ?? 'Math')
      .replaceAll('{country}', origin?.country ?? '')
  const strength = () => faker.helpers.arrayElement(T.HEADLINE_STRENGTHS[family])
  const headline = uniqueIn(usedHeadlines(rows), (tries) =>
    fill(
      tries < 3
        ? faker.helpers.arrayElement(T.HEADLINES[family])
        : tries < 10
          ? `${faker.helpers.arrayElement(T.HEADLINES[family])}, ${strength()}`
          : `${capitalised(primary.noun)} with {years} of experience, ${strength()}`,
    ),
  )
  const bio = [
    fill(faker.helpers.arrayElement(T.INTROS[family])),
    ...faker.helpers.arrayElements(T.DETAILS[family], { min: 1, max: 2 }).map(fill),
    optionLabels.length
      ? `I can help with ${listOf(optionLabels.map((l) => l.toLowerCase()))}.`
      : null,
    smb ? null : faker.helpers.arrayElement(T.CLOSINGS),
  ]
    .filter((s) => s !== null)
    .join(' ')

  // Reviews: many providers have none; those who do are mostly rated well.
  const reviewCount = faker.datatype.boolean(0.3)
    ? 0
    : Math.floor(faker.number.float({ min: 0, max: 1 }) ** 2 * 15) + 1
  let ratingSum = 0
  // No sentence twice among one provider's reviews (all on their profile).
  const said = new Set<string>()
  const fresh = (options: readonly string[]): string | null => {
    const unsaid = options.filter((o) => !said.has(o))
    if (unsaid.length === 0) return null
    const sentence = faker.helpers.arrayElement(unsaid)
    said.add(sentence)
    return sentence.replaceAll('{first}', business ?? first)
  }
  for (let r = 0; r < reviewCount; r++) {
    ids.review += 1
    const rating = faker.helpers.weightedArrayElement([
      { weight: 60, value: 5 },
      { weight: 27, value: 4 },
      { weight: 8, value: 3 },
      { weight: 3, value: 2 },
      { weight: 2, value: 1 },
    ])
    ratingSum += rating
    const ratings: Record<string, number> = { OVERALL: rating }
    for (const cat of RATING_CATEGORIES[family]) {
      ratings[cat] = Math.max(1, Math.min(5, rating + faker.helpers.arrayElement([-1, 0, 0, 0, 1])))
    }
    const parts = T.REVIEW_PARTS[rating >= 5 ? 'great' : rating >= 4 ? 'good' : 'mixed']
    rows.reviews.push({
      id: ids.review,
      provider_id: id,
      service: primary.slug,
      author: `${faker.person.firstName()} ${faker.person.lastName().charAt(0)}.`,
      rating,
      ratings: JSON.stringify(ratings),
      // A provider with more reviews than a tone has parts gets shorter ones, then counted ones.
      body:
        [parts.openings, parts.details, parts.closings]
          .map(fresh)
          .filter((t) => t !== null)
          .join(' ') || `We have booked ${business ?? first} ${r + 1} times now.`,
      created_at: iso(between(created, now)),
    })
  }
  const rating = reviewCount ? round(ratingSum / reviewCount, 2) : null

  rows.providers.push({
    id,
    name_slug: slugOf(business ?? `${first} ${last.charAt(0)}`),
    first_name: first,
    last_name: last,
    business_type: smb ? 'SMB' : 'CAREGIVER',
    business_name: business,
    city_id: place.id,
    lat,
    lng,
    headline,
    bio,
    photo_url: photoOf(id, smb),
    years_experience: years,
    badges,
    availability,
    traits,
    languages: languages.join(','),
    certifications: certifications.join(','),
    education: smb ? null : faker.helpers.arrayElement(T.EDUCATION),
    rating,
    review_count: reviewCount,
    capacity: smb ? faker.number.int({ min: 3, max: 24 }) * 5 : null,
    opening_hours: smb
      ? `${faker.helpers.arrayElement(['6:30', '7:00', '7:30'])} AM – ${faker.helpers.arrayElement(['5:30', '6:00', '6:30'])} PM`
      : null,
    address: smb
      ? `${faker.number.int({ min: 100, max: 9899 })} ${faker.helpers.arrayElement(T.STREETS)} ${faker.helpers.arrayElement(T.STREET_TYPES)}`
      : null,
    created_at: iso(created),
    updated_at: iso(updated),
  })

  for (const { slug } of services) {
    const service = findService(slug) as Service
    const base =
      (BASE_RATE[slug] ?? 20) *
      costOf(place) *
      (0.85 + 0.03 * Math.min(years, 10)) *
      faker.number.float({ min: 0.9, max: 1.12 })
    const spread =
      service.payUnit === 'hr'
        ? faker.number.int({ min: 2, max: 8 })
        : faker.number.int({ min: 20, max: 80 })
    const low = service.payUnit === 'hr' ? 10 : 100
    const high = service.payUnit === 'hr' ? 50 : 900
    const rateMin = clamp(Math.round(base - spread / 2), low, high - 1)
    const rateMax = clamp(Math.round(base + spread / 2), rateMin + 1, high)
    rows.provider_services.push({
      provider_id: id,
      service: slug,
      city_id: place.id,
      lat,
      lng,
      rank_score: round(
        (rating ?? 3.5) * Math.log2(2 + reviewCount) +
          bitCount(badges) * 0.8 +
          Math.min(years, 15) * 0.1 +
          faker.number.float({ min: 0, max: 1 }),
        4,
      ),
      created_at: iso(created),
      rate_min: rateMin,
      rate_max: rateMax,
      pay_unit: service.payUnit,
      years_experience: years,
      badges,
      availability,
      ages: someOf(service.ages),
      options: someOf(service.options),
      schedules: someOf(service.schedules),
    })
  }
}
