// What an import does once, after its last batch: the derived stats and the gate, rebuilt from
// the whole catalog (each batch skipped its own derivation).
import { refreshStats } from '../../src/data/refresh-stats'
import { buildGate } from '../../src/gate/build-gate'
import { saveGate } from '../../src/gate/gate-store'

export async function finishImport(env: Pick<Env, 'DB' | 'GATE'>, now: Date): Promise<void> {
  await refreshStats(env.DB, now)
  await rebuildGate(env, now)
}

export async function rebuildGate(env: Pick<Env, 'DB' | 'GATE'>, now: Date): Promise<void> {
  const gate = await buildGate(env.DB, now)
  await saveGate(env.GATE, gate)
  console.log(`gate: ${gate.meta.items} slugs, ${(gate.bytes().byteLength / 1024).toFixed(0)} KiB`)
}
