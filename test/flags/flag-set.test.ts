import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CONFIG_DEFAULTS, FLAG_NAMES } from '../../src/flags/definitions'
import { evaluateFlag } from '../../src/flags/evaluate'
import type { FlagStore } from '../../src/flags/flag-commands'
import { applyCommand, describeSetting } from '../../src/flags/flag-commands'
import { DEFAULT_FLAG_SET, parseFlagSet } from '../../src/flags/flag-set'
import { FLAGS_DEADLINE_MS, keptFlags, readFlags } from '../../src/flags/read-flags'
import { held, withFaults } from '../support/with-faults'

/** Where a read past its deadline runs on: these tests wait for their reads themselves. */
const inBackground = (promise: Promise<unknown>) => void promise.catch(() => undefined)

describe('parseFlagSet', () => {
  it('gives defaults for an empty store', () => {
    expect(parseFlagSet(null)).toEqual(DEFAULT_FLAG_SET)
  })

  it.each([
    ['a document that is not an object', 'nonsense', 'malformed flag document'],
    ['an unknown top-level field', { flags: {}, extra: true }, 'malformed flag document'],
    [
      'an unknown flag',
      { flags: { shinyNewThing: { state: 'ENABLED' } } },
      'unknown flag shinyNewThing',
    ],
    [
      'an unknown field in a flag',
      { flags: { campsFilter: { state: 'ENABLED', colour: 'red' } } },
      'flag campsFilter',
    ],
    ['a bad state', { flags: { campsFilter: { state: 'ON' } } }, 'flag campsFilter'],
    [
      'state INVALID',
      { flags: { campsFilter: { state: 'INVALID' } } },
      'flag campsFilter is INVALID',
    ],
    [
      'a bad rollout',
      { flags: { campsFilter: { state: 'ENABLED', rules: [{ percentage: 120 }] } } },
      'flag campsFilter',
    ],
    [
      'a bad config value',
      { config: { traceSampleRates: { server: 2, client: 0 } } },
      'config traceSampleRates',
    ],
    ['an unknown config key', { config: { darkMode: true } }, 'config darkMode'],
  ])('falls back to the documented default for %s, and says why', (_, raw, problem) => {
    const set = parseFlagSet(raw)
    expect(set.flags.campsFilter).toBeUndefined()
    expect(set.config).toEqual(CONFIG_DEFAULTS)
    expect(set.problems.join('\n')).toContain(problem)
  })

  it('keeps what is valid when something else is not', () => {
    const set = parseFlagSet({
      flags: { campsFilter: { state: 'DISABLED' }, cookingCategory: { state: 'MAYBE' } },
      config: { greaterCareReskin: true, tagManagerId: 'nope' },
    })
    expect(set.flags.campsFilter).toEqual({ state: 'DISABLED' })
    expect(set.flags.cookingCategory).toBeUndefined()
    expect(set.config.greaterCareReskin).toBe(true)
    expect(set.config.tagManagerId).toBe(CONFIG_DEFAULTS.tagManagerId)
    expect(set.problems).toHaveLength(2)
  })
})

describe('readFlags', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('reads KV once per isolate and reports a malformed document once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await env.FLAGS.put('flags', '{not json')
    const gets = vi.spyOn(env.FLAGS, 'get')
    const kept = keptFlags()
    const sets = await Promise.all([
      readFlags(kept, env.FLAGS, inBackground),
      readFlags(kept, env.FLAGS, inBackground),
      readFlags(kept, env.FLAGS, inBackground),
    ])
    await readFlags(kept, env.FLAGS, inBackground)
    expect(
      sets.every((s) => s.config === CONFIG_DEFAULTS && Object.keys(s.flags).length === 0),
    ).toBe(true)
    expect(gets).toHaveBeenCalledTimes(1)
    expect(errors.mock.calls.filter(([line]) => String(line).includes('flags:'))).toHaveLength(1)
  })

  it('gives the defaults and one report when KV throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const failing = withFaults(env.FLAGS, {
      get: () => Promise.reject(new Error('KV unavailable')),
    })
    const kept = keptFlags()
    expect(await readFlags(kept, failing, inBackground)).toEqual(DEFAULT_FLAG_SET)
    expect(await readFlags(kept, failing, inBackground)).toEqual(DEFAULT_FLAG_SET)
    expect(
      errors.mock.calls.filter(([line]) => String(line).includes('store unreadable')),
    ).toHaveLength(1)
  })
})

describe('readFlags past its deadline', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('serves the defaults to a cold isolate, and keeps the real set once it is read', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await env.FLAGS.put('flags', JSON.stringify({ config: { greaterCareReskin: true } }))
    const slow = held(8_000)
    const background: Promise<unknown>[] = []
    const flags = withFaults(env.FLAGS, {
      get: async (get, ...args) => {
        await slow.wait()
        return get(...args)
      },
    })
    const kept = keptFlags()
    const started = Date.now()
    const first = await readFlags(kept, flags, (p) => background.push(p))
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(first).toEqual(DEFAULT_FLAG_SET)
    // A request arriving while the slow read runs does not wait for it again.
    const again = Date.now()
    expect(await readFlags(kept, flags, (p) => background.push(p))).toEqual(DEFAULT_FLAG_SET)
    expect(Date.now() - again).toBeLessThan(FLAGS_DEADLINE_MS)
    slow.release()
    await Promise.all(background)
    expect(kept.value?.config.greaterCareReskin).toBe(true)
    expect((await readFlags(kept, flags, inBackground)).config.greaterCareReskin).toBe(true)
    await env.FLAGS.delete('flags')
  })
})

const EMPTY: FlagStore = { flags: {}, config: {} }
const PERSON = { deviceId: '6f1c1a5e-52a4-4a59-8d0b-2b4c7f3d9e10', bot: false }
const CRAWLER = { ...PERSON, bot: true }

/** The value every visitor and crawler gets for `name` from a written store. */
function valuesAfter(store: FlagStore, name: (typeof FLAG_NAMES)[number]): boolean[] {
  const doc = parseFlagSet(store).flags[name]
  return [PERSON, CRAWLER].map((visitor) => evaluateFlag(name, doc, visitor, {}).value)
}

function written(result: ReturnType<typeof applyCommand>): FlagStore {
  if ('error' in result) throw new Error(result.error)
  return result.store
}

describe('npm run flags', () => {
  it.each(FLAG_NAMES)('disable turns %s off for everyone, whatever its default', (name) => {
    const store = written(applyCommand(EMPTY, 'disable', name))
    expect(store.flags[name]).toEqual({ state: 'DISABLED', default: false })
    expect(valuesAfter(store, name)).toEqual([false, false])
  })

  it.each(FLAG_NAMES)('enable turns %s on for everyone, replacing any rollout', (name) => {
    const rolling = written(
      applyCommand(
        EMPTY,
        'set',
        name,
        '{"state":"ENABLED","default":false,"rules":[{"percentage":1}]}',
      ),
    )
    const store = written(applyCommand(rolling, 'enable', name))
    expect(valuesAfter(store, name)).toEqual([true, true])
  })

  it('unset goes back to the documented default and keeps the other flags', () => {
    const both = written(
      applyCommand(
        written(applyCommand(EMPTY, 'disable', 'campsFilter')),
        'enable',
        'robustDaycareCards',
      ),
    )
    const store = written(applyCommand(both, 'unset', 'campsFilter'))
    expect(store.flags).toEqual({ robustDaycareCards: { state: 'ENABLED', default: true } })
    expect(valuesAfter(store, 'campsFilter')).toEqual([true, true])
  })

  it('sets a configuration key, validated', () => {
    expect(written(applyCommand(EMPTY, 'config', 'greaterCareReskin', 'true')).config).toEqual({
      greaterCareReskin: true,
    })
  })

  it.each([
    ['an unknown flag', 'enable', 'shinyNewThing', ''],
    ['a document the worker would reject', 'set', 'campsFilter', '{"state":"ON"}'],
    ['a value that is not JSON', 'set', 'campsFilter', '{state:'],
    ['an unknown configuration key', 'config', 'darkMode', 'true'],
    ['a bad configuration value', 'config', 'tagManagerId', '"nope"'],
  ] as const)('refuses %s, writing nothing', (_, command, name, value) => {
    expect(applyCommand(EMPTY, command, name, value)).toHaveProperty('error')
  })
})

describe('describeSetting (npm run flags -- get)', () => {
  const empty = { flags: {}, config: {} }

  it('tells the documented default when nothing is stored', () => {
    expect(describeSetting(empty, 'embeddedGuestMessaging')).toEqual({
      value: 'off for everyone',
      source: 'documented default (nothing stored)',
    })
    expect(describeSetting(empty, 'costGuideLocalPage')).toEqual({
      value: 'true',
      source: 'documented default (nothing stored)',
    })
  })

  it('tells a stored rollout in words, with the stored document', () => {
    const doc = {
      state: 'ENABLED',
      rules: [{ pageTypes: ['seoProviderProfile'], percentage: 20 }],
    }
    expect(
      describeSetting(
        { flags: { embeddedGuestMessaging: doc }, config: {} },
        'embeddedGuestMessaging',
      ),
    ).toEqual({
      value: 'on for 20% of visitors on page types seoProviderProfile; otherwise off',
      source: `stored: ${JSON.stringify(doc)}`,
    })
    expect(
      describeSetting(
        { flags: { campsFilter: { state: 'DISABLED', default: false } }, config: {} },
        'campsFilter',
      )?.value,
    ).toBe('off for everyone')
  })

  it('says when a stored value is ignored, and why', () => {
    const store = {
      flags: { campsFilter: { state: 'ENABLED', rules: [{ percentage: 140 }] } },
      config: { costGuideLocalPage: 'yes' },
    }
    const flag = describeSetting(store, 'campsFilter')
    expect(flag?.value).toBe('on for everyone')
    expect(flag?.source).toMatch(
      /^documented default; the stored document is ignored \(flag campsFilter: rules\.0\.percentage/,
    )
    expect(describeSetting(store, 'costGuideLocalPage')?.source).toMatch(
      /^documented default; the stored value is ignored \(config costGuideLocalPage/,
    )
    expect(describeSetting(store, 'noSuchThing')).toBeNull()
  })
})
