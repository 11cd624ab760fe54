import { buildGate } from '../gate/build-gate'
import { saveGate } from '../gate/gate-store'
import type { DerivedReads } from '../data/derived-reads'
import { refreshStats } from '../data/refresh-stats'

/**
 * What the cron trigger keeps fresh from the catalog: the per-city aggregates, then the gate
 * of valid slugs. The isolate running it forgets its derived reads at once (`derivedReads`, the
 * worker's app's); other isolates catch up within a minute, and pick up the new gate within
 * GATE_MAX_AGE_MS.
 */
export async function refreshDerived(
  env: Pick<Env, 'DB' | 'GATE'>,
  now: Date,
  derivedReads: DerivedReads,
): Promise<void> {
  await refreshStats(env.DB, now)
  derivedReads.clear()
  await saveGate(env.GATE, await buildGate(env.DB, now))
}
