import fc from 'fast-check'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { PAY_UNITS } from '../../src/catalog/enums'
import { SERVICES } from '../../src/catalog/services'
import type { FlagName } from '../../src/flags/definitions'
import { CONFIG_DEFAULTS, FLAGS } from '../../src/flags/definitions'
import { Document, frameMarkup } from '../../src/views/document'
import { filterMarkup, Island } from '../../src/views/listing/islands'
import type { CardModel, ListingState } from '../../src/views/listing/listing-state'
import { DEFAULT_SITE, SiteContext } from '../../src/views/site-context'
import { fetchPage } from '../support/fetch-page'
import type { ProviderCard } from '../../src/data/provider-listing'
import { providerCard } from '../../src/views/directory/provider-card'
import { Fragments } from '../../src/views/fragments'
import { Card, cardMarkup } from '../../src/views/listing/card'
import { Markup, MARKUP_KEY } from '../../src/views/markup'
import { BUSINESS_TYPES } from '../../src/catalog/enums'
import type { Provider } from '../../src/data/providers'
import type { ProfilePageProps } from '../../src/views/profile/profile-page'
import { ProfilePage, profileMarkup } from '../../src/views/profile/profile-page'
import type { Job } from '../../src/data/jobs'
import { JOB_REQUIREMENTS, JOB_SCHEDULES, JOB_SERVICES, JOB_TYPES } from '../../src/catalog/jobs'
import type { JobDetailPageProps } from '../../src/views/jobs/job-detail-page'
import { JobDetailPage, jobMarkup } from '../../src/views/jobs/job-detail-page'

// Text as stored data may hold it: markup, quotes, entities, line separators, emoji.
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('</li><script>alert(1)</script>', '"quoted" & <b>', 'é\u2028😀', ''),
)

const card: fc.Arbitrary<CardModel> = fc.record({
  key: fc.string({ minLength: 1, maxLength: 8 }),
  anchor: fc.option(fc.string({ maxLength: 12 })),
  avatar: fc.option(
    fc.record({
      photoUrl: fc.option(fc.webUrl()),
      initials: fc.string({ maxLength: 2 }),
      tone: fc.nat(5),
      eager: fc.boolean(),
    }),
  ),
  title: text,
  href: fc.option(fc.constantFrom('/p/ann-b-1', '/job/a-2', '/explore/d/music?x=1&y=2')),
  lines: fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constant('text' as const),
        className: fc.option(fc.constantFrom('meta', 'rate', 'bio')),
        text,
      }),
      fc.record({ kind: fc.constant('badges' as const), items: fc.uniqueArray(text) }),
    ),
    { maxLength: 6 },
  ),
})

const provider: fc.Arbitrary<ProviderCard> = fc.record({
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

/** A list of cards as the page renders them: from fragments when `markup` is given. */
function list(cards: readonly CardModel[], markup?: [unknown, string][]): string {
  const items = (
    <ul>
      {cards.map((c, i) => (
        <Card key={i} card={c} />
      ))}
    </ul>
  )
  return placed(items, markup)
}

function placed(node: ReactNode, markup?: [unknown, string][]): string {
  return renderToString(
    markup ? <Markup.Provider value={new Map(markup)}>{node}</Markup.Provider> : node,
  )
}

const date = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString())

/** A profile's props as its route makes them, from any provider, services and reviews. */
const profile: fc.Arbitrary<ProfilePageProps> = fc.record({
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
const jobPage: fc.Arbitrary<JobDetailPageProps> = fc
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

describe('fragments rendered once', () => {
  it('place exactly the markup a fresh render of the card writes, the first time and from memory', () => {
    const fragments = new Fragments()
    fc.assert(
      fc.property(fc.array(card, { maxLength: 4 }), (cards) => {
        const fresh = list(cards)
        expect(list(cards, cardMarkup(fragments, cards))).toBe(fresh)
        expect(list(cards, cardMarkup(fragments, cards))).toBe(fresh)
      }),
      { numRuns: 300 },
    )
  })

  it('place what a fresh render writes for any provider, distance and robust-card flag', () => {
    const fragments = new Fragments()
    fc.assert(
      fc.property(
        provider,
        fc.option(fc.double({ min: 0, max: 60, noNaN: true })),
        fc.boolean(),
        (p, distance, robust) => {
          const cards = [providerCard(p, distance, robust)]
          expect(list(cards, cardMarkup(fragments, cards))).toBe(list(cards))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('never serve an old fragment for a changed entity or flag: the model is the key', () => {
    const fragments = new Fragments()
    const p = {
      ...fc.sample(provider, { numRuns: 1, seed: 1 })[0],
      headline: 'Before',
    } as ProviderCard
    const before = cardMarkup(fragments, [providerCard(p, 1, false)])
    const changed = providerCard({ ...p, headline: 'After' }, 1, false)
    const [[, after = ''] = []] = cardMarkup(fragments, [changed])
    expect(before[0]?.[1]).toContain('Before')
    expect(after).toContain('After')
    expect(after).not.toContain('Before')
  })

  it("place what a fresh render writes for the site's header and footer, under any flags", () => {
    const fragments = new Fragments()
    const flagNames = Object.keys(FLAGS) as FlagName[]
    fc.assert(
      fc.property(fc.subarray(flagNames), fc.boolean(), (on, widget) => {
        const site = {
          ...DEFAULT_SITE,
          on: (name: FlagName) => on.includes(name),
          config: { ...CONFIG_DEFAULTS, accessibilityWidgetEnabled: widget },
        }
        const page = (
          <SiteContext.Provider value={site}>
            <Document head={{ title: 't', description: 'd', robots: 'index', jsonLd: [] }}>
              <p>page</p>
            </Document>
          </SiteContext.Provider>
        )
        expect(placed(page, frameMarkup(fragments, site))).toBe(placed(page))
      }),
      { numRuns: 100 },
    )
  })

  it("place what a fresh render writes for a profile's sections, for any provider, from its second render", () => {
    fc.assert(
      fc.property(profile, (props) => {
        const fragments = new Fragments()
        const page = (
          <SiteContext.Provider value={DEFAULT_SITE}>
            <ProfilePage {...props} />
          </SiteContext.Provider>
        )
        // A first render has them in the page; the next ones place them, then from memory.
        expect(profileMarkup(fragments, props)).toEqual([])
        const kept = profileMarkup(fragments, props)
        expect(kept.length).toBeGreaterThanOrEqual(5)
        const fresh = placed(page)
        expect(placed(page, kept)).toBe(fresh)
        expect(placed(page, profileMarkup(fragments, props))).toBe(fresh)
      }),
      { numRuns: 150 },
    )
  })

  it('never serve an old profile section for a changed provider or review: the content is the key', () => {
    const fragments = new Fragments()
    const [props] = fc.sample(profile, { numRuns: 1, seed: 3 })
    if (!props) throw new Error('no profile')
    // Rendered twice, as the second render places them.
    const sections = (p: ProfilePageProps) => {
      profileMarkup(fragments, p)
      return profileMarkup(fragments, p)
        .map(([, html]) => html)
        .join('')
    }
    const before = sections({ ...props, provider: { ...props.provider, bio: 'The bio as it was' } })
    const after = sections({ ...props, provider: { ...props.provider, bio: 'The bio as changed' } })
    expect(before).toContain('The bio as it was')
    expect(after).toContain('The bio as changed')
    expect(after).not.toContain('The bio as it was')
    // Each part of the content in the key: the same provider with a review more.
    const review = { id: 1, author: 'A', rating: 5, body: 'A new review', createdAt: '2026-11-01' }
    expect(sections(props)).not.toContain('A new review')
    expect(sections({ ...props, reviews: [...props.reviews, review] })).toContain('A new review')
    const rating = { label: 'A new rating', average: 4 }
    expect(sections({ ...props, ratings: [...props.ratings, rating] })).toContain('A new rating')
  })

  it("place what a fresh render writes for an open job's sections, and a job's start as of today", () => {
    const render = (props: JobDetailPageProps, markup?: [unknown, string][]) =>
      placed(
        <SiteContext.Provider value={DEFAULT_SITE}>
          <JobDetailPage {...props} />
        </SiteContext.Provider>,
        markup,
      )
    fc.assert(
      fc.property(jobPage, (props) => {
        const fragments = new Fragments()
        // A first render has them in the page; the next ones place them.
        const kept = (p: JobDetailPageProps) => {
          jobMarkup(fragments, p)
          return jobMarkup(fragments, p)
        }
        expect(jobMarkup(fragments, props)).toEqual([])
        expect(render(props, kept(props))).toBe(render(props))
        // The same job once its start date has passed.
        const later = { ...props, now: new Date(Date.parse(props.job.startDate) + 2 * 86_400_000) }
        expect(render(later, kept(later))).toBe(render(later))
      }),
      { numRuns: 150 },
    )
  })

  it("place what a fresh render writes for every service's filter panel, plain and filtered", async () => {
    const fragments = new Fragments()
    let compared = 0
    for (const service of SERVICES)
      for (const query of ['', '?sort=newest&distance=5', '?rate=10-15&page=2']) {
        const res = await fetchPage(`/_data/${service.slug}/atlanta-ga${query}`, {
          headers: { 'x-data-request': '1' },
        })
        if (res.status !== 200) continue
        const state = await res.json<ListingState>()
        const island = <Island name="filters" state={state} />
        expect(placed(island, [filterMarkup(fragments, state)])).toBe(placed(island))
        compared++
      }
    expect(compared).toBeGreaterThanOrEqual(SERVICES.length * 2)
  })

  it("place what a fresh render writes for another listing's filter panel: one panel for every path", async () => {
    const fragments = new Fragments()
    const res = await fetchPage('/_data/babysitters/atlanta-ga?sort=newest&distance=5', {
      headers: { 'x-data-request': '1' },
    })
    const atlanta = await res.json<ListingState>()
    const paths = fc.oneof(
      fc.constantFrom('/babysitters/athens-ga', '/babysitting-jobs/macon-ga'),
      text.map((t) => `/babysitters/${t}`),
    )
    fc.assert(
      fc.property(paths, (path) => {
        const island = <Island name="filters" state={{ ...atlanta, path }} />
        expect(placed(island, [filterMarkup(fragments, { ...atlanta, path })])).toBe(placed(island))
      }),
      { numRuns: 200 },
    )
  })
})

describe('markup rendered before the page', () => {
  it('is found by content: a copy of a card gets its markup, a changed card does not', () => {
    const [model] = fc.sample(card, { numRuns: 1, seed: 2 })
    if (!model) throw new Error('no card')
    const markup: [unknown, string][] = [[MARKUP_KEY.card(JSON.stringify(model)), '<b>kept</b>']]
    expect(list([structuredClone(model)], markup)).toContain('<b>kept</b>')
    expect(list([{ ...model, title: `${model.title}!` }], markup)).not.toContain('<b>kept</b>')
  })
})
