import type { MiddlewareHandler } from 'hono'
import { purgesKnown } from '../cache/generations'
import { citiesOf } from '../data/kept-cities'
import type { AppEnv } from '../env'
import type { SourcesOf } from './page-reads'
import { pageReads } from './page-reads'

/**
 * Variables every later step reads: the isolate's memory, this request's D1 access and cities.
 * An isolate whose purges are known but not current (idle past REFRESH_MS) reads them first,
 * waiting at most PURGE_STATE_DEADLINE_MS, so that nothing below (a kept redirect, the gate's
 * additions, a stored copy) answers from what it knew before its sleep.
 */
export function requestContext(
  memory: AppEnv['Variables']['memory'],
  sourcesOf: SourcesOf,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('memory', memory)
    c.set('readSessions', [])
    const trail = c.get('trail')
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
    if (memory.purges.known && !memory.purges.current)
      await purgesKnown(memory.purges, c.env.CONTROL, waitUntil, c.get('reporter').problem)
    const reads = pageReads(c, sourcesOf(c.env), (session) =>
      c.set('readSessions', [...c.get('readSessions'), session]),
    )
    // An isolate that does not know the purges reads from the primary: decided now, before
    // its read of them opens a session of its own.
    if (!memory.purges.current) reads.openControl()
    c.set('db', reads.control)
    c.set('shards', reads.shards)
    c.set(
      'cities',
      citiesOf(memory.cities, { d1: reads.controlD1, db: reads.control, trail, waitUntil }),
    )
    await next()
  }
}
