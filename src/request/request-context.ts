import type { MiddlewareHandler } from 'hono'
import { isbot } from 'isbot'
import { openDb } from '../data/db'
import type { AppEnv } from '../env'
import { Timing } from '../observability/timing'

/** Per-request variables every later step reads: D1 access, timing, crawler or person. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const timing = new Timing()
  c.set('timing', timing)
  c.set('db', openDb(c.env.DB, timing))
  c.set('bot', isbot(c.req.header('user-agent')))
  await next()
}
