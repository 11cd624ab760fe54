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
})
