import { describe, expect, it } from 'vitest'
import type { RateStats } from '../../src/data/service-stats'
import type { AnswerFacts } from '../../src/views/parts/answers'
import { answersOf } from '../../src/views/parts/answers'

const stats = (fields: Partial<RateStats>): RateStats => ({
  providers: 120,
  rateAvg: 18.4,
  rateMin: 12,
  rateMax: 30,
  payUnit: 'hr',
  updatedAt: '2026-11-01T00:00:00Z',
  checked: 43,
  reviewed: 85,
  reviews: 412,
  ratingAvg: 4.62,
  ...fields,
})

function answers(fields: Partial<RateStats>, more: Partial<AnswerFacts> = {}): string[] {
  return answersOf({
    service: { noun: 'babysitter', nouns: 'babysitters' },
    place: 'Atlanta, GA',
    stats: stats(fields),
    national: stats({ rateAvg: 17 }),
    cost: true,
    next: { kind: 'directory', filters: ['distance', 'hourly rate', 'badges'] },
    ...more,
  }).map((a) => `${a.question} ${a.answer}`)
}

describe('answers', () => {
  it('say what the figures say, in sentences', () => {
    expect(answers({})).toEqual([
      'How much does a babysitter cost in Atlanta, GA? Babysitters in Atlanta, GA ask $18.40/hr on average, from $12–$30/hr across 120 profiles. That is 8% above the national average of $17.00/hr.',
      'How many babysitters in Atlanta, GA have background checks? Of the 120 babysitters in Atlanta, GA, 43 (36%) have passed a background check; their cards carry the "Background check" badge.',
      'What do families say about babysitters in Atlanta, GA? Of the 120 babysitters in Atlanta, GA, 85 have reviews from families: 412 in all, rated 4.6 out of 5 on average.',
      'How do I find a babysitter near me? Filter the 120 babysitters in Atlanta, GA by distance, hourly rate and badges (each card says how far away they are), or type your city or ZIP code in the search above to reach the nearest city with babysitters.',
    ])
  })

  it('agree in number with one provider, one review, none and all', () => {
    expect(answers({ providers: 1, checked: 0, reviewed: 1, reviews: 1, ratingAvg: 5 })).toEqual([
      'How much does a babysitter cost in Atlanta, GA? The one babysitter with a profile in Atlanta, GA asks $12–$30/hr. That is 8% above the national average of $17.00/hr.',
      'How many babysitters in Atlanta, GA have background checks? The one babysitter in Atlanta, GA has not passed a background check yet.',
      'What do families say about babysitters in Atlanta, GA? The one babysitter in Atlanta, GA has a review from a family, rated 5.0 out of 5.',
      'How do I find a babysitter near me? Filter the 1 babysitter in Atlanta, GA by distance, hourly rate and badges (each card says how far away they are), or type your city or ZIP code in the search above to reach the nearest city with babysitters.',
    ])
    const [, none, unreviewed] = answers({ checked: 0, reviewed: 0, reviews: 0, ratingAvg: null })
    expect(none).toMatch(
      /None of the 120 babysitters in Atlanta, GA has passed a background check yet\.$/,
    )
    expect(unreviewed).toMatch(/None of the 120 babysitters in Atlanta, GA has a review yet\.$/)
    const [, one, all] = answers({ checked: 1, reviewed: 120 })
    expect(one).toMatch(/, one has passed a background check; its card carries/)
    expect(all).toMatch(/All 120 babysitters in Atlanta, GA have reviews from families/)
    expect(answers({ checked: 120 })[1]).toMatch(/All 120 .* every card carries/)
  })

  it('name the article by the noun, and leave the cost to pages that answer it already', () => {
    const aupairs = answersOf({
      service: { noun: 'au pair', nouns: 'au pairs' },
      place: 'Georgia',
      stats: stats({}),
      national: null,
      cost: false,
      next: {
        kind: 'state',
        cities: [
          { name: 'Atlanta', providers: 80 },
          { name: 'Macon', providers: 40 },
        ],
      },
    })
    expect(aupairs.map((a) => a.question)).toEqual([
      'How many au pairs in Georgia have background checks?',
      'What do families say about au pairs in Georgia?',
      'How do I find an au pair near me?',
    ])
    expect(aupairs[2]?.answer).toMatch(
      /^Pick one of the 2 cities below, the most are in Atlanta \(80\) and Macon \(40\), or type/,
    )
  })

  it('say nothing of a place without providers', () => {
    expect(answers({ providers: 0 })).toEqual([])
  })
})
