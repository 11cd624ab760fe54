import type { FlagName } from './definitions'
import { CONFIG_DEFAULTS, FLAG_NAMES } from './definitions'
import { parseFlagSet } from './flag-set'

/** The flag store's document as ops edit it (src/flags/schema.ts validates it). */
export interface FlagStore {
  flags: Record<string, unknown>
  config: Record<string, unknown>
}

export type WriteCommand = 'set' | 'enable' | 'disable' | 'unset' | 'config'
export const WRITE_COMMANDS: readonly WriteCommand[] = [
  'set',
  'enable',
  'disable',
  'unset',
  'config',
]

/**
 * The document after an ops command (`npm run flags`, scripts/flags.ts), or why it is refused.
 * `enable` and `disable` write the value explicitly: on, or off, for every visitor and crawler,
 * whatever the flag's documented default (DISABLED alone would serve that default, which is on
 * for several flags). `unset` goes back to the documented default. Nothing the worker would
 * reject is ever returned, so a typo never reaches the store.
 */
export function applyCommand(
  store: FlagStore,
  command: WriteCommand,
  name: string,
  value = '',
): { store: FlagStore } | { error: string } {
  const next: FlagStore = { flags: { ...store.flags }, config: { ...store.config } }
  if (command === 'config') {
    if (!(name in CONFIG_DEFAULTS)) return { error: `unknown configuration key "${name}"` }
    const parsed = parseJson(value)
    if ('error' in parsed) return parsed
    next.config[name] = parsed.value
  } else {
    if (!isFlagName(name))
      return { error: `unknown flag "${name}"; flags: ${FLAG_NAMES.join(', ')}` }
    if (command === 'set') {
      const parsed = parseJson(value)
      if ('error' in parsed) return parsed
      next.flags[name] = parsed.value
    } else if (command === 'enable') next.flags[name] = { state: 'ENABLED', default: true }
    else if (command === 'disable') next.flags[name] = { state: 'DISABLED', default: false }
    else delete next.flags[name]
  }
  const { problems } = parseFlagSet(next)
  return problems.length ? { error: problems.join('; ') } : { store: next }
}

function isFlagName(name: string): name is FlagName {
  return (FLAG_NAMES as string[]).includes(name)
}

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return { error: `not JSON: ${text.slice(0, 80)}` }
  }
}
