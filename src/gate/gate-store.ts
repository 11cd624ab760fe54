import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import { GateFilter } from './gate-filter'
import type { GateMeta } from './gate-filter'
import type { WaitUntil } from '../request/kept'
import { Kept } from '../request/kept'

/** KV key of the gate: the filter's bits as the value, its GateMeta as the KV metadata. */
export const GATE_KEY = 'gate/v1'

/** How long an isolate keeps its copy before fetching the newest build in the background. */
export const GATE_MAX_AGE_MS = 5 * 60_000

export async function saveGate(kv: KVNamespace, gate: GateFilter): Promise<void> {
  await kv.put(GATE_KEY, gate.bytes(), { metadata: gate.meta })
}

export async function readGate(kv: KVNamespace): Promise<GateFilter | null> {
  const { value, metadata } = await kv.getWithMetadata<GateMeta>(GATE_KEY, {
    type: 'arrayBuffer',
    cacheTtl: GATE_MAX_AGE_MS / 1000,
  })
  if (!value || !metadata || metadata.version !== 1) return null
  return GateFilter.fromBytes(value, metadata)
}

/** An isolate's copy of the gate (src/request/memory.ts); null when there is no usable filter. */
export const keptGate = (): Kept<GateFilter | null> => new Kept({ maxAgeMs: GATE_MAX_AGE_MS })

/**
 * The gate of an isolate, kept in `kept`: loaded on first use and refreshed in the background
 * once stale. Null means no usable filter (never built, or KV failing): the caller then lets
 * every slug through to D1, which is slower but never wrong.
 */
export function loadGate(
  kept: Kept<GateFilter | null>,
  kv: KVNamespace,
  waitUntil: WaitUntil,
  report: Report = logProblem,
): Promise<GateFilter | null> {
  return kept.serve(
    {
      read: async () => {
        const gate = await readGate(kv)
        if (!gate) report('gate: no filter in KV, the gate is open')
        return gate
      },
      recover: (error, previous) => {
        report('gate: KV read failed, the gate is open', { error: String(error) })
        return previous ?? null
      },
    },
    waitUntil,
  )
}
