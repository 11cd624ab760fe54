import { describe, expect, it } from 'vitest'
import { pageTarget } from '../../src/flags/page-target'

describe('pageTarget', () => {
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
    ['/adult-care', {}],
    ['/nowhere', {}],
  ])('reads %s', (path, target) => {
    expect(pageTarget(path)).toEqual(target)
  })
})
