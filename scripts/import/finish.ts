// What an import does once, after its last batch: the derived stats and the gate, rebuilt from
// the whole catalog (each batch skipped its own derivation).
import { refreshStats } from '../../src/data/refresh-stats'
import { buildGate } from '../../src/gate/build-gate'
import { saveGate } from '../../src/gate/gate-store'

export interface Finished {
  gateItems: number
  gateBytes: number
}

export async function finishImport(env: Pick<Env, 'DB' | 'GATE'>, now: Date): Promise<Finished> {
  await refreshStats(env.DB, now)
  return rebuildGate(env, now)
}

export async function rebuildGate(env: Pick<Env, 'DB' | 'GATE'>, now: Date): Promise<Finished> {
  const gate = await buildGate(env.DB, now)
  await saveGate(env.GATE, gate)
  return { gateItems: gate.meta.items, gateBytes: gate.bytes().byteLength }
}
