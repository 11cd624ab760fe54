import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import type { Trail } from '../observability/trail'
import type { Config, Shaping } from './definitions'
import type { Evaluations } from './evaluate'
import { evaluateAll, fingerprint, strayReads } from './evaluate'
import { readFlags } from './read-flags'

/**
 * Evaluates every flag once per request, for this visitor and what the URL is about, before
 * the route runs: the response then knows exactly which values shaped it.
 */
export const flags: MiddlewareHandler<AppEnv> = async (c, next) => {
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
  const set = await readFlags(
    c.get('memory').flags,
    c.env.FLAGS,
    waitUntil,
    c.get('reporter').problem,
  )
  const page = c.get('page')
  // What the fast path evaluated for this request, if it read the same set.
  const handed = c.get('memory').handedOn.get(c.req.raw)
  const same = handed?.set === set ? handed : undefined
  const evaluations =
    same?.evaluations ??
    evaluateAll(set.flags, { deviceId: c.get('deviceId'), bot: c.get('bot') }, page.target)
  recordFlags(c.get('trail'), evaluations)
  c.get('reporter').tracesSampleRate = set.config.traceSampleRates.server
  const variant = same?.variant ?? fingerprint(evaluations, set.config, page.shapedBy)
  // What the route and the views read, to check it against what the variant keys on.
  const read = new Set<Shaping>()
  const config = new Proxy(set.config, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in target) read.add(key as keyof Config)
      return Reflect.get(target, key, receiver) as unknown
    },
  })
  c.set('flags', {
    on: (name) => {
      read.add(name)
      return evaluations[name].value
    },
    evaluations,
    config,
    variant,
    stray: () => strayReads(read, page.shapedBy),
  })
  await next()
  c.header('x-variant', variant)
}

/** Each flag's value and how it was decided, in the request's breadcrumbs. */
export function recordFlags(trail: Trail, evaluations: Evaluations): void {
  for (const [name, e] of Object.entries(evaluations)) {
    trail.add('flags', `${name}=${e.value}`, { outcome: e.outcome })
  }
}
