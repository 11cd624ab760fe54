import { describe, expect, it } from 'vitest'
import { stateSummary } from '../../src/views/directory/state-page'
import type { ListingInput } from '../../src/views/listing/listing-state'
import { listingState } from '../../src/views/listing/listing-state'

const sitters = { noun: 'babysitter', nouns: 'babysitters' }

function stateOf(total: number, filtered: boolean, cards: ListingInput['cards'] = []) {
  const input: ListingInput = {
    head: { title: 'Babysitters in Atlanta, GA', canonical: undefined, robots: 'index,follow' },
    listing: { path: '/babysitters/atlanta-ga', page: 1, filtered },
    heading: 'Babysitters in Atlanta, GA',
    found: { one: 'babysitter', many: 'babysitters', place: 'Atlanta, GA' },
    unfiltered: 'near you',
    notice: null,
    filters: [],
    total,
    sortLabel: 'Sorted by: Recommended',
    cards,
    pageHref: (page) => `/babysitters/atlanta-ga?page=${page}`,
    empty: 'None',
    intent: null,
  }
  return listingState(input)
}

const ledeOf = (total: number, filtered: boolean) => stateOf(total, filtered).lede

describe('ledes', () => {
  it('agree in number with the results', () => {
    expect(ledeOf(1, true)).toBe('1 babysitter matches your filters in Atlanta, GA.')
    expect(ledeOf(12, true)).toBe('12 babysitters match your filters in Atlanta, GA.')
    expect(ledeOf(1, false)).toBe('1 babysitter near you in Atlanta, GA.')
  })

  it('of a state page add up to the cities listed, and say what the rest is', () => {
    const cities = [
      { providers: 200, listed: true },
      { providers: 103, listed: true },
      { providers: 3, listed: false },
    ]
    expect(stateSummary(sitters, 'Georgia', cities)).toBe(
      '303 babysitters in 2 cities across Georgia, and 3 more in 1 place with only a few so far.',
    )
    expect(stateSummary(sitters, 'Georgia', cities.slice(0, 2))).toBe(
      '303 babysitters in 2 cities across Georgia.',
    )
    // More cities than the page reads: the state's totals, and what the listed cities hold.
    expect(stateSummary(sitters, 'Georgia', cities, { providers: 7786, cities: 376 })).toBe(
      '7,786 babysitters in 376 places across Georgia, 303 of them in the 2 cities with the most.',
    )
    expect(
      stateSummary(sitters, 'Georgia', [{ providers: 3, listed: false }], {
        providers: 30,
        cities: 25,
      }),
    ).toBe('30 babysitters in 25 places across Georgia.')
    expect(stateSummary(sitters, 'Wyoming', [{ providers: 2, listed: false }])).toBe(
      '2 babysitters in Wyoming, in 1 place with only a few so far.',
    )
    expect(stateSummary(sitters, 'Wyoming', [])).toBe(
      'No babysitters in Wyoming have profiles yet.',
    )
  })

  it('of the first two cards only, load their photos at once: they may be on the first screen', () => {
    const card = (key: string) => ({
      key,
      anchor: null,
      avatar: {
        photoUrl: 'https://www.care.example/photos/portrait-1.png',
        initials: 'AB',
        tone: 1,
        eager: false,
      },
      title: key,
      href: null,
      lines: [],
    })
    const cards = stateOf(4, false, ['a', 'b', 'c', 'd'].map(card)).results.cards
    expect(cards.map((c) => c.avatar?.eager)).toEqual([true, true, false, false])
  })
})
