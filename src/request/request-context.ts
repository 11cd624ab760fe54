import type { MiddlewareHandler } from 'hono'
import { openDb } from '../data/db'
import type { AppEnv } from '../env'
import { isCrawler } from './crawler'
import type { Memory } from './memory'
import { readConstraint } from './read-session'

/**
 * Variables every later step reads: the isolate's memory, this request's D1 access, crawler or
 * person.
 */
export function requestContext(memory: Memory): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('memory', memory)
    const now = Date.now()
    const constraint = readConstraint(memory.purges, now)
    c.set('replicaSince', constraint === 'first-unconstrained' ? now : null)
    c.set(
      'db',
      openDb(c.env.DB.withSession(constraint), c.get('timing'), {
        trail: c.get('trail'),
        kept: {
          derived: memory.derivedReads,
          cities: memory.cities,
          waitUntil: (p) => c.executionCtx.waitUntil(p),
        },
      }),
    )
    c.set('bot', isCrawler(c.req.header('user-agent')))
    await next()
  }
}
