// One route under load: autocannon from this process against a workerd, and the CPU time that
// workerd (and the one answering D1) used over the same run.
import autocannon from 'autocannon'
import { cpuTime } from './cpu-time'
import type { Server } from './harness'
import { PHONE } from './harness'

/** What a route is loaded on: an address, and the processes whose CPU time counts. */
export type Served = Pick<Server, 'base' | 'pids'>

export interface Load {
  duration: number
  connections: number
}

export interface Measured {
  requests: number
  rps: number
  p50: number
  p99: number
  /** The site's workerd CPU time over the run, per request completed, in ms. */
  cpu: number
  /** The same of the workerd answering D1. */
  d1Cpu: number
  /** Responses by `x-cache` header (`–` without one), to show that a miss missed. */
  cache: Record<string, number>
  /** Errors, timeouts and responses of another status than `status`. */
  errors: number
}

export async function measureRoute(
  server: Served,
  d1: Served | null,
  path: string,
  status: number,
  load: Load,
): Promise<Measured> {
  const cache: Record<string, number> = {}
  let wrongStatus = 0
  const options = {
    url: server.base + path,
    connections: load.connections,
    headers: { 'user-agent': PHONE },
  }
  await autocannon({ ...options, duration: 1 }) // warm-up: JIT, isolate caches, the stored copy
  const d1Pids = d1?.pids ?? []
  const before = await Promise.all([cpuTime(server.pids), cpuTime(d1Pids)])
  const r = await autocannon({
    ...options,
    duration: load.duration,
    requests: [
      {
        onResponse: (got, _body, _context, headers) => {
          if (got !== status) wrongStatus++
          const state = (headers as Record<string, string | undefined>)['x-cache'] ?? '–'
          cache[state] = (cache[state] ?? 0) + 1
        },
      },
    ],
  })
  const after = await Promise.all([cpuTime(server.pids), cpuTime(d1Pids)])
  // Responses completed. The few requests still in flight when the run stops count in the CPU
  // time but not here: one per connection, a few % of a 5 s run of misses.
  const requests = Math.max(r.requests.total, 1)
  return {
    requests: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpu: (after[0] - before[0]) / requests,
    d1Cpu: (after[1] - before[1]) / requests,
    cache,
    errors: r.errors + r.timeouts + wrongStatus,
  }
}
