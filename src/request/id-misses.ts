import type { Context, MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { failureKey } from '../cache/purge'
import type { AppEnv } from '../env'

/**
 * In front of a page named by a provider's or a job's id, behind the edge cache (a stored page,
 * or a stored 404, answers every address as before). The gate holds no ids: control's directory
 * read is the check (docs/scale.md, "The gate for ids"). Each 404 that read D1 counts against its
 * address (an IPv4 address, an IPv6 /64) in the ID_MISSES rate limit; once the limit answers
 * that the address is past it, this isolate answers that address's uncached id pages with the
 * kept 404 page and no read until the window ends. That 404 is never stored: a real id asked
 * for by a flooding address must not become everyone's 404 (docs/hardening.md).
 */
export const idMisses: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Cloudflare sets the address on every request from the internet; one without (the worker's
  // own, a test's) is nobody's flood.
  const connecting = c.req.header('cf-connecting-ip')
  if (!connecting) return next()
  const address = failureKey(connecting)
  const { limitedAddresses } = c.get('memory')
  if (limitedAddresses.has(address)) {
    c.set('unread', true)
    c.get('trail').add('gate', 'id unread: address past the limit of 404s')
    throw new HTTPException(404)
  }
  await next()
  // A 404 decided with no read (an id past the watermark's margin, a form that is off) costs
  // nothing, so counts for nothing.
  if (c.res.status !== 404 || c.get('timing').count('d1') === 0) return
  c.executionCtx.waitUntil(countMiss(c, address))
}

/**
 * Counts a 404 of an id against `address`. A limit that cannot answer limits nothing (and is
 * reported): the directory read still decides every page, it only costs a read.
 */
async function countMiss(c: Context<AppEnv>, address: string): Promise<void> {
  try {
    const { success } = await c.env.ID_MISSES.limit({ key: address })
    if (!success) c.get('memory').limitedAddresses.add(address)
  } catch (error) {
    c.get('reporter').problem('gate: id 404 rate limit unavailable', { error: String(error) })
  }
}
