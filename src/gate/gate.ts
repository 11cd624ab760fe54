import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { checkSlugs } from './check-slugs'
import type { GateAnswer, GateKind } from './gate-filter'
import { GATE_DEADLINE_MS, loadGate } from './gate-store'
import { citiesAddedAfter, currentNewCities } from './new-cities'

/**
 * The gate's verdict on a routed URL's slugs, before any storage read: `values` of the route
 * parameters `params` names, checked against the filter (loaded when due) and the additions
 * after its build. `decided`: the verdict the fast path already gave. Null only when the gate
 * could not tell by its deadline: then D1 decides.
 */
export async function gateAnswer(
  c: Context<AppEnv>,
  params: Readonly<Record<string, GateKind>>,
  values: Readonly<Record<string, string>>,
  decided: GateAnswer | undefined,
): Promise<GateAnswer | null> {
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
  const report = c.get('reporter').problem
  const memory = c.get('memory')
  const filter = await loadGate(memory.gate, c.env.GATE, waitUntil, report)
  // The purges tell when the additions are behind (src/gate/new-cities.ts): an isolate that
  // answers nothing but refused slugs learns of them too.
  memory.purges.refreshIfDue(c.env.CONTROL, waitUntil, report)
  const valueOf = (name: string) => values[name] ?? ''
  const answer =
    decided ??
    checkSlugs(filter, params, valueOf, (built) =>
      citiesAddedAfter(memory.newCities, built.meta, c.env.CONTROL, waitUntil, report),
    )
  if (answer || !filter) return answer
  // A slug the isolate would refuse on additions read before the newest purge it knows of
  // (or none yet): they are read again first, for at most GATE_DEADLINE_MS; past it, D1 decides.
  const additions = await currentNewCities(
    memory.newCities,
    filter.meta,
    c.env.CONTROL,
    { ms: GATE_DEADLINE_MS, waitUntil },
    report,
  )
  return additions && checkSlugs(filter, params, valueOf, () => additions)
}
