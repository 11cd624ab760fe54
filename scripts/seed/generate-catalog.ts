// The deterministic catalog generator: real places in, realistic providers out. Each city is
// generated from its own seed, so the same city always gets the same people whatever else is
// generated with it; ids are numbered in city order.
import { faker } from '@faker-js/faker'
import type { Labelled, RatingCategory } from '../../src/catalog/enums'
import { BADGES, CERTIFICATIONS, LANGUAGES, TRAITS, WEEKDAYS } from '../../src/catalog/enums'
import type { Service } from '../../src/catalog/services'
import { findService } from '../../src/catalog/services'
import { slugOf } from '../../src/catalog/options'
import type { Place } from './places'
import type { Family } from './texts'
import * as T from './texts'

export interface GenerateOptions {
  /** Multiplies the providers of every city: 1 is the default catalog (30,000+ providers). */
  scale: number
  seed: number
  /** Dates in the catalog lie before this moment. */
  now: Date
}

export type Row = Record<string, string | number | null>
export interface CityRows {
  cities: Row[]
  providers: Row[]
  provider_services: Row[]
  reviews: Row[]
}

const SEED_CITY_PROVIDERS = 800

/** Providers generated for a place at scale 1: many in the seed cities, by population elsewhere. */
export function providersFor(place: Place, isSeedCity: boolean, scale: number): number {
  const base = isSeedCity
    ? SEED_CITY_PROVIDERS
    : Math.min(400, Math.max(6, place.population / 4500))
  return Math.max(1, Math.round(base * scale))
}

interface FamilyPlan {
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

/** National base rates per service, in dollars per the service's pay unit. */
const BASE_RATE: Record<string, number> = {
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
}

const DAY = 86_400_000

export function* generateCatalog(
  places: readonly Place[],
  options: GenerateOptions,
): Generator<CityRows> {
  const ids = { provider: 0, review: 0 }
  const seedCities = new Set(places.slice(0, 20).map((p) => p.slug))
  for (const place of places) {
    faker.seed([options.seed, place.id])
    yield generateCity(
      place,
      providersFor(place, seedCities.has(place.slug), options.scale),
      ids,
      options.now,
    )
  }
}

function generateCity(
  place: Place,
  count: number,
  ids: { provider: number; review: number },
  now: Date,
): CityRows {
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
  }
  const cost =
    (STATE_COST[place.stateCode] ?? 1) * (1 + Math.min(0.08, place.population / 50_000_000))
  const radius = Math.min(15, 3 + Math.sqrt(place.population) / 150)
  for (let i = 0; i < count; i++) {
    ids.provider += 1
    const plan = faker.helpers.weightedArrayElement(
      FAMILIES.map((f) => ({ weight: f.weight, value: f })),
    )
    generateProvider(rows, ids, plan, place, { cost, radius, now })
  }
  return rows
}

function generateProvider(
  rows: CityRows,
  ids: { provider: number; review: number },
  plan: FamilyPlan,
  place: Place,
  ctx: { cost: number; radius: number; now: Date },
): void {
  const id = ids.provider
  const family = plan.family
  const smb = family === 'DAYCARE'
  const first = faker.person.firstName()
  const last = faker.person.lastName()
  const business = smb
    ? `${faker.helpers.arrayElement(T.DAYCARE_NAMES)} ${faker.helpers.arrayElement(T.DAYCARE_KINDS)}`
    : null
  const years = smb
    ? faker.number.int({ min: 2, max: 35 })
    : Math.min(30, Math.floor(faker.number.float({ min: 0, max: 1 }) ** 2 * 22) + 1)

  // A point around the city centre, denser towards the middle.
  const angle = faker.number.float({ min: 0, max: 2 * Math.PI })
  const dist = ctx.radius * Math.sqrt(faker.number.float({ min: 0, max: 1 }))
  const lat = round(place.lat + (dist / 69) * Math.sin(angle), 5)
  const lng = round(
    place.lng + (dist / (69 * Math.cos((place.lat * Math.PI) / 180))) * Math.cos(angle),
    5,
  )

  const services = plan.services.filter((s) => faker.datatype.boolean(s.p))
  if (services.length === 0 && plan.services[0]) services.push(plan.services[0])
  const primary = findService(services[0]?.slug ?? '') as Service

  const badges = mask(BADGES, [smb ? 0.9 : 0.7, 0.25, 0.4])
  const availability = availabilityMask()
  const traits = mask(TRAITS, [
    0.9,
    family === 'CAREGIGSX' ? 0.95 : 0.6,
    0.7,
    family === 'HOUSEKEEP' ? 0.5 : 0.1,
    family === 'HOUSEKEEP' ? 0.45 : 0.1,
  ])
  const languages = ['ENGLISH']
  if (faker.datatype.boolean(0.25)) languages.push('SPANISH')
  if (faker.datatype.boolean(0.1))
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

  const created = new Date(
    ctx.now.getTime() -
      faker.number.int({ min: 7, max: 5 * 365 }) * DAY -
      faker.number.int({ min: 0, max: DAY - 1 }),
  )
  const updated = new Date(
    created.getTime() + faker.number.int({ min: 0, max: ctx.now.getTime() - created.getTime() }),
  )

  const optionLabels = primary.options.length
    ? faker.helpers.arrayElements(primary.options, { min: 2, max: 4 }).map((o) => o.label)
    : []
  const fill = (s: string) =>
    s
      .replaceAll('{first}', first)
      .replaceAll('{years}', String(years))
      .replaceAll('{noun}', primary.noun)
      .replaceAll('{city}', place.name)
      .replaceAll('{business}', business ?? '')
      .replaceAll('{subject}', optionLabels[0] ?? 'Math')
  const headline = fill(faker.helpers.arrayElement(T.HEADLINES[family]))
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
    const tone = rating >= 5 ? 'great' : rating >= 4 ? 'good' : 'mixed'
    rows.reviews.push({
      id: ids.review,
      provider_id: id,
      service: primary.slug,
      author: `${faker.person.firstName()} ${faker.person.lastName().charAt(0)}.`,
      rating,
      ratings: JSON.stringify(ratings),
      body: faker.helpers
        .arrayElement(T.REVIEW_BODIES[tone])
        .replaceAll('{first}', business ?? first),
      created_at: iso(
        new Date(
          created.getTime() +
            faker.number.int({ min: 0, max: ctx.now.getTime() - created.getTime() }),
        ),
      ),
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
    photo_url: null,
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
      ctx.cost *
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

function mask(list: readonly Labelled[], probabilities: readonly number[]): number {
  return list.reduce(
    (m, _, i) => (faker.datatype.boolean(probabilities[i] ?? 0.5) ? m | (2 ** i) : m),
    0,
  )
}

function someOf(list: readonly Labelled[]): number {
  if (list.length === 0) return 0
  const picked = faker.helpers.arrayElements(list, { min: 1, max: Math.min(list.length, 6) })
  return picked.reduce((m, item) => m | (2 ** list.indexOf(item)), 0)
}

// Typical weeks: weekdays, weekends, a few days, or every day.
function availabilityMask(): number {
  const weekdays = 0b0011111
  const weekend = 0b1100000
  return faker.helpers.weightedArrayElement([
    { weight: 35, value: weekdays },
    { weight: 15, value: weekend },
    { weight: 20, value: weekdays | weekend },
    { weight: 30, value: someOf(WEEKDAYS) },
  ])
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

function bitCount(n: number): number {
  let c = 0
  for (let v = n; v; v &= v - 1) c++
  return c
}

function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n))
}

function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
