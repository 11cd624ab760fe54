// What an import does once, after its last batch (each batch skipped its own derivation): the
// ratings and stats computed again from the whole catalog, the gate rebuilt and every stored
// page purged (src/sync/apply.ts, refreshAfterImport).
import { buildGate } from '../../src/gate/build-gate'
import { readGate, saveGate } from '../../src/gate/gate-store'
import { refreshAfterImport } from '../../src/sync/apply'

export interface Finished {
  gateItems: number
  gateBytes: number
}

export async function finishImport(env: Pick<Env, 'DB' | 'GATE'>, now: Date): Promise<Finished> {
  await refreshAfterImport(env, now)
  const gate = await readGate(env.GATE)
  return { gateItems: gate?.meta.items ?? 0, gateBytes: gate?.bytes().byteLength ?? 0 }
}

/** The gate alone, when the catalog is already in place (`npm run seed` with nothing to do). */
export async function rebuildGate(env: Pick<Env, 'DB' | 'GATE'>, now: Date): Promise<Finished> {
  const gate = await buildGate(env.DB, now)
  await saveGate(env.GATE, gate)
  return { gateItems: gate.meta.items, gateBytes: gate.bytes().byteLength }
}
