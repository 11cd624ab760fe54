import { describe, expect, it } from 'vitest'
import { experienceTrend } from '../../src/views/cost/experience-trend'

const LABELS = ['Under 3 years', '3–5 years', '6–9 years', '10+ years']
const bands = (...values: (number | null)[]) =>
  values.map((value, i) => ({ label: LABELS[i] ?? '', value }))
const money = (v: number) => `$${v.toFixed(2)}/hr`
const trend = (...values: (number | null)[]) =>
  experienceTrend(bands(...values), 'babysitters', 'Huntsville, AL', money)

describe('experienceTrend', () => {
  it('says more experienced caregivers charge more only when every band charges more than the last', () => {
    expect(trend(15, 16, 18, 20)).toBe(
      'In Huntsville, AL, more experienced babysitters charge more: $15.00/hr with under 3 years of experience, $20.00/hr with 10+ years.',
    )
    expect(trend(15.17, 14.5, null, 17.89)).toBe(
      'In Huntsville, AL, rates do not rise steadily with experience: $15.17/hr with under 3 years, $14.50/hr with 3–5 years, $17.89/hr with 10+ years. No babysitters with 6–9 years of experience list a rate yet.',
    )
  })

  it('compares rates as the page prints them, in whole cents', () => {
    expect(trend(15.001, 15.004, 15.002, 14.999)).toBe(
      'In Huntsville, AL, babysitters charge the same whatever their experience: $15.00/hr.',
    )
    expect(trend(15.001, 15.004, null, null)).not.toContain('charge more')
  })

  it('says when more experience charges less', () => {
    expect(trend(20, 18, 16, 15)).toContain('more experienced babysitters charge less')
  })

  it('says honestly when bands are missing or there is nothing to compare', () => {
    expect(trend(null, 16, null, 20)).toBe(
      'In Huntsville, AL, more experienced babysitters charge more: $16.00/hr with 3–5 years of experience, $20.00/hr with 10+ years. No babysitters with under 3 years or 6–9 years of experience list a rate yet.',
    )
    expect(trend(13, null, null, null)).toBe(
      'Only babysitters with under 3 years of experience list a rate in Huntsville, AL so far ($13.00/hr), so there is nothing to compare yet. No babysitters with 3–5 years, 6–9 years or 10+ years of experience list a rate yet.',
    )
    expect(trend(null, null, null, null)).toBe(
      'No babysitters in Huntsville, AL list a rate by experience yet.',
    )
  })
})
