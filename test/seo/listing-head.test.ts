import { describe, expect, it } from 'vitest'
import { lastPage } from '../../src/catalog/filters'
import { directoryTrail } from '../../src/seo/directory-trail'
import { decideIndexing } from '../../src/seo/indexability'
import { listingHead } from '../../src/seo/listing-head'

const ORIGIN = 'https://www.care.example'
const head = (page: number, filtered: boolean) =>
  listingHead(
    ORIGIN,
    { path: '/babysitters/atlanta-ga', page, filtered },
    {
      title: 'Babysitters in Atlanta, GA',
      description: 'Find babysitters.',
      decision: decideIndexing({ inventory: 40, filtered }),
      crumbs: null,
    },
  )

describe('listingHead', () => {
  it('gives the first page of the plain listing the plain canonical and title', () => {
    expect(head(1, false)).toMatchObject({
      title: 'Babysitters in Atlanta, GA | Care Marketplace',
      canonical: `${ORIGIN}/babysitters/atlanta-ga`,
      robots: 'index,follow',
      jsonLd: [],
    })
  })

  it('gives page N its own canonical and a title that says which page it is', () => {
    expect(head(3, false)).toMatchObject({
      title: 'Babysitters in Atlanta, GA – Page 3 | Care Marketplace',
      canonical: `${ORIGIN}/babysitters/atlanta-ga?page=3`,
    })
  })

  it('points a filtered or re-sorted listing at the plain page, noindex', () => {
    expect(head(3, true)).toMatchObject({
      title: 'Babysitters in Atlanta, GA – Page 3 | Care Marketplace',
      canonical: `${ORIGIN}/babysitters/atlanta-ga`,
      robots: 'noindex,follow',
    })
  })
})

describe('lastPage', () => {
  it('counts whole pages of results, and gives an empty listing its first page', () => {
    expect([0, 1, 20, 21, 40, 41].map(lastPage)).toEqual([1, 1, 1, 2, 2, 3])
  })
})

describe('directoryTrail', () => {
  const nannies = { slug: 'nannies', title: 'Nannies' }
  const city = { name: 'Atlanta', path: '/nannies/atlanta-ga' }

  it('passes through the state page when its largest city is worth a link', () => {
    expect(directoryTrail(nannies, { code: 'GA', largestCity: 5 }, [city])).toEqual([
      { name: 'Nannies', path: '/nannies' },
      { name: 'Georgia', path: '/nannies/ga' },
      city,
    ])
  })

  it('leaves out a state page no city makes worth a link', () => {
    expect(directoryTrail(nannies, { code: 'GA', largestCity: 4 }, [city])).toEqual([
      { name: 'Nannies', path: '/nannies' },
      city,
    ])
  })
})
