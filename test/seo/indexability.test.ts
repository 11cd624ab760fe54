import { describe, expect, it } from 'vitest'
import type { PageFacts } from '../../src/seo/indexability'
import { decideIndexing, seoGateHeader } from '../../src/seo/indexability'

describe('decideIndexing', () => {
  it('gives each reason it can state, the strongest first', () => {
    const cases: [PageFacts, string][] = [
      [{}, 'index'],
      [{ inventory: 5 }, 'index'],
      [{ inventory: 4 }, 'noindex; reason=thin'],
      [{ inventory: 40, filtered: true }, 'noindex; reason=filtered'],
      [{ inventory: 0, filtered: true }, 'noindex; reason=filtered'],
      [{ expired: true }, 'noindex; reason=expired'],
      [{ private: true, inventory: 0, filtered: true }, 'noindex; reason=private'],
    ]
    for (const [facts, header] of cases)
      expect({ facts, header: seoGateHeader(decideIndexing(facts)) }).toEqual({ facts, header })
  })

  it('has no reason for a page a flag turns off: such a page is a 404, never a noindex page', () => {
    // @ts-expect-error -- a page the flags turn off never reaches the rule (test/routes/flags.test.ts)
    const facts: PageFacts = { enabled: false }
    expect(decideIndexing(facts)).toEqual({ index: true })
  })
})
