import fc from 'fast-check'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { PAY_UNITS } from '../../src/catalog/enums'
import { SERVICES } from '../../src/catalog/services'
import type { FlagName } from '../../src/flags/definitions'
import { FLAGS } from '../../src/flags/definitions'
import type { CostGuidePageProps } from '../../src/views/cost/cost-guide-page'
import { CostGuidePage } from '../../src/views/cost/cost-guide-page'
import { Document } from '../../src/views/document'
import { mainMarkup } from '../../src/views/main-markup'
import { Markup } from '../../src/views/markup'
import { DEFAULT_SITE, SiteContext } from '../../src/views/site-context'

// Text as stored data may hold it: markup, quotes, entities, line separators, emoji.
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('</main><script>alert(1)</script>', '"quoted" & <b>', 'é\u2028😀', ''),
)
const rate = fc.double({ min: 0, max: 500, noNaN: true })
const links = fc.array(fc.record({ href: fc.constantFrom('/a', '/b?x=1&y=2'), text }), {
  maxLength: 4,
})

/** A cost guide's props as its route makes them, from any figures, places and links. */
const guide: fc.Arbitrary<CostGuidePageProps> = fc.record({
  crumbs: fc.constant([{ name: 'Babysitters costs', path: '/cost/babysitters' }]),
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

const head = { title: 't', description: 'd', robots: 'index', jsonLd: [] }

/** The site of a request: any flags on (the call to action's way in reads them) and its path. */
const site = fc
  .record({ on: fc.subarray(Object.keys(FLAGS) as FlagName[]), path: fc.constantFrom('/', '/x') })
  .map(({ on, path }) => ({ ...DEFAULT_SITE, on: (name: FlagName) => on.includes(name), path }))

/** The document with `main` rendered in it, and with it rendered apart and placed. */
function bothWays(s: typeof DEFAULT_SITE, main: ReactElement): [string, string] {
  const inPage = renderToString(
    <SiteContext.Provider value={s}>
      <Document head={head}>{main}</Document>
    </SiteContext.Provider>,
  )
  const placed = renderToString(
    <SiteContext.Provider value={s}>
      <Markup.Provider value={new Map([mainMarkup(s, main)])}>
        <Document head={head} />
      </Markup.Provider>
    </SiteContext.Provider>,
  )
  return [placed, inPage]
}

describe("a page's main rendered apart", () => {
  it('places exactly what rendering the cost guide in the page writes, for any figures and flags', () => {
    fc.assert(
      fc.property(guide, site, (props, s) => {
        const [placed, inPage] = bothWays(s, <CostGuidePage {...props} />)
        expect(placed).toBe(inPage)
      }),
      { numRuns: 300 },
    )
  })
})
