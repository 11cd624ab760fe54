import { describe, expect, it } from 'vitest'
import { pageKey } from '../../src/cache/cache-key'
import { PAGES, routedPage } from '../../src/pages'
import { BUILD } from '../../src/views/assets'

const ORIGIN = 'https://www.care.example'
const everything = () => true
/** The key of a URL, as the edge cache computes it for the page row the URL routes to. */
const keyOf = (url: string, variant = 'v1') => {
  const { pathname, searchParams } = new URL(ORIGIN + url)
  const routed = routedPage(pathname)
  if (!routed) throw new Error(`no page row routes ${pathname}`)
  return pageKey(routed, ORIGIN, pathname, searchParams, everything, variant)
}

describe('cacheKey', () => {
  it('is the same for any order, repetition, list form or default of the parameters that matter', () => {
    const keys = [
      '/babysitters/atlanta-ga?distance=5&availability=monday,tuesday',
      '/babysitters/atlanta-ga?availability=tuesday&availability=monday&distance=5&distance=5',
      '/babysitters/atlanta-ga?utm_source=x&gclid=y&fbclid=z&distance=5&availability=MONDAY,tuesday&page=1&sort=recommended',
      '/babysitters/atlanta-ga?distance=5&availability=monday,tuesday&colour=red',
    ].map((path) => keyOf(path))
    expect(new Set(keys).size).toBe(1)
    expect(keys[0]).toBe(
      `${ORIGIN}/babysitters/atlanta-ga?availability=monday,tuesday&distance=5&__variant=v1&__build=${BUILD}`,
    )
  })

  it('leaves out a parameter the page does not read for its service, whatever its value', () => {
    // Tutors offer subjects, not services; housekeeping offers services.
    const plain = keyOf('/tutors/atlanta-ga')
    for (const value of ['a1', 'a2', crypto.randomUUID(), 'deep-cleaning'])
      expect(keyOf(`/tutors/atlanta-ga?services=${value}`)).toBe(plain)
    expect(keyOf('/housekeeping/atlanta-ga?services=deep-cleaning')).not.toBe(
      keyOf('/housekeeping/atlanta-ga'),
    )
    // Job listings of a service without age groups ignore ages; camps only while offered.
    const jobs = '/housekeeping-jobs/atlanta-ga'
    expect(keyOf(`${jobs}?ages=${crypto.randomUUID()}`)).toBe(keyOf(jobs))
    const { searchParams } = new URL(`${ORIGIN}/explore/d/stem?onlyCampActivities=x1`)
    const noCamps = PAGES.activities.query({ keyword: 'stem' }, searchParams, () => false)
    expect(noCamps).toBe('')
    // Pages that read no query key on none of it.
    expect(keyOf('/p/maria-g-12?anything=1')).toBe(keyOf('/p/maria-g-12'))
  })

  it('gives a query the page refuses no key: it is neither looked up nor stored', () => {
    expect(keyOf('/tutors/atlanta-ga?distance=7')).toBeNull()
    expect(keyOf('/tutors/atlanta-ga?page=0')).toBeNull()
    expect(keyOf('/tutors/atlanta-ga')).not.toBeNull()
  })

  it('differs by the filters, the page and the variant', () => {
    expect(keyOf('/babysitters/atlanta-ga?distance=5')).not.toBe(
      keyOf('/babysitters/atlanta-ga?distance=10'),
    )
    expect(keyOf('/babysitters/atlanta-ga?page=2')).not.toBe(keyOf('/babysitters/atlanta-ga'))
    expect(keyOf('/nannies', 'a')).not.toBe(keyOf('/nannies', 'b'))
  })

  it('names the build, so a deploy never serves a page linking assets it no longer has', () => {
    expect(BUILD).toMatch(/^[0-9a-f]{30}$/)
  })
})
