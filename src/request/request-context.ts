import type { MiddlewareHandler } from 'hono'
import { openDb } from '../data/db'
import type { AppEnv } from '../env'
import { isCrawler } from './crawler'

/** Per-request variables every later step reads: D1 access, crawler or person. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('db', openDb(c.env.DB, c.get('timing'), c.get('trail')))
  c.set('bot', isCrawler(c.req.header('user-agent')))
  await next()
}
