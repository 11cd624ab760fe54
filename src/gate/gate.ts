import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'
import { entityId } from '../urls/paths'
import type { GateFilter, GateKind } from './gate-filter'
import { loadGate } from './gate-store'
import { citiesAddedAfter } from './new-cities'

/**
 * Rejects a URL whose catalog slugs are certainly unknown, before any storage read: a 404
 * with zero D1 reads. `params` names the route parameters to check and what they hold.
 */
export function gate(params: Record<string, GateKind>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
    const report = c.get('reporter').problem
    const memory = c.get('memory')
    const filter = await loadGate(memory.gate, c.env.GATE, waitUntil, report)
    for (const [name, kind] of Object.entries(params)) {
      const value = c.req.param(name) ?? ''
      // A city, or an entity whose id the build could not foresee, added after the build is
      // known from memory, which every check keeps fresh (in the background, once a minute).
      const added = filter
        ? citiesAddedAfter(memory.newCities, filter.meta, c.env.DB, waitUntil, report)
        : NO_SLUGS
      const known = slugKnown(filter, kind, value, added)
      c.get('trail').add('gate', gateCrumb(kind, known))
      if (!known) throw new HTTPException(404)
    }
    await next()
  }
}

const NO_SLUGS: ReadonlySet<string> = new Set()

/**
 * Whether a route parameter may name something in the catalog: the filter may hold it, or it is
 * a city slug or an entity (`provider:123`) added after the filter's build (`added`, the log of
 * migrations/0006_city_additions.sql, which catalog sync adds entities to). No filter: the gate
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
