import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import type { Config, FlagName } from './definitions'
import { evaluateAll, fingerprint, strayReads } from './evaluate'
import { pageSurface } from './page-surface'
import { pageTarget } from './page-target'
import { readFlags } from './read-flags'

/**
 * Evaluates every flag once per request, for this visitor and what the URL is about, before
 * the route runs: the response then knows exactly which values shaped it.
 */
export const flags: MiddlewareHandler<AppEnv> = async (c, next) => {
  const set = await readFlags(c.env.FLAGS, c.get('reporter').problem)
  const evaluations = evaluateAll(
    set.flags,
    { deviceId: c.get('deviceId'), bot: c.get('bot') },
    pageTarget(c.req.path),
  )
  for (const [name, e] of Object.entries(evaluations)) {
    c.get('trail').add('flags', `${name}=${e.value}`, { outcome: e.outcome })
  }
  c.get('reporter').tracesSampleRate = set.config.traceSampleRates.server
  const surface = pageSurface(c.req.path)
  const variant = fingerprint(evaluations, set.config, surface)
  // What the route and the views read, to check it against what the variant keys on.
  const read = new Set<FlagName | keyof Config>()
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
    stray: () => strayReads(read, surface),
  })
  await next()
  c.header('x-variant', variant)
}
