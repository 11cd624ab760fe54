import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'
import { useFlags } from '../flags/flags-middleware'
import { readFlags } from '../flags/read-flags'
import { gateAnswer } from '../gate/gate'
import { decide, madeOn, PASSED, refused } from './decision'

/**
 * The pipeline's decision of a request (src/request/decision.ts), made once: the one the fast
 * path handed on with it, or else `decide` on what this step reads (the gate, then the flag set).
 * The gate's verdict comes first: a refused slug is a 404 before any flag is read. A handed-on
 * decision made on another flag set than the one read now is made again on this one.
 */
export const decision: MiddlewareHandler<AppEnv> = async (c, next) => {
  const handed = c.env.decided
  const routed = c.get('routed')
  const page = c.get('page')
  const asker = c.get('asker')
  const gate = routed?.gate
    ? ((await gateAnswer(c, routed.gate, routed.params, handed?.gate)) ?? PASSED)
    : PASSED
  for (const crumb of gate.crumbs) c.get('trail').add('gate', crumb)
  if (routed && !gate.known) {
    c.set('decision', refused(asker, routed, gate))
    throw new HTTPException(404)
  }
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
  const memory = c.get('memory')
  const set = await readFlags(memory.flags, c.env.FLAGS, waitUntil, c.get('reporter').problem)
  const url = new URL(c.req.url)
  const decided = madeOn(handed, set)
    ? handed
    : decide({ url, path: c.req.path, origin: c.env.PUBLIC_ORIGIN, asker, routed, page, gate, set })
  c.set('decision', decided)
  await useFlags(c, decided.flags, page, next)
}
