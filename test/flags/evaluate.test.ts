import { describe, expect, it } from 'vitest'
import { CONFIG_DEFAULTS, FLAGS } from '../../src/flags/definitions'
import type { Visitor } from '../../src/flags/evaluate'
import { bucket, evaluateAll, evaluateFlag, fingerprint } from '../../src/flags/evaluate'

const person = (deviceId = '6f1c1a5e-52a4-4a59-8d0b-2b4c7f3d9e10'): Visitor => ({
  deviceId,
  bot: false,
})
const crawler: Visitor = { deviceId: '6f1c1a5e-52a4-4a59-8d0b-2b4c7f3d9e10', bot: true }
const ids = Array.from(
  { length: 10_000 },
  (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
)

describe('evaluateFlag', () => {
  it('gives the documented default, OFF, without a document or when DISABLED', () => {
    expect(evaluateFlag('providerSignUpBanner', undefined, person(), {})).toEqual({
      value: false,
      outcome: 'OFF',
    })
    expect(evaluateFlag('pillarPageRouting', undefined, person(), {})).toEqual({
      value: true,
      outcome: 'OFF',
    })
    expect(evaluateFlag('pillarPageRouting', { state: 'DISABLED' }, person(), {})).toEqual({
      value: FLAGS.pillarPageRouting.default,
      outcome: 'OFF',
    })
    expect(
      evaluateFlag('pillarPageRouting', { state: 'DISABLED', default: false }, person(), {}),
    ).toEqual({
      value: false,
      outcome: 'OFF',
    })
  })

  it('is on for everyone when ENABLED without rules (RULE_MATCH)', () => {
    expect(evaluateFlag('providerSignUpBanner', { state: 'ENABLED' }, person(), {})).toEqual({
      value: true,
      outcome: 'RULE_MATCH',
    })
  })

  it('follows a device override before any rule (OVERRIDE), but not for crawlers', () => {
    const doc = {
      state: 'ENABLED' as const,
      rules: [{ value: false }],
      overrides: { [person().deviceId]: true },
    }
    expect(evaluateFlag('robustDaycareCards', doc, person(), {})).toEqual({
      value: true,
      outcome: 'OVERRIDE',
    })
    expect(evaluateFlag('robustDaycareCards', doc, crawler, {})).toEqual({
      value: false,
      outcome: 'RULE_MATCH',
    })
  })

  it('targets page type, service, vertical, city and state; the first matching rule wins', () => {
    const doc = {
      state: 'ENABLED' as const,
      default: false,
      rules: [
        { pageTypes: ['costGuide' as const], value: false },
        {
          services: ['babysitters'],
          cities: ['atlanta-ga'],
          states: ['GA'],
          verticals: ['CHILDCARE' as const],
        },
      ],
    }
    const atlanta = {
      pageType: 'seoSearchListing' as const,
      service: 'babysitters',
      vertical: 'CHILDCARE' as const,
      city: 'atlanta-ga',
      state: 'GA',
    }
    expect(evaluateFlag('embeddedGuestMessaging', doc, person(), atlanta).outcome).toBe(
      'RULE_MATCH',
    )
    expect(
      evaluateFlag('embeddedGuestMessaging', doc, person(), {
        ...atlanta,
        city: 'austin-tx',
        state: 'TX',
      }),
    ).toEqual({
      value: false,
      outcome: 'OFF',
    })
    expect(
      evaluateFlag('embeddedGuestMessaging', doc, person(), { ...atlanta, pageType: 'costGuide' }),
    ).toEqual({
      value: false,
      outcome: 'RULE_MATCH',
    })
  })

  it('rolls out to the set share of 10,000 devices, stably, independently across flags', () => {
    const doc = { state: 'ENABLED' as const, default: false, rules: [{ percentage: 30 }] }
    const on = ids.filter((id) => evaluateFlag('robustDaycareCards', doc, person(id), {}).value)
    expect(on.length / ids.length).toBeGreaterThan(0.28)
    expect(on.length / ids.length).toBeLessThan(0.32)
    expect(
      ids.filter((id) => evaluateFlag('robustDaycareCards', doc, person(id), {}).value),
    ).toEqual(on)
    const both = on.filter((id) => evaluateFlag('providerSignUpBanner', doc, person(id), {}).value)
    expect(both.length / ids.length).toBeGreaterThan(0.07)
    expect(both.length / ids.length).toBeLessThan(0.11)
    for (const id of ids.slice(0, 100)) expect(bucket('x', id)).toBeGreaterThanOrEqual(0)
  })

  it('keeps crawlers out of partial rollouts, so a URL shows them one variant', () => {
    const doc = { state: 'ENABLED' as const, default: false, rules: [{ percentage: 99.99 }] }
    expect(evaluateFlag('robustDaycareCards', doc, crawler, {})).toEqual({
      value: false,
      outcome: 'OFF',
    })
    expect(evaluateFlag('robustDaycareCards', { state: 'ENABLED' }, crawler, {}).value).toBe(true)
  })
})

describe('fingerprint', () => {
  it('changes exactly when a flag value or the configuration does', () => {
    const a = evaluateAll({}, person(), {})
    const b = evaluateAll({ robustDaycareCards: { state: 'ENABLED' } }, person(), {})
    expect(fingerprint(a, CONFIG_DEFAULTS)).toBe(
      fingerprint(evaluateAll({}, person('other'), {}), CONFIG_DEFAULTS),
    )
    expect(fingerprint(a, CONFIG_DEFAULTS)).not.toBe(fingerprint(b, CONFIG_DEFAULTS))
    expect(fingerprint(a, CONFIG_DEFAULTS)).not.toBe(
      fingerprint(a, { ...CONFIG_DEFAULTS, greaterCareReskin: true }),
    )
  })
})
