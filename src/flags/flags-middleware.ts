import type { Context, Next } from 'hono'
import type { AppEnv } from '../env'
import type { Trail } from '../observability/trail'
import type { Config, Shaping } from './definitions'
import type { Evaluations, FlagsDecided } from './evaluate'
import { strayReads } from './evaluate'
import type { PageContext } from './page-context'

/**
 * Gives the route and the views the request's flags (`c.get('flags')`), before the route runs:
 * the response then knows exactly which values shaped it, and names their variant.
 */
export async function useFlags(
  c: Context<AppEnv>,
  decided: FlagsDecided,
  page: PageContext,
  next: Next,
): Promise<void> {
  const { set, evaluations, variant } = decided
  recordFlags(c.get('trail'), evaluations)
  c.get('reporter').tracesSampleRate = set.config.traceSampleRates.server
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
