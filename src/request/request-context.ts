import type { Context, MiddlewareHandler } from 'hono'
import { purgesKnown } from '../cache/generations'
import { TAG } from '../cache/tags'
import type { D1Reads } from '../data/db'
import { openDb } from '../data/db'
import { citiesOf } from '../data/kept-cities'
import type { AppEnv } from '../env'
import { pageOfDataPath } from '../urls/data-prefix'
import { readSession } from './read-session'

/**
 * Variables every later step reads: the isolate's memory, this request's D1 access and cities.
 * An isolate whose purges are known but not current (idle past REFRESH_MS) reads them first,
 * waiting at most PURGE_STATE_DEADLINE_MS, so that nothing below (a kept redirect, the gate's
 * additions, a stored copy) answers from what it knew before its sleep.
 */
export function requestContext(memory: AppEnv['Variables']['memory']): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('memory', memory)
    c.set('readSession', null)
    const trail = c.get('trail')
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
    if (memory.purges.known && !memory.purges.current)
      await purgesKnown(memory.purges, c.env.DB, waitUntil, c.get('reporter').problem)
    const session = lazySession(c)
    // An isolate that does not know the purges reads from the primary: decided now, before
    // its read of them opens a session of its own.
    if (!memory.purges.current) session.open()
    const d1 = session.reads
    const db = openDb(d1, c.get('timing'), { trail, derived: memory.derivedReads })
    c.set('db', db)
    c.set('cities', citiesOf(memory.cities, { d1, db, trail, waitUntil }))
    await next()
  }
}

/**
 * The request's D1 session, opened at its first read: by then the edge cache has told which tags
 * the page is known to carry (`readTags`), which decide where it may read (read-session.ts).
 */
function lazySession(c: Context<AppEnv>): { reads: D1Reads; open: () => D1DatabaseSession } {
  let session: D1DatabaseSession | undefined
  const open = (): D1DatabaseSession => {
    if (session) return session
    const tags = c.get('readTags') ?? [TAG.url(pageOfDataPath(c.req.path))]
    const chosen = readSession(c.get('memory').purges, tags)
    const opened = c.env.DB.withSession(chosen.constraint)
    c.get('timing').note('d1-session', sessionKind(chosen.constraint))
    c.set('readSession', { ...chosen, reached: () => opened.getBookmark() })
    return (session = opened)
  }
  return {
    reads: {
      prepare: (sql) => open().prepare(sql),
      batch: (statements) => open().batch(statements),
    },
    open,
  }
}

/** What a session's constraint says in Server-Timing: `first-primary`, `first-unconstrained` or `bookmark`. */
function sessionKind(constraint: string): string {
  return constraint.startsWith('first-') ? constraint : 'bookmark'
}
