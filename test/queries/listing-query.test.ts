import { describe, expect, it } from 'vitest'
import type { Service } from '../../src/catalog/services'
import { findService } from '../../src/catalog/services'
import { isFiltered, listingSearch, parseListingQuery } from '../../src/queries/listing-query'

function service(slug: string): Service {
  const s = findService(slug)
  if (!s) throw new Error(slug)
  return s
}

function canonical(search: string, slug = 'babysitters'): string {
  const parsed = parseListingQuery(new URLSearchParams(search), service(slug))
  if (!parsed.ok) throw new Error(parsed.error)
  return listingSearch(parsed.query, service(slug))
}

describe('parseListingQuery', () => {
  it('writes any order, repetition or list form of a query back the same way', () => {
    const forms = [
      'sort=newest&availability=tuesday,monday&distance=5&page=2',
      'page=2&distance=5&availability=monday&availability=tuesday&sort=newest',
      'availability=monday,tuesday&availability=monday&distance=5&distance=5&sort=NEWEST&page=2&utm_source=x',
    ]
    for (const form of forms) {
      expect(canonical(form)).toBe('?availability=monday,tuesday&distance=5&page=2&sort=newest')
    }
  })

  it('leaves defaults and empty form fields out', () => {
    expect(canonical('sort=recommended&page=1&distance=&rate=')).toBe('')
  })

  it('reads the filters a service offers and ignores the others', () => {
    expect(canonical('services=deep-cleaning,laundry&ages=teen', 'housekeeping')).toBe(
      '?services=deep-cleaning,laundry',
    )
    expect(canonical('subjects=math&services=laundry', 'tutors')).toBe('?subjects=math')
    expect(canonical('schedule=full-time&rate=10-15', 'day-care')).toBe('?schedule=full-time')
  })

  it.each([
    ['distance=6', '"6" is not a valid value for "distance"'],
    ['rate=5-15', '"5-15" is not a valid value for "rate"'],
    ['experience=1', '"1" is not a valid value for "experience"'],
    ['page=101', '"101" is not a valid value for "page"'],
    ['sort=newest&sort=recommended', '"sort" takes one value'],
  ])('explains why ?%s is refused', (search, error) => {
    expect(parseListingQuery(new URLSearchParams(search), service('babysitters'))).toEqual({
      ok: false,
      error,
    })
  })

  it('calls a listing filtered when any filter or a non-default sort is set', () => {
    const parse = (s: string) => {
      const r = parseListingQuery(new URLSearchParams(s), service('babysitters'))
      if (!r.ok) throw new Error(r.error)
      return r.query
    }
    expect(isFiltered(parse(''))).toBe(false)
    expect(isFiltered(parse('page=3'))).toBe(false)
    expect(isFiltered(parse('sort=newest'))).toBe(true)
    expect(isFiltered(parse('badges=premium'))).toBe(true)
  })
})
