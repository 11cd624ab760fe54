import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'
import { entityId } from '../routes/paths'
import type { GateKind } from './gate-filter'
import { loadGate } from './gate-store'

/**
 * Rejects a URL whose catalog slugs are certainly unknown, before any storage read: a 404
 * with zero D1 reads. `params` names the route parameters to check and what they hold.
 */
export function gate(params: Record<string, GateKind>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const filter = await loadGate(
      c.env.GATE,
      (p) => c.executionCtx.waitUntil(p),
      c.var.reporter.problem,
    )
    for (const [name, kind] of Object.entries(params)) {
      const value = c.req.param(name) ?? ''
      // Entity URLs end in the id: /p/{name-slug}-{id}, /job/{title-slug}-{id}.
      const key = kind === 'city' ? value : (entityId(value) ?? 0)
      const known = filter?.has(kind, key) ?? true
      c.var.trail.add('gate', `${kind} ${known ? 'may exist' : 'rejected'}`)
      if (!known) throw new HTTPException(404)
    }
    await next()
  }
}
