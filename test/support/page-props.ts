import fc from 'fast-check'
import { BUSINESS_TYPES, PAY_UNITS } from '../../src/catalog/enums'
import { JOB_REQUIREMENTS, JOB_SCHEDULES, JOB_SERVICES, JOB_TYPES } from '../../src/catalog/jobs'
import { SERVICES } from '../../src/catalog/services'
import type { Job } from '../../src/data/jobs'
import type { ProviderCard } from '../../src/data/provider-listing'
import type { Provider } from '../../src/data/providers'
import type { JobDetailPageProps } from '../../src/views/jobs/job-detail-page'
import type { ProfilePageProps } from '../../src/views/profile/profile-page'

// A provider's card, a profile's and an open job's page props for property tests (test/views/fragments.test.tsx,
// test/views/main-markup.test.tsx).

// Text as stored data may hold it: markup, quotes, entities, line separators, emoji.
export const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('</li><script>alert(1)</script>', '"quoted" & <b>', 'é\u2028😀', ''),
)

/** A provider as a listing's read gives it. */
export const provider: fc.Arbitrary<ProviderCard> = fc.record({
  id: fc.nat(),
  nameSlug: fc.constant('ann-b'),
  firstName: text,
  lastName: text,
  businessName: fc.option(text),
  photoUrl: fc.option(fc.webUrl()),
  headline: text,
  bio: fc.string({ maxLength: 300 }),
  rating: fc.option(fc.double({ min: 1, max: 5, noNaN: true })),
  reviewCount: fc.nat(500),
  yearsExperience: fc.nat(40),
  rateMin: fc.nat(60),
  rateMax: fc.nat(90),
  payUnit: fc.constantFrom(...PAY_UNITS),
  badges: fc.nat(255),
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
  service: fc.constantFrom('babysitters', 'day-care', 'senior-care'),
  ages: fc.nat(255),
  schedules: fc.nat(255),
  capacity: fc.option(fc.nat(200)),
  openingHours: fc.option(text),
})

const date = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString())

/** A profile's props as its route makes them, from any provider, services and reviews. */
export const profile: fc.Arbitrary<ProfilePageProps> = fc.record({
  head: fc.constant({ title: 't', description: 'd', robots: 'index', jsonLd: [] }),
  crumbs: fc.constant([{ name: 'Ann B.', path: '/p/ann-b-1' }]),
  provider: fc.record({
    id: fc.nat(),
    nameSlug: fc.constant('ann-b'),
    firstName: text,
    lastName: text,
    businessType: fc.constantFrom(...BUSINESS_TYPES),
    businessName: fc.option(text),
    cityId: fc.nat(),
    citySlug: fc.constant('atlanta-ga'),
    cityName: text,
    stateCode: fc.constant('GA'),
    lat: fc.constant(33.7),
    lng: fc.constant(-84.4),
    headline: text,
    bio: text,
    photoUrl: fc.option(fc.webUrl()),
    yearsExperience: fc.nat(40),
    badges: fc.nat(255),
    availability: fc.nat(127),
    traits: fc.nat(255),
    languages: fc.constant(''),
    certifications: fc.constant(''),
    education: fc.option(text),
    rating: fc.option(fc.double({ min: 1, max: 5, noNaN: true })),
    reviewCount: fc.nat(500),
    capacity: fc.option(fc.nat(200)),
    openingHours: fc.option(text),
    address: fc.option(text),
    createdAt: date,
    updatedAt: date,
  }) satisfies fc.Arbitrary<Provider>,
  name: text,
  place: text,
  services: fc.subarray([...SERVICES]).chain((services) =>
    fc.tuple(
      ...services.map((service) =>
        fc.record({
          service: fc.constant(service),
          row: fc.record({
            service: fc.constant(service.slug),
            rateMin: fc.nat(60),
            rateMax: fc.nat(90),
            payUnit: fc.constantFrom(...PAY_UNITS),
            ages: fc.nat(255),
            options: fc.nat(1023),
            schedules: fc.nat(255),
          }),
        }),
      ),
    ),
  ),
  languages: fc.array(text, { maxLength: 3 }),
  credentials: fc.array(text, { maxLength: 3 }),
  ratings: fc.array(
    fc.record({ label: text, average: fc.double({ min: 1, max: 5, noNaN: true }) }),
    {
      maxLength: 3,
    },
  ),
  reviews: fc.array(
    fc.record({
      id: fc.nat(),
      author: text,
      rating: fc.integer({ min: 1, max: 5 }),
      body: text,
      createdAt: date,
    }),
    { maxLength: 4 },
  ),
  similar: fc.constant(Promise.resolve([])),
  ctaSegment: fc.constantFrom('babysitters', 'day-care'),
  messaging: fc.boolean(),
})

/** An open job's page props as its route makes them, from any job. */
export const jobPage: fc.Arbitrary<JobDetailPageProps> = fc
  .record({
    job: fc.record({
      id: fc.nat(),
      titleSlug: fc.constant('a-job'),
      title: text,
      employer: fc.option(text),
      jobType: fc.constantFrom(...JOB_TYPES.map((t) => t.code)),
      payMin: fc.nat(60),
      payMax: fc.nat(90),
      payUnit: fc.constantFrom(...PAY_UNITS),
      schedule: fc.constantFrom(...JOB_SCHEDULES.map((s) => s.code)),
      hoursPerWeek: fc.option(fc.nat(60)),
      startDate: date.map((d) => d.slice(0, 10)),
      postedAt: date,
      cityName: text,
      stateCode: fc.constant('GA'),
      service: fc.constantFrom(...JOB_SERVICES.map((s) => s.slug)),
      description: text,
      children: fc.nat(5),
      ages: fc.nat(255),
      requirements: fc.nat(255),
      validThrough: date,
      cityId: fc.nat(),
      citySlug: fc.constant('atlanta-ga'),
      lat: fc.constant(33.7),
      lng: fc.constant(-84.4),
    }) satisfies fc.Arbitrary<Job>,
    employer: text,
    place: text,
    now: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
  })
  .map(({ job, employer, place, now }) => ({
    head: { title: 't', description: 'd', robots: 'index', jsonLd: [] },
    crumbs: [{ name: 'A job', path: '/job/a-job-1' }],
    job,
    employer,
    place,
    ages: JOB_SERVICES.find((s) => s.slug === job.service)?.service.ages ?? [],
    requirements: JOB_REQUIREMENTS,
    similar: Promise.resolve([]),
    listing: null,
    now,
    expired: false,
  }))
