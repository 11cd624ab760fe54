import { entityId } from '../urls/paths'
import type { GateAnswer, GateFilter, GateKind } from './gate-filter'
import type { Additions } from './new-cities'

/**
 * The gate's one check of a routed URL, for the pipeline's step and the fast path alike: each of
 * `params` (the route parameters to check, and what they hold) in turn, up to the first certainly
 * unknown. A city, or an entity whose id the build could not foresee, added after the build is
 * known from `addedAfter` (what was logged after `filter`'s build, src/gate/new-cities.ts). Null
 * when a slug would be refused on additions that are not current: then it cannot tell yet.
 */
export function checkSlugs(
  filter: GateFilter | null,
  params: Readonly<Record<string, GateKind>>,
  valueOf: (name: string) => string,
  addedAfter: (filter: GateFilter) => Additions,
): GateAnswer | null {
  const crumbs: string[] = []
  for (const [name, kind] of Object.entries(params)) {
    const added = filter ? addedAfter(filter) : OPEN
    const known = slugKnown(filter, kind, valueOf(name), added.slugs)
    if (!known && !added.current) return null
    crumbs.push(gateCrumb(kind, known))
    if (!known) return { known, crumbs }
  }
  return { known: true, crumbs }
}

const OPEN: Additions = { slugs: new Set(), current: true }

/**
 * Whether a route parameter may name something in the catalog: the filter may hold it, or it is
 * a city slug or an entity (`provider:123`) added after the filter's build (`added`, the log of
 * migrations/control/0001_control.sql, which catalog sync adds entities to). No filter: the gate
 * is open.
 */
export function slugKnown(
  filter: GateFilter | null,
  kind: GateKind,
  value: string,
  added: ReadonlySet<string>,
): boolean {
  if (!filter) return true
  // Entity URLs end in the id: /p/{name-slug}-{id}, /job/{title-slug}-{id}.
  const key = kind === 'city' ? value : (entityId(value) ?? 0)
  return filter.has(kind, key) || added.has(kind === 'city' ? value : `${kind}:${key}`)
}

/** The gate's breadcrumb of one check. */
export function gateCrumb(kind: GateKind, known: boolean): string {
  return `${kind} ${known ? 'may exist' : 'rejected'}`
}
