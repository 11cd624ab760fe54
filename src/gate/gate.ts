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
      // A city slug is no increasing id: one added after the build is known from memory, which
      // every city check keeps fresh (in the background, once a minute).
      const added =
        filter && kind === 'city'
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
 * a city slug added after the filter's build (`added`). No filter: the gate is open.
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
  return filter.has(kind, key) || (kind === 'city' && added.has(value))
}

/** The gate's breadcrumb of one check. */
export function gateCrumb(kind: GateKind, known: boolean): string {
  return `${kind} ${known ? 'may exist' : 'rejected'}`
}
