import { describe, expect, it } from 'vitest'
import { FLAG_NAMES } from '../../src/flags/definitions'
import { evaluateFlag } from '../../src/flags/evaluate'
import type { FlagStore } from '../../src/flags/flag-commands'
import { applyCommand } from '../../src/flags/flag-commands'
import { parseFlagSet } from '../../src/flags/flag-set'

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
