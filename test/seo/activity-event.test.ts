import { describe, expect, it } from 'vitest'
import { activityEvent } from '../../src/seo/entity-json-ld'

const activity = {
  url: 'https://www.care.example/explore/d/art#activity-1',
  name: 'Art Camp',
  description: 'Paint.',
  startDate: '2026-12-01',
  endDate: '2026-12-05',
  online: false,
  venue: 'Studio',
  place: { locality: 'Atlanta', region: 'GA', street: '1 Main St' },
  organizer: 'Art School',
  price: 130,
}

describe('activityEvent', () => {
  it('states a one-off price as the offer’s price', () => {
    expect(activityEvent({ ...activity, priceUnit: null })).toMatchObject({
      offers: { '@type': 'Offer', price: '130', priceCurrency: 'USD' },
    })
  })

  it('states a price per month with its unit, and no ticket price', () => {
    const event = activityEvent({ ...activity, priceUnit: 'month' }) as { offers: object }
    expect(event.offers).toEqual({
      '@type': 'Offer',
      priceCurrency: 'USD',
      url: activity.url,
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: '130',
        priceCurrency: 'USD',
        unitText: 'month',
      },
    })
  })
})
