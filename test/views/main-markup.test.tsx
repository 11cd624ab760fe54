import fc from 'fast-check'
import type { ReactElement, ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { fetchPage, page } from '../support/fetch-page'
import { jobPage, profile, provider } from '../support/page-props'
import { PAY_UNITS } from '../../src/catalog/enums'
import { SEGMENTS } from '../../src/catalog/segments'
import { SERVICES } from '../../src/catalog/services'
import type { FlagName } from '../../src/flags/definitions'
import { FLAGS } from '../../src/flags/definitions'
import { ActivitiesPage } from '../../src/views/activities/activities-page'
import type { CostGuidePageProps } from '../../src/views/cost/cost-guide-page'
import { CostGuidePage } from '../../src/views/cost/cost-guide-page'
import { DirectoryLinks, DirectoryPage } from '../../src/views/directory/directory-page'
import { NationalPage } from '../../src/views/directory/national-page'
import { StatePage } from '../../src/views/directory/state-page'
import { Document } from '../../src/views/document'
import { Fragments } from '../../src/views/fragments'
import { CityHubPage } from '../../src/views/hub/city-hub-page'
import { JobDetailPage, JobSimilar } from '../../src/views/jobs/job-detail-page'
import { JobListingPage } from '../../src/views/jobs/job-listing-page'
import { cardMarkup } from '../../src/views/listing/card'
import { filterMarkup } from '../../src/views/listing/islands'
import { ListingDocument } from '../../src/views/listing/listing-layout'
import type { ListingState } from '../../src/views/listing/listing-state'
import { mainMarkup } from '../../src/views/main-markup'
import { Markup, Placement } from '../../src/views/markup'
import { renderHtml } from '../../src/views/render-html'
import { ProfilePage, ProfileSimilar, profileMarkup } from '../../src/views/profile/profile-page'
import { SegmentPage } from '../../src/views/segment/segment-page'
import type { Site } from '../../src/views/site-context'
import { DEFAULT_SITE, SiteContext } from '../../src/views/site-context'

/** The state a listing page shows, as its `/_data` JSON gives it. */
async function listingStateOf(path: string): Promise<ListingState> {
  const res = await fetchPage(`/_data${path}`, { headers: { 'x-data-request': '1' } })
  expect(res.status).toBe(200)
  return res.json<ListingState>()
}

// Text as stored data may hold it: markup, quotes, entities, line separators, emoji.
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('</main><script>alert(1)</script>', '"quoted" & <b>', 'é\u2028😀', ''),
)
const rate = fc.double({ min: 0, max: 500, noNaN: true })
const links = fc.array(
  fc.record(
    { href: fc.constantFrom('/a', '/b?x=1&y=2'), text, count: text },
    { requiredKeys: ['href', 'text'] },
  ),
  { maxLength: 4 },
)
const crumbs = fc.constant([{ name: 'Here', path: '/here' }])

/** A cost guide's props as its route makes them, from any figures, places and links. */
const guide: fc.Arbitrary<CostGuidePageProps> = fc.record({
  crumbs,
  service: fc.constantFrom(...SERVICES.filter((s) => s.costGuide)),
  place: fc.option(text),
  figures: fc.record({
    average: rate,
    min: fc.nat(100),
    max: fc.nat(200),
    payUnit: fc.constantFrom(...PAY_UNITS),
    sample: fc.nat(5000),
    updatedAt: fc.constantFrom('2026-11-01T00:00:00Z', '2025-01-31T12:00:00Z'),
    national: fc.option(rate),
    direction: fc.constantFrom('HIGHER' as const, 'LOWER' as const, null),
    percent: fc.nat(100),
  }),
  comparison: fc.uniqueArray(
    fc.record({ label: text, value: rate, highlight: fc.boolean(), reference: fc.boolean() }),
    { maxLength: 12, selector: (b) => b.label },
  ),
  comparedWith: text,
  experience: fc.array(
    fc.record({ label: text, local: fc.option(rate), national: fc.option(rate) }),
    { maxLength: 4 },
  ),
  thin: fc.boolean(),
  directory: fc.option(fc.record({ href: fc.constant('/babysitters/atlanta-ga'), text })),
  cities: links,
  others: links,
  answers: fc.uniqueArray(fc.record({ question: text, answer: text }), {
    maxLength: 3,
    selector: (a) => a.question,
  }),
})

const hub = fc.record({
  crumbs,
  place: text,
  providers: fc.nat(5000),
  jobs: fc.nat(500),
  services: links,
  jobLinks: links,
  camps: links,
  nearby: links,
})

const segment = fc.record({
  crumbs,
  slug: fc.constantFrom(...SEGMENTS.map((s) => s.slug)),
  title: text,
  intro: text,
  services: links,
  cities: links,
})

const national = fc.record({
  crumbs,
  service: fc.constantFrom(...SERVICES),
  national: fc.option(
    fc.record({
      providers: fc.nat(50_000),
      rateAvg: rate,
      rateMin: fc.nat(100),
      rateMax: fc.nat(200),
      payUnit: fc.constantFrom(...PAY_UNITS),
      updatedAt: fc.constant('2026-11-01T00:00:00Z'),
      checked: fc.nat(50_000),
      reviewed: fc.nat(50_000),
      reviews: fc.nat(100_000),
      ratingAvg: fc.option(fc.double({ min: 1, max: 5, noNaN: true })),
      cities: fc.nat(500),
    }),
  ),
  topCities: links,
  states: links,
  related: links,
  pillar: fc.boolean(),
  guide: fc.option(fc.record({ href: fc.constant('/cost/babysitters'), text })),
})

const state = fc.record({
  crumbs,
  service: fc.constantFrom(...SERVICES),
  stateName: text,
  summary: text,
  cities: links,
  top: fc.array(provider, { maxLength: 5 }),
  others: links,
  answers: fc.uniqueArray(fc.record({ question: text, answer: text }), {
    maxLength: 3,
    selector: (a) => a.question,
  }),
})

const head = { title: 't', description: 'd', robots: 'index', jsonLd: [] }

/** The site of a request: any flags on (the call to action's way in reads them) and its path. */
const site = fc
  .record({ on: fc.subarray(Object.keys(FLAGS) as FlagName[]), path: fc.constantFrom('/', '/x') })
  .map(({ on, path }) => ({ ...DEFAULT_SITE, on: (name: FlagName) => on.includes(name), path }))

/** Each property renders hundreds of documents through React's streaming renderer. */
const PROPERTY_TIMEOUT = 60_000

const decoder = new TextDecoder()

/** A page's document as its render streams it, every section in place, its fragments spliced. */
async function streamedPage(s: Site, page: ReactElement, placement: Placement): Promise<string> {
  const node = (
    <SiteContext.Provider value={s}>
      <Markup.Provider value={placement.markup}>{page}</Markup.Provider>
    </SiteContext.Provider>
  )
  const { response: res } = await renderHtml(node, {
    status: 200,
    headers: {},
    waitForAll: true,
    onStreamError: (error) => {
      throw error
    },
    splices: placement.splices,
  })
  return decoder.decode(await res.arrayBuffer())
}

/**
 * The document of `main` and `markup` (the page's own fragments) rendered in the page before
 * what it streams, and with them rendered apart and placed as `renderDocument` places them.
 * `document` makes the document around its children (what it streams, and the main in the page).
 */
async function bothWays(
  s: Site,
  main: ReactElement,
  {
    document = (children) => <Document head={head}>{children}</Document>,
    streamed = null,
    markup = [],
  }: {
    document?: (children: ReactNode) => ReactElement
    /** What the page streams after its main: made for each render, as a route makes it. */
    streamed?: (() => ReactNode) | null
    markup?: [unknown, string][]
  } = {},
): Promise<[string, string]> {
  const inPage = new Placement()
  inPage.add(markup)
  const apart = new Placement()
  apart.add([mainMarkup(s, main, new Map(markup))])
  return [
    await streamedPage(s, document(streamed?.()), apart),
    await streamedPage(
      s,
      document(
        <>
          {main}
          {streamed?.()}
        </>,
      ),
      inPage,
    ),
  ]
}

/**
 * The search form's ids come from `useId`, named after the form's place in the tree React
 * renders: apart, that tree is the main's own. The ids differ, their pairs do not.
 */
function withoutIds(html: string): string {
  return html.replace(/_R_[0-9a-z]*_/g, '_R_')
}

describe("a page's main rendered apart", () => {
  it(
    'places exactly what rendering the cost guide in the page writes, for any figures and flags',
    async () => {
      await fc.assert(
        fc.asyncProperty(guide, site, async (props, s) => {
          const [placed, inPage] = await bothWays(s, <CostGuidePage {...props} />)
          expect(placed).toBe(inPage)
        }),
        { numRuns: 300 },
      )
    },
    PROPERTY_TIMEOUT,
  )

  it(
    'places what rendering a city hub, a segment, a national or a state page in the page writes',
    async () => {
      await fc.assert(
        fc.asyncProperty(hub, segment, national, state, site, async (h, g, n, t, s) => {
          for (const main of [
            <CityHubPage {...h} />,
            <SegmentPage {...g} />,
            <NationalPage {...n} />,
            <StatePage {...t} />,
          ]) {
            const [placed, inPage] = await bothWays(s, main)
            expect(withoutIds(placed)).toBe(withoutIds(inPage))
          }
        }),
        { numRuns: 200 },
      )
    },
    PROPERTY_TIMEOUT,
  )

  it(
    "places what rendering a listing's main in the page writes: its cards, filters and modules, its link modules streamed after",
    async () => {
      const states = await Promise.all(
        [
          '/babysitters/atlanta-ga',
          '/day-care/atlanta-ga?schedule=full-time',
          '/nannies/atlanta-ga?page=2',
          '/babysitting-jobs/atlanta-ga?schedule=part-time',
          '/explore/d/robotics',
        ].map(listingStateOf),
      )
      const stats = fc.record({
        providers: fc.nat(5000),
        rateAvg: rate,
        rateMin: fc.nat(100),
        rateMax: fc.nat(200),
        payUnit: fc.constantFrom(...PAY_UNITS),
        updatedAt: fc.constant('2026-11-01T00:00:00Z'),
        checked: fc.nat(5000),
        reviewed: fc.nat(5000),
        reviews: fc.nat(50_000),
        ratingAvg: fc.option(fc.double({ min: 1, max: 5, noNaN: true })),
      })
      const directory = fc.record({
        service: fc.constantFrom(...SERVICES),
        place: text,
        local: fc.option(stats),
        national: fc.option(stats),
        guide: fc.option(fc.constant('/cost/babysitters/atlanta-ga')),
      })
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...states),
          directory,
          fc.tuple(links, links, links),
          fc.boolean(),
          site,
          async (state, d, [nearby, related, resources], banner, s) => {
            const fragments = new Fragments()
            const markup = [
              ...cardMarkup(fragments, state.results.cards),
              filterMarkup(fragments, state),
            ]
            const document = (children: ReactNode) => (
              <ListingDocument head={head} state={state}>
                {children}
              </ListingDocument>
            )
            const crumbs = [{ name: 'Here', path: state.path }]
            const pages: [ReactElement, (() => ReactNode) | null][] = [
              [
                <DirectoryPage crumbs={crumbs} state={state} {...d} />,
                () => (
                  <DirectoryLinks
                    service={d.service}
                    place={d.place}
                    nearby={Promise.resolve(nearby)}
                    related={Promise.resolve(related)}
                    resources={Promise.resolve(resources)}
                  />
                ),
              ],
              [
                <JobListingPage
                  crumbs={crumbs}
                  state={state}
                  title="babysitting jobs"
                  work="babysitting-jobs"
                  place={d.place}
                  related={related}
                />,
                null,
              ],
              [
                <ActivitiesPage
                  crumbs={crumbs}
                  state={state}
                  related={related}
                  categories={resources}
                  signUpBanner={banner}
                />,
                null,
              ],
            ]
            for (const [main, streamed] of pages) {
              const [placed, inPage] = await bothWays(s, main, { document, streamed, markup })
              expect(withoutIds(placed)).toBe(withoutIds(inPage))
            }
          },
        ),
        { numRuns: 40 },
      )
    },
    PROPERTY_TIMEOUT,
  )

  it(
    "places what rendering a profile's or an open job's main in the page writes, its sections new or kept, the similar ones streamed after",
    async () => {
      await fc.assert(
        fc.asyncProperty(profile, jobPage, site, async (p, j, s) => {
          const fragments = new Fragments()
          const detail = (children: ReactNode) => (
            <Document head={head} layout="detail">
              {children}
            </Document>
          )
          // A profile's first render has its sections in the main, the next ones place them; a
          // job's are always in its main.
          for (let render = 0; render < 2; render++) {
            for (const [main, streamed, markup] of [
              [
                <ProfilePage {...p} />,
                () => <ProfileSimilar {...p} />,
                profileMarkup(fragments, p),
              ],
              [<JobDetailPage {...j} />, () => <JobSimilar {...j} />, [] as [string, string][]],
            ] as const) {
              const [placed, inPage] = await bothWays(s, main, {
                document: detail,
                streamed,
                markup,
              })
              expect(placed).toBe(inPage)
            }
          }
        }),
        { numRuns: 60 },
      )
    },
    PROPERTY_TIMEOUT,
  )

  it("keeps the search form's labels on their fields, each id once in the page", async () => {
    for (const path of ['/local/atlanta-ga', '/babysitters']) {
      const { html } = await page(path)
      const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
      expect(new Set(ids).size).toBe(ids.length)
      const labelled = [...html.matchAll(/<label for="([^"]+)"/g)].map((m) => m[1])
      expect(labelled.length).toBeGreaterThanOrEqual(2)
      for (const id of labelled) expect(ids).toContain(id)
    }
  })
})
