import type { FlagName } from './definitions'
import { CONFIG_DEFAULTS, FLAG_NAMES, FLAGS } from './definitions'
import { parseFlagSet } from './flag-set'
import type { FlagDocument } from './schema'
import { FLAGS_KEY } from './schema'

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

/**
 * What the worker makes of one flag or configuration key of `store`, for `npm run flags -- get`:
 * its effective value in words, and where it comes from (stored, or the documented default, and
 * why a stored value is ignored). Null for a name that is neither.
 */
export function describeSetting(
  store: FlagStore,
  name: string,
): { value: string; source: string } | null {
  const set = parseFlagSet(store)
  const ignored = (prefix: string) => set.problems.filter((p) => p.startsWith(prefix))
  if (isFlagName(name)) {
    const doc = set.flags[name]
    if (doc) return { value: describeFlag(name, doc), source: `stored: ${JSON.stringify(doc)}` }
    const problems = ignored(`flag ${name}`)
    return {
      value: describeFlag(name, undefined),
      source: problems.length
        ? `documented default; the stored document is ignored (${problems.join('; ')})`
        : 'documented default (nothing stored)',
    }
  }
  if (name in CONFIG_DEFAULTS) {
    const key = name as keyof typeof CONFIG_DEFAULTS
    const stored = key in store.config && !ignored(`config ${key}`).length
    return {
      value: JSON.stringify(set.config[key]),
      source: stored
        ? 'stored'
        : ignored(`config ${key}`).length
          ? `documented default; the stored value is ignored (${ignored(`config ${key}`).join('; ')})`
          : 'documented default (nothing stored)',
    }
  }
  return null
}

/** A flag's effect on visitors in words: "on for everyone", "on for 20% of visitors on …". */
function describeFlag(name: FlagName, doc: FlagDocument | undefined): string {
  const onOff = (value: boolean) => (value ? 'on' : 'off')
  const fallback = doc?.default ?? FLAGS[name].default
  if (!doc || doc.state !== 'ENABLED') return `${onOff(fallback)} for everyone`
  const rules = doc.rules ?? [{}]
  const parts = rules.map((rule) => {
    const who =
      rule.percentage !== undefined && rule.percentage < 100
        ? `${rule.percentage}% of visitors`
        : 'everyone'
    const where = [
      rule.pageTypes && `page types ${rule.pageTypes.join(', ')}`,
      rule.services && `services ${rule.services.join(', ')}`,
      rule.verticals && `verticals ${rule.verticals.join(', ')}`,
      rule.cities && `cities ${rule.cities.join(', ')}`,
      rule.states && `states ${rule.states.join(', ')}`,
    ].filter(Boolean)
    return `${onOff(rule.value ?? true)} for ${who}${where.length ? ` on ${where.join(' and ')}` : ''}`
  })
  const overrides = Object.keys(doc.overrides ?? {}).length
  const unconditional = rules.some(
    (r) =>
      !r.pageTypes &&
      !r.services &&
      !r.verticals &&
      !r.cities &&
      !r.states &&
      (r.percentage ?? 100) >= 100,
  )
  return [
    ...(overrides ? [`${overrides} device override${overrides === 1 ? '' : 's'} first`] : []),
    ...parts,
    ...(unconditional ? [] : [`otherwise ${onOff(fallback)}`]),
  ].join('; ')
}

/**
 * The stored document as ops edit it, read from the FLAGS namespace (the console's read; the CLI
 * reads the same key with `wrangler kv`). A document that is not JSON reads as empty, with why.
 */
export async function readFlagStore(
  kv: KVNamespace,
): Promise<{ store: FlagStore; problem: string | null }> {
  const text = await kv.get(FLAGS_KEY)
  if (text === null) return { store: { flags: {}, config: {} }, problem: null }
  try {
    const doc = JSON.parse(text) as Partial<FlagStore>
    return { store: { flags: doc.flags ?? {}, config: doc.config ?? {} }, problem: null }
  } catch {
    return {
      store: { flags: {}, config: {} },
      problem: 'the stored document is not JSON: the worker serves the documented defaults',
    }
  }
}

/** Every flag and configuration key, flags first, as `npm run flags -- list` names them. */
export const SETTING_NAMES: readonly string[] = [...FLAG_NAMES, ...Object.keys(CONFIG_DEFAULTS)]

/** The stored value of one setting, as JSON text (empty when nothing is stored). */
export function storedText(store: FlagStore, name: string): string {
  const value = (FLAG_NAMES as string[]).includes(name) ? store.flags[name] : store.config[name]
  return value === undefined ? '' : JSON.stringify(value, null, 2)
}

/**
 * The store after setting `name` to the JSON `text` (a flag's document or a configuration key's
 * value; empty text puts a flag back to its documented default), or why the worker would refuse it.
 */
export function setSetting(
  store: FlagStore,
  name: string,
  text: string,
): { store: FlagStore } | { error: string } {
  if (name in CONFIG_DEFAULTS) {
    if (!text.trim()) {
      const config = { ...store.config }
      delete config[name]
      return { store: { flags: store.flags, config } }
    }
    return applyCommand(store, 'config', name, text)
  }
  return text.trim() ? applyCommand(store, 'set', name, text) : applyCommand(store, 'unset', name)
}
