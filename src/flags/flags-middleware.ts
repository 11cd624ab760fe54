import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import type { Config, FlagName } from './definitions'
import type { Evaluations } from './evaluate'
import { evaluateAll, fingerprint } from './evaluate'
import { pageTarget } from './page-target'
import { readFlags } from './read-flags'

/** The flags and configuration a request is served with. */
export interface Flags {
  on: (name: FlagName) => boolean
  evaluations: Evaluations
  config: Config
  /** The variant fingerprint: what a cache keys on (`x-variant`). */
  variant: string
}

/**
 * Evaluates every flag once per request, for this visitor and what the URL is about, before
 * the route runs: the response then knows exactly which values shaped it.
 */
export const flags: MiddlewareHandler<AppEnv> = async (c, next) => {
  const set = await readFlags(c.env.FLAGS, c.var.reporter.problem)
  const evaluations = evaluateAll(
    set.flags,
    { deviceId: c.var.deviceId, bot: c.var.bot },
    pageTarget(c.req.path),
  )
  for (const [name, e] of Object.entries(evaluations)) {
    c.var.trail.add('flags', `${name}=${e.value}`, { outcome: e.outcome })
  }
  c.var.reporter.tracesSampleRate = set.config.traceSampleRates.server
  const variant = fingerprint(evaluations, set.config)
  c.set('flags', {
    on: (name) => evaluations[name].value,
    evaluations,
    config: set.config,
    variant,
  })
  await next()
  c.header('x-variant', variant)
}
