import { pageKey } from '../cache/cache-key'
import type { Policy } from '../cache/policies'
import type { FlagName } from '../flags/definitions'
import type { FlagSet } from '../flags/flag-set'
import type { FlagsDecided } from '../flags/evaluate'
import { decideFlags } from '../flags/evaluate'
import type { PageContext } from '../flags/page-context'
import { checkSlugs } from '../gate/check-slugs'
import type { GateAnswer, GateFilter, GateKind } from '../gate/gate-filter'
import type { Additions } from '../gate/new-cities'
import type { PageQuery } from '../queries/page-query'
import type { Visitor } from './visitor-cookies'

/** What the page table (src/pages.ts) tells of the row a path routes to. */
export interface RoutedPage {
  /** The row's Hono pattern. */
  pattern: string
  page: PageContext
  policy: Policy | null
  query: PageQuery
  gate: Readonly<Record<string, GateKind>> | null
  params: Readonly<Record<string, string>>
}

/** Who sent a request: the visitor its cookies name (or a new one), and whether a crawler. */
export interface Asker {
  visitor: Visitor
  bot: boolean
}

/**
 * What is decided of a request before anything is read or rendered: its route, the gate's
 * verdict on the route's slugs, the flags and variant, and the cache key. The fast path decides
 * it from what the isolate holds and, when it cannot answer, hands it to the pipeline with the
 * request; the pipeline decides it itself otherwise, by the same `decide`. Every step after reads
 * it from the request's context (`c.get('decision')`), none decides any part again.
 */
export interface Decision {
  asker: Asker
  /** The page table's row, or null for a path no row serves (then only the flags are decided). */
  routed: RoutedPage | null
  /** What the flags know of the page (the routed row's, or the page table's "no page"). */
  page: PageContext
  gate: GateAnswer
  /** Null when the gate refused: its 404 is rendered before the flags are read. */
  flags: FlagsDecided | null
  /** The page's cache key for the variant; null for none: no policy, a refused query, a 404. */
  key: string | null
}

/** The decision of a request whose gate passed: its flags are decided. */
export type Decided = Decision & { flags: FlagsDecided }

/** Whether `decision` was made on the flag set `set` (else it is made again on `set`). */
export function madeOn(decision: Decision | undefined, set: FlagSet): decision is Decided {
  return decision?.flags?.set === set
}

/** The cache key of a request for `routed` (`pageKey`, or the fast path's kept keys). */
export type KeyOf = (
  routed: RoutedPage,
  origin: string,
  url: URL,
  on: (name: FlagName) => boolean,
  variant: string,
) => string | null

/** Everything `decide` reads: values, nothing it could fetch or change. */
export interface DecisionInputs {
  url: URL
  /** The path as routed (Hono's, decoded); `url`'s own by default. */
  path?: string
  origin: string
  asker: Asker
  routed: RoutedPage | null
  page: PageContext
  /** The gate's verdict (`gateVerdict`). */
  gate: GateAnswer
  /** The flag set; read only when the gate passed. */
  set: FlagSet
  keyOf?: KeyOf
}

/** The gate's verdict when there is nothing to check. */
export const PASSED: GateAnswer = { known: true, crumbs: [] }

/** A refused request's decision: the gate's 404, decided before the flags are read. */
export function refused(asker: Asker, routed: RoutedPage, gate: GateAnswer): Decision {
  return { asker, routed, page: routed.page, gate, flags: null, key: null }
}

/**
 * The one decision of a request whose gate passed (a refused one is `refused`): the flags for
 * its asker and page, their variant, and the cache key of a page with a policy.
 */
export function decide(inputs: DecisionInputs): Decided {
  const { url, origin, asker, routed, page, gate, set } = inputs
  const flags = decideFlags(set, { deviceId: asker.visitor.deviceId, bot: asker.bot }, page)
  const on = (name: FlagName) => flags.evaluations[name].value
  const path = inputs.path ?? url.pathname
  const keyOf: KeyOf =
    inputs.keyOf ?? ((r, o, u, read, v) => pageKey(r, o, path, u.searchParams, read, v))
  const key = routed?.policy ? keyOf(routed, origin, url, on, flags.variant) : null
  return { asker, routed, page, gate, flags, key }
}

/**
 * The gate's verdict on a routed URL's slugs (`checkSlugs`), with the additions `addedAfter`
 * tells of; null when it cannot tell yet (additions not current).
 */
export function gateVerdict(
  routed: RoutedPage,
  filter: GateFilter | null,
  addedAfter: (filter: GateFilter) => Additions,
): GateAnswer | null {
  if (!routed.gate) return PASSED
  return checkSlugs(filter, routed.gate, (name) => routed.params[name] ?? '', addedAfter)
}

/**
 * The bindings a request reaches the pipeline with: the worker's, and the decision the fast path
 * made of it, if any. Hono gives each request the `env` it is fetched with (as its Node adapter
 * hands each request its own objects), so the decision travels with the request and nothing
 * request-scoped stays in the isolate's memory.
 */
export type Bindings = Env & { readonly decided?: Decision }

/** `env` carrying `decided` (undefined: the pipeline decides). */
export function withDecision(env: Env, decided: Decision | undefined): Bindings {
  return Object.create(env, { decided: { value: decided } }) as Bindings
}
