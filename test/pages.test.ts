import { describe, expect, it } from 'vitest'
import { pageOf } from '../src/pages'

describe('the page table', () => {
  it.each([
    ['/', 'home'],
    ['/nannies', 'serviceNational'],
    ['/au-pairs', 'serviceNational'],
    ['/errands/ga', 'serviceState'],
    ['/au-pairs/atlanta-ga', 'directory'],
    ['/errands/atlanta-ga', 'directory'],
    ['/nannies/ga', 'serviceState'],
    ['/nannies/atlanta-ga', 'directory'],
    ['/_data/nannies/atlanta-ga', 'directory'],
    ['/babysitting-jobs/atlanta-ga', 'jobListing'],
    ['/local/atlanta-ga', 'cityHub'],
    ['/p/maria-g-12', 'profile'],
    ['/job/weekend-sitter-9', 'job'],
    ['/cost/babysitters', 'costNational'],
    ['/cost/babysitters/atlanta-ga', 'costCity'],
    ['/explore/d/stem', 'activities'],
    ['/adult-care', 'segment'],
    ['/us-subscription/segment/nonmember/babysitters', 'flow'],
    ['/sitemap.xml', 'sitemap'],
    ['/sitemaps/providers-1.xml', 'sitemap'],
    ['/robots.txt', 'sitemap'],
    ['/no/such/page', 'other'],
  ])('%s is a %s page', (path, surface) => {
    expect(pageOf('GET', path).surface).toBe(surface)
  })

  it.each([
    [
      '/babysitters/atlanta-ga',
      {
        pageType: 'seoSearchListing',
        service: 'babysitters',
        vertical: 'CHILDCARE',
        city: 'atlanta-ga',
        state: 'GA',
      },
    ],
    [
      '/senior-care/ga',
      { pageType: 'seoSearchListing', service: 'senior-care', vertical: 'SENIRCARE', state: 'GA' },
    ],
    [
      '/nanny-jobs/seattle-wa',
      {
        pageType: 'seoSearchListing',
        service: 'nannies',
        vertical: 'CHILDCARE',
        city: 'seattle-wa',
        state: 'WA',
      },
    ],
    ['/local/austin-tx', { pageType: 'seoSearchListing', city: 'austin-tx', state: 'TX' }],
    [
      '/cost/tutors/boston-ma',
      {
        pageType: 'costGuide',
        service: 'tutors',
        vertical: 'TUTORINGX',
        city: 'boston-ma',
        state: 'MA',
      },
    ],
    ['/p/maria-g-12', { pageType: 'seoProviderProfile' }],
    ['/job/nanny-needed-9', { pageType: 'seoJobDetail' }],
    ['/explore/d/robotics', { pageType: 'campsAndActivities' }],
    [
      '/au-pairs/atlanta-ga',
      {
        pageType: 'seoSearchListing',
        service: 'au-pairs',
        vertical: 'AU_PAIR',
        city: 'atlanta-ga',
        state: 'GA',
      },
    ],
    ['/errands', { pageType: 'seoSearchListing', service: 'errands', vertical: 'ERRANDS' }],
    ['/', {}],
    ['/adult-care', {}],
    ['/nowhere', {}],
  ])('targets flags on %s by what its route names', (path, target) => {
    expect(pageOf('GET', path).target).toEqual(target)
  })
})
