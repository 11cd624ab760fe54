import type { MiddlewareHandler } from 'hono'
import { isbot } from 'isbot'
import { openDb } from '../data/db'
import type { AppEnv } from '../env'

/** Per-request variables every later step reads: D1 access, crawler or person. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('db', openDb(c.env.DB, c.var.timing, c.var.trail))
  c.set('bot', isbot(c.req.header('user-agent')))
  await next()
}
