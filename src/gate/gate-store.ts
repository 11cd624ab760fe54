import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import { GateFilter } from './gate-filter'
import type { GateMeta } from './gate-filter'
import type { WaitUntil } from '../lib/kept'
import { Kept, LATE } from '../lib/kept'

/** KV key of the gate: the filter's bits as the value, its GateMeta as the KV metadata. */
export const GATE_KEY = 'gate/v1'

/** How long an isolate keeps its copy before fetching the newest build in the background. */
export const GATE_MAX_AGE_MS = 5 * 60_000

/**
 * How long a request waits for an isolate's first read of the gate. Past it, the gate is open
 * for that request (D1 decides, as with no filter) while the read runs on and is kept when it
 * ends. Later reads never hold a request: they refresh in the background.
 */
export const GATE_DEADLINE_MS = 100
/** A read of the gate still running after this long has failed: the gate stays as it was. */
export const GATE_GIVE_UP_MS = 10_000

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

/**
 * The stored gate's description (when built, its items and size) without its bits: a list of
 * the key returns its metadata alone, where a read would fetch the whole filter.
 */
export async function gateMeta(kv: KVNamespace): Promise<GateMeta | null> {
  const { keys } = await kv.list<GateMeta>({ prefix: GATE_KEY, limit: 1 })
  const meta = keys.find((k) => k.name === GATE_KEY)?.metadata
  return meta?.version === 1 ? meta : null
}

/** An isolate's copy of the gate (src/memory.ts); null when there is no usable filter. */
export const keptGate = (): Kept<GateFilter | null> => new Kept({ maxAgeMs: GATE_MAX_AGE_MS })

/**
 * The gate of an isolate, kept in `kept`: loaded on first use and refreshed in the background
 * once stale. Null means no usable filter (never built, KV failing, or the first read slower than
 * GATE_DEADLINE_MS): the caller then lets every slug through to D1, which is slower but never
 * wrong.
 */
export async function loadGate(
  kept: Kept<GateFilter | null>,
  kv: KVNamespace,
  waitUntil: WaitUntil,
  report: Report = logProblem,
): Promise<GateFilter | null> {
  const gate = await kept.serveWithin(
    {
      read: async () => {
        const gate = await readGate(kv)
        if (!gate) report('gate: no filter in KV, the gate is open')
        return gate
      },
      giveUpMs: GATE_GIVE_UP_MS,
      recover: (error, previous) => {
        report('gate: KV read failed, the gate is open', { error: String(error) })
        return previous ?? null
      },
    },
    {
      ms: GATE_DEADLINE_MS,
      waitUntil,
      onLate: () =>
        report(`gate: KV slower than ${GATE_DEADLINE_MS} ms, the gate is open meanwhile`),
    },
  )
  return gate === LATE ? null : gate
}
