import { describe, expect, it } from 'vitest'
import { bucket, evaluateFlag } from '../../src/flags/evaluate'
import { flagForVisitor } from '../../src/flags/explain-flag'
import type { FlagStore } from '../../src/flags/flag-commands'
import type { FlagDocument } from '../../src/flags/schema'

// The value a chosen visitor gets of a flag: what the console's flags page and
// `npm run flags -- get NAME --url` show, decided by the worker's own evaluateFlag.

const listing = {
  pageType: 'seoSearchListing',
  service: 'babysitters',
  city: 'atlanta-ga',
} as const
const profile = { pageType: 'seoProviderProfile' } as const
const ids = Array.from(
  { length: 2_000 },
  (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
)

const storeOf = (doc: FlagDocument): FlagStore => ({
  flags: { providerSignUpBanner: doc },
  config: {},
})
const doc: FlagDocument = {
  state: 'ENABLED',
  rules: [{ pageTypes: ['seoSearchListing'], percentage: 20 }],
  overrides: { 'ffffffff-0000-4000-8000-000000000000': true },
}
const rollout = storeOf(doc)

describe('flagForVisitor', () => {
  it('gives a new visitor the exact share of a partial rollout on a page it targets', () => {
    expect(
      flagForVisitor(rollout, 'providerSignUpBanner', { kind: 'new', bot: false }, listing),
    ).toMatchObject({ value: 'on for 20% of new visitors, off for the rest' })
    // Two rules of 30% and 50% (the first wins where both take a bucket): 50% in all.
    const two = storeOf({ state: 'ENABLED', rules: [{ percentage: 30 }, { percentage: 50 }] })
    expect(
      flagForVisitor(two, 'providerSignUpBanner', { kind: 'new', bot: false }, profile).value,
    ).toBe('on for 50% of new visitors, off for the rest')
  })

  it('says a page no rule targets is the default for every new visitor', () => {
    expect(
      flagForVisitor(rollout, 'providerSignUpBanner', { kind: 'new', bot: false }, profile),
    ).toEqual({ value: 'off', why: 'the same for every new visitor on this page' })
  })

  it('never puts a crawler in a partial rollout', () => {
    const got = flagForVisitor(rollout, 'providerSignUpBanner', { kind: 'new', bot: true }, listing)
    expect(got).toEqual({ value: 'off', why: 'no rule takes a crawler on this page: the default' })
  })

  it('gives a returning visitor what the worker gives their device, with its bucket', () => {
    for (const deviceId of ids.slice(0, 200)) {
      const worker = evaluateFlag('providerSignUpBanner', doc, { deviceId, bot: false }, listing)
      const got = flagForVisitor(
        rollout,
        'providerSignUpBanner',
        { kind: 'returning', deviceId, bot: false },
        listing,
      )
      expect(got.value, deviceId).toBe(worker.value ? 'on' : 'off')
    }
    const inside = ids.find((id) => bucket('providerSignUpBanner', id) < 20) ?? ''
    expect(
      flagForVisitor(
        rollout,
        'providerSignUpBanner',
        { kind: 'returning', deviceId: inside, bot: false },
        listing,
      ).why,
    ).toContain(
      `its bucket of providerSignUpBanner: ${bucket('providerSignUpBanner', inside).toFixed(2)}`,
    )
  })

  it('names a device’s override, and a disabled flag’s default', () => {
    const overridden = {
      kind: 'returning',
      deviceId: 'ffffffff-0000-4000-8000-000000000000',
      bot: false,
    } as const
    expect(flagForVisitor(rollout, 'providerSignUpBanner', overridden, profile)).toEqual({
      value: 'on',
      why: 'this device’s override',
    })
    const off = storeOf({ state: 'DISABLED', default: true })
    expect(flagForVisitor(off, 'providerSignUpBanner', overridden, listing)).toEqual({
      value: 'on',
      why: 'the flag is not enabled: its default',
    })
  })

  it('matches the share of 2,000 sampled devices the worker evaluates', () => {
    const on = ids.filter(
      (deviceId) =>
        evaluateFlag('providerSignUpBanner', doc, { deviceId, bot: false }, listing).value,
    ).length
    expect(Math.abs(on / ids.length - 0.2)).toBeLessThan(0.03)
  })
})
