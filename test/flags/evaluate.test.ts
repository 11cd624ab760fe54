import { describe, expect, it } from 'vitest'
import { CONFIG_DEFAULTS, FLAGS } from '../../src/flags/definitions'
import type { Visitor } from '../../src/flags/evaluate'
import {
  bucket,
  evaluateAll,
  evaluateFlag,
  fingerprint,
  strayReads,
} from '../../src/flags/evaluate'
import { PAGES } from '../../src/pages'

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
  const on = (flags: Parameters<typeof evaluateAll>[0], visitor = person()) =>
    evaluateAll(flags, visitor, {})

  it('changes exactly when a flag or configuration value that shapes the page does', () => {
    const a = on({})
    const b = on({ robustDaycareCards: { state: 'ENABLED' } })
    expect(fingerprint(a, CONFIG_DEFAULTS, PAGES.directory.flags)).toBe(
      fingerprint(on({}, person('other')), CONFIG_DEFAULTS, PAGES.directory.flags),
    )
    expect(fingerprint(a, CONFIG_DEFAULTS, PAGES.directory.flags)).not.toBe(
      fingerprint(b, CONFIG_DEFAULTS, PAGES.directory.flags),
    )
    expect(fingerprint(a, CONFIG_DEFAULTS, PAGES.directory.flags)).not.toBe(
      fingerprint(a, { ...CONFIG_DEFAULTS, greaterCareReskin: true }, PAGES.directory.flags),
    )
  })

  it('ignores flags of other pages: a profile rollout splits no directory', () => {
    const messaging = on({ embeddedGuestMessaging: { state: 'ENABLED' } })
    expect(fingerprint(messaging, CONFIG_DEFAULTS, PAGES.directory.flags)).toBe(
      fingerprint(on({}), CONFIG_DEFAULTS, PAGES.directory.flags),
    )
    expect(fingerprint(messaging, CONFIG_DEFAULTS, PAGES.profile.flags)).not.toBe(
      fingerprint(on({}), CONFIG_DEFAULTS, PAGES.profile.flags),
    )
    const sorting = on({ rankedDirectorySorting: { state: 'ENABLED', default: false } })
    expect(fingerprint(sorting, CONFIG_DEFAULTS, PAGES.profile.flags)).toBe(
      fingerprint(on({}), CONFIG_DEFAULTS, PAGES.profile.flags),
    )
  })

  it('keys on what of the configuration reaches the page, never the rest', () => {
    const plain = fingerprint(on({}), CONFIG_DEFAULTS, PAGES.directory.flags)
    const server = { ...CONFIG_DEFAULTS, traceSampleRates: { server: 0.9, client: 0.05 } }
    expect(fingerprint(on({}), server, PAGES.directory.flags)).toBe(plain)
    const client = { ...CONFIG_DEFAULTS, traceSampleRates: { server: 0.1, client: 0.5 } }
    expect(fingerprint(on({}), client, PAGES.directory.flags)).not.toBe(plain)
    // The tag manager id is in the page only while the tag manager is on.
    expect(
      fingerprint(
        on({}),
        { ...CONFIG_DEFAULTS, tagManagerId: 'GTM-OTHER1' },
        PAGES.directory.flags,
      ),
    ).toBe(plain)
    const tags = { ...CONFIG_DEFAULTS, tagManagerEnabled: true }
    expect(
      fingerprint(on({}), { ...tags, tagManagerId: 'GTM-OTHER1' }, PAGES.directory.flags),
    ).not.toBe(fingerprint(on({}), tags, PAGES.directory.flags))
    // Sitemaps are not HTML: a reskin keeps them; local cost guides change them.
    const sitemap = fingerprint(on({}), CONFIG_DEFAULTS, PAGES.sitemapIndex.flags)
    expect(
      fingerprint(
        on({}),
        { ...CONFIG_DEFAULTS, greaterCareReskin: true },
        PAGES.sitemapIndex.flags,
      ),
    ).toBe(sitemap)
    expect(
      fingerprint(
        on({}),
        { ...CONFIG_DEFAULTS, costGuideLocalPage: false },
        PAGES.sitemapIndex.flags,
      ),
    ).not.toBe(sitemap)
  })

  it('names what a page read that its variant does not key on', () => {
    expect(
      strayReads(['daycareDirectoryFlow', 'greaterCareReskin'], PAGES.directory.flags),
    ).toEqual([])
    expect(
      strayReads(
        ['embeddedGuestMessaging', 'rankedDirectorySorting', 'costGuideLocalPage'],
        PAGES.profile.flags,
      ),
    ).toEqual(['rankedDirectorySorting', 'costGuideLocalPage'])
  })
})
