import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import { GateFilter } from './gate-filter'
import type { GateMeta } from './gate-filter'
import { forgetNewCities } from './new-cities'

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

// One copy per isolate, loaded on first use and refreshed in the background once stale.
let current: { gate: GateFilter | null; loadedAt: number } | null = null
let refreshing: Promise<void> | null = null

/**
 * The gate of this isolate. Null means no usable filter (never built, or KV failing): the
 * caller then lets every slug through to D1, which is slower but never wrong.
 */
export async function loadGate(
  kv: KVNamespace,
  waitUntil: (p: Promise<unknown>) => void,
  report: Report = logProblem,
): Promise<GateFilter | null> {
  if (!current) {
    await refresh(kv, report)
  } else if (Date.now() - current.loadedAt > GATE_MAX_AGE_MS && !refreshing) {
    waitUntil(refresh(kv, report))
  }
  return current?.gate ?? null
}

function refresh(kv: KVNamespace, report: Report): Promise<void> {
  refreshing ??= readGate(kv)
    .then((gate) => {
      current = { gate, loadedAt: Date.now() }
      if (!gate) report('gate: no filter in KV, the gate is open')
    })
    .catch((error: unknown) => {
      current = { gate: current?.gate ?? null, loadedAt: Date.now() }
      report('gate: KV read failed, the gate is open', { error: String(error) })
    })
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

/** Forgets this isolate's copy (tests, and the cron right after it saves a new build). */
export function forgetGate(): void {
  current = null
  forgetNewCities()
}
