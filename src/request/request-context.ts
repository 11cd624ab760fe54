import type { MiddlewareHandler } from 'hono'
import { openDb } from '../data/db'
import { citiesOf } from '../data/kept-cities'
import type { AppEnv } from '../env'
import { readConstraint } from './read-session'

/**
 * Variables every later step reads: the isolate's memory, this request's D1 access and cities.
 */
export function requestContext(memory: AppEnv['Variables']['memory']): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('memory', memory)
    const now = Date.now()
    const constraint = readConstraint(memory.purges, now)
    c.set('replicaSince', constraint === 'first-unconstrained' ? now : null)
    const d1 = c.env.DB.withSession(constraint)
    const trail = c.get('trail')
    const db = openDb(d1, c.get('timing'), { trail, derived: memory.derivedReads })
    c.set('db', db)
    c.set(
      'cities',
      citiesOf(memory.cities, { d1, db, trail, waitUntil: (p) => c.executionCtx.waitUntil(p) }),
    )
    await next()
  }
}
