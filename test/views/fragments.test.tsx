import fc from 'fast-check'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { SERVICES } from '../../src/catalog/services'
import type { FlagName } from '../../src/flags/definitions'
import { CONFIG_DEFAULTS, FLAGS } from '../../src/flags/definitions'
import { Document, frameMarkup } from '../../src/views/document'
import { filterMarkup, Island } from '../../src/views/listing/islands'
import type { CardModel, ListingState } from '../../src/views/listing/listing-state'
import { DEFAULT_SITE, SiteContext } from '../../src/views/site-context'
import { fetchPage } from '../support/fetch-page'
import { profile, provider, text } from '../support/page-props'
import type { ProviderCard } from '../../src/data/provider-listing'
import { providerCard } from '../../src/views/directory/provider-card'
import { Fragments } from '../../src/views/fragments'
import { Card, cardMarkup } from '../../src/views/listing/card'
import { Markup, MARKUP_KEY } from '../../src/views/markup'
import type { ProfilePageProps } from '../../src/views/profile/profile-page'
import { ProfilePage, profileMarkup } from '../../src/views/profile/profile-page'

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
