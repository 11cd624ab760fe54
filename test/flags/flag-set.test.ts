import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CONFIG_DEFAULTS } from '../../src/flags/definitions'
import { DEFAULT_FLAG_SET, parseFlagSet } from '../../src/flags/flag-set'
import { forgetFlags, readFlags } from '../../src/flags/read-flags'

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
    forgetFlags()
    vi.restoreAllMocks()
  })

  it('reads KV once per isolate and reports a malformed document once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await env.FLAGS.put('flags', '{not json')
    const gets = vi.spyOn(env.FLAGS, 'get')
    forgetFlags()
    const sets = await Promise.all([
      readFlags(env.FLAGS),
      readFlags(env.FLAGS),
      readFlags(env.FLAGS),
    ])
    await readFlags(env.FLAGS)
    expect(
      sets.every((s) => s.config === CONFIG_DEFAULTS && Object.keys(s.flags).length === 0),
    ).toBe(true)
    expect(gets).toHaveBeenCalledTimes(1)
    expect(errors.mock.calls.filter(([line]) => String(line).includes('flags:'))).toHaveLength(1)
  })

  it('gives the defaults and one report when KV throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const failing = new Proxy(env.FLAGS, {
      get: (target, prop) =>
        prop === 'get'
          ? () => Promise.reject(new Error('KV unavailable'))
          : (Reflect.get(target, prop) as unknown),
    })
    forgetFlags()
    expect(await readFlags(failing)).toEqual(DEFAULT_FLAG_SET)
    expect(await readFlags(failing)).toEqual(DEFAULT_FLAG_SET)
    expect(
      errors.mock.calls.filter(([line]) => String(line).includes('store unreadable')),
    ).toHaveLength(1)
  })
})
