import type { PageType } from '../catalog/enums'
import type { VerticalCode } from '../catalog/verticals'
import type { Config, FlagName, Shaping } from './definitions'
import { CONFIG_SHOWN, FLAG_NAMES, FLAGS } from './definitions'
import type { FlagSet } from './flag-set'
import type { FlagDocument, Rule } from './schema'

/** What a page is about, as far as its URL tells: what rules can target. */
export interface Target {
  pageType?: PageType
  service?: string
  vertical?: VerticalCode
  city?: string
  state?: string
}

export interface Visitor {
  /** care_did: rollouts hash on it, overrides name it. */
  deviceId: string
  /** Crawlers never enter a partial rollout, so a URL always shows them the same variant. */
  bot: boolean
}

/** The product's rule outcomes. */
export type Outcome = 'RULE_MATCH' | 'OVERRIDE' | 'OFF'

export interface Evaluation {
  value: boolean
  outcome: Outcome
}

/** A visitor's bucket in [0, 100) for a flag: stable for a device, independent across flags. */
export function bucket(flag: string, deviceId: string): number {
  return (fnv1a(`${flag}:${deviceId}`) % 10_000) / 100
}

/**
 * A flag's value for a visitor on a page. `bucketOf` is the visitor's bucket (`bucket`); the
 * console's explanation (src/flags/explain-flag.ts) passes a fixed one to learn the value at
 * each bucket a new visitor may draw.
 */
export function evaluateFlag(
  name: FlagName,
  doc: FlagDocument | undefined,
  visitor: Visitor,
  target: Target,
  bucketOf: (flag: string, deviceId: string) => number = bucket,
): Evaluation {
  const fallback = doc?.default ?? FLAGS[name].default
  if (!doc || doc.state !== 'ENABLED') return { value: fallback, outcome: 'OFF' }
  const override = visitor.bot ? undefined : doc.overrides?.[visitor.deviceId]
  if (override !== undefined) return { value: override, outcome: 'OVERRIDE' }
  for (const rule of doc.rules ?? [{}]) {
    if (matches(rule, target) && inRollout(rule, name, visitor, bucketOf)) {
      return { value: rule.value ?? true, outcome: 'RULE_MATCH' }
    }
  }
  return { value: fallback, outcome: 'OFF' }
}

function matches(rule: Rule, t: Target): boolean {
  const holds = <T>(allowed: readonly T[] | undefined, actual: T | undefined) =>
    allowed === undefined || (actual !== undefined && allowed.includes(actual))
  return (
    holds(rule.pageTypes, t.pageType) &&
    holds(rule.services, t.service) &&
    holds(rule.verticals, t.vertical) &&
    holds(rule.cities, t.city) &&
    holds(rule.states, t.state)
  )
}

function inRollout(
  rule: Rule,
  name: string,
  visitor: Visitor,
  bucketOf: (flag: string, deviceId: string) => number,
): boolean {
  const percentage = rule.percentage ?? 100
  if (percentage >= 100) return true
  return !visitor.bot && bucketOf(name, visitor.deviceId) < percentage
}

export type Evaluations = Record<FlagName, Evaluation>

const CONFIG_KEYS = Object.keys(CONFIG_SHOWN) as (keyof Config)[]

export function evaluateAll(
  docs: Partial<Record<FlagName, FlagDocument>>,
  visitor: Visitor,
  target: Target,
): Evaluations {
  return Object.fromEntries(
    FLAG_NAMES.map((name) => [name, evaluateFlag(name, docs[name], visitor, target)]),
  ) as Evaluations
}

/**
 * The variant a response was rendered for: the values of the flags, and what reaches the page
 * of the configuration keys, that shape its kind of page (`shapedBy`, from its row of the page
 * table), hashed. Two visitors get the same fingerprint exactly when they would see the same
 * page; a flag or key that shapes other pages only (a profile's rollout, on a directory) splits
 * nothing and empties nothing.
 */
export function fingerprint(
  evaluations: Evaluations,
  config: Config,
  shapedBy: readonly Shaping[],
): string {
  const flags = FLAG_NAMES.filter((name) => shapedBy.includes(name)).map(
    (name) => `${name}=${evaluations[name].value ? 1 : 0}`,
  )
  const shown = CONFIG_KEYS.filter((key) => shapedBy.includes(key)).map(
    (key) => `${key}=${JSON.stringify(CONFIG_SHOWN[key](config))}`,
  )
  return fnv1a(`${flags.join(',')};${shown.join(',')}`)
    .toString(16)
    .padStart(8, '0')
}

/** What a page read that its variant does not key on: it must not be stored under that key. */
export function strayReads(read: Iterable<Shaping>, shapedBy: readonly Shaping[]): Shaping[] {
  return [...read].filter((name) => !shapedBy.includes(name))
}

/** 32-bit FNV-1a: fast, well spread over short strings, the same everywhere. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** The flags of a request: the set read, each flag's value for the visitor, and the variant. */
export interface FlagsDecided {
  /** The flag set `evaluations` are of. */
  set: FlagSet
  evaluations: Evaluations
  /** The fingerprint of the flags that shape the page (`x-variant`). */
  variant: string
}

/** Every flag evaluated once for this visitor and what the URL is about, and their variant. */
export function decideFlags(
  set: FlagSet,
  visitor: Visitor,
  page: { target: Target; shapedBy: readonly Shaping[] },
): FlagsDecided {
  const evaluations = evaluateAll(set.flags, visitor, page.target)
  return { set, evaluations, variant: fingerprint(evaluations, set.config, page.shapedBy) }
}
