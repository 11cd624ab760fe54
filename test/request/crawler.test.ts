import { describe, expect, it } from 'vitest'
import { isCrawler, MAX_AGENT } from '../../src/request/crawler'
import { GOOGLEBOT, PHONE } from '../support/fetch-page'

describe('isCrawler', () => {
  it('knows crawlers from people by user agent, and keeps its answer', () => {
    for (let i = 0; i < 3; i++) {
      expect(isCrawler(GOOGLEBOT)).toBe(true)
      expect(
        isCrawler('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'),
      ).toBe(true)
      expect(isCrawler(PHONE)).toBe(false)
      expect(isCrawler(undefined)).toBe(false)
    }
  })

  it(`looks at the first ${MAX_AGENT} characters of an agent only, whatever its length`, () => {
    const padded = (agent: string) => `${PHONE} ${'x'.repeat(MAX_AGENT)} ${agent}`
    expect(isCrawler(padded(GOOGLEBOT))).toBe(false)
    expect(isCrawler(GOOGLEBOT + 'x'.repeat(60_000))).toBe(true)
  })

  it('stays right past the number of agents it remembers', () => {
    for (let i = 0; i < 2500; i++) expect(isCrawler(`${PHONE} build/${i}`)).toBe(false)
    expect(isCrawler(GOOGLEBOT)).toBe(true)
  })
})
