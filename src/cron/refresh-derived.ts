import { buildGate } from '../gate/build-gate'
import { saveGate } from '../gate/gate-store'
import { refreshStats } from '../data/refresh-stats'

/**
 * What the cron trigger keeps fresh from the catalog: the per-city aggregates, then the gate
 * of valid slugs. Isolates pick up the new gate within GATE_MAX_AGE_MS.
 */
export async function refreshDerived(env: Pick<Env, 'DB' | 'GATE'>, now: Date): Promise<void> {
  await refreshStats(env.DB, now)
  await saveGate(env.GATE, await buildGate(env.DB, now))
}
