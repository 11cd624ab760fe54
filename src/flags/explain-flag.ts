import type { FlagName } from './definitions'
import type { Target } from './evaluate'
import { bucket, evaluateFlag } from './evaluate'
import type { FlagStore } from './flag-commands'
import { parseFlagSet } from './flag-set'

/**
 * A visitor as ops choose one: new (no device id yet: the worker draws one at random on the
 * first request), returning with their `care_did` device id, or a crawler (never in a partial
 * rollout, never overridden).
 */
export type ChosenVisitor =
  { kind: 'new'; bot: boolean } | { kind: 'returning'; deviceId: string; bot: boolean }

/** What a chosen visitor gets of a flag: its value in words, and why. */
export interface VisitorValue {
  value: string
  why: string
}

const onOff = (value: boolean) => (value ? 'on' : 'off')

/**
 * The value `visitor` gets of flag `name` on a page about `target`, decided by the worker's own
 * `evaluateFlag` over the document as the worker parses it (`parseFlagSet`): the console's
 * "value a visitor gets" and `npm run flags -- get NAME --url …`. A new visitor's value
 * depends on the bucket their random device id falls in: it is evaluated at every bucket where
 * a rule's rollout starts or ends, which gives the exact share of new visitors who get it on.
 */
export function flagForVisitor(
  store: FlagStore,
  name: FlagName,
  visitor: ChosenVisitor,
  target: Target,
): VisitorValue {
  const doc = parseFlagSet(store).flags[name]
  if (visitor.bot || visitor.kind === 'returning') {
    const deviceId = visitor.kind === 'returning' ? visitor.deviceId : ''
    const { value, outcome } = evaluateFlag(name, doc, { deviceId, bot: visitor.bot }, target)
    const why =
      outcome === 'OVERRIDE'
        ? 'this device’s override'
        : outcome === 'RULE_MATCH'
          ? visitor.bot
            ? 'a rule for everyone matches this page (crawlers never enter a partial rollout)'
            : `a rule matches this page and this device (its bucket of ${name}: ${bucket(name, deviceId).toFixed(2)})`
          : doc?.state === 'ENABLED'
            ? `no rule takes ${visitor.bot ? 'a crawler' : 'this device'} on this page: the default`
            : 'the flag is not enabled: its default'
    return { value: onOff(value), why }
  }
  const share = shareOn(name, doc, target)
  if (share === 0 || share === 100) {
    const { value } = evaluateFlag(name, doc, { deviceId: '', bot: false }, target, () => 0)
    return { value: onOff(value), why: 'the same for every new visitor on this page' }
  }
  return {
    value: `on for ${share}% of new visitors, off for the rest`,
    why: 'a partial rollout: the random device id a new visitor gets decides, and they keep it',
  }
}

/** The share of buckets, in [0, 100], at which a non-crawler without override gets it on. */
function shareOn(name: FlagName, doc: Parameters<typeof evaluateFlag>[1], target: Target): number {
  const edges = [0, 100, ...(doc?.rules ?? []).map((r) => r.percentage ?? 100)]
    .filter((p) => p >= 0 && p <= 100)
    .sort((a, b) => a - b)
  let on = 0
  for (let i = 0; i < edges.length - 1; i++) {
    const [from = 0, to = 0] = [edges[i], edges[i + 1]]
    if (to <= from) continue
    // Within [from, to) no rule's rollout starts or ends: one bucket stands for all of them.
    const { value } = evaluateFlag(name, doc, { deviceId: '', bot: false }, target, () => from)
    if (value) on += to - from
  }
  return Math.round(on * 100) / 100
}
