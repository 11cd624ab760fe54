// One route under load: autocannon, in a process of its own (load-child.ts), against a workerd,
// and the CPU time that workerd (and the one answering D1) used over the same run.
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { cpuTime } from './cpu-time'
import type { LoadOrder, LoadResult } from './load-child'
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

/**
 * `path`: the one page loaded, or pages asked for in turn (long-tail.ts), the run going on
 * from where its warm-up stopped, so that no page of the run was rendered in the warm-up.
 */
export async function measureRoute(
  server: Served,
  d1: Served | null,
  path: string | readonly string[],
  status: number,
  load: Load,
): Promise<Measured> {
  const paths = typeof path === 'string' ? null : path
  const options = {
    url: server.base + (typeof path === 'string' ? path : (path[0] ?? '')),
    connections: load.connections,
    headers: { 'user-agent': PHONE },
  }
  const tail = (from: number) => (paths ? { tail: { paths, from } } : {})
  // warm-up: JIT, isolate caches, the stored copy
  const warm = await loadInChild({ options: { ...options, duration: 1 }, status, ...tail(0) })
  const d1Pids = d1?.pids ?? []
  const before = await Promise.all([cpuTime(server.pids), cpuTime(d1Pids)])
  const r = await loadInChild({
    options: { ...options, duration: load.duration },
    status,
    ...tail(warm.requests + load.connections),
  })
  const after = await Promise.all([cpuTime(server.pids), cpuTime(d1Pids)])
  // Responses completed. The few requests still in flight when the run stops count in the CPU
  // time but not here: one per connection, a few % of a 5 s run of misses.
  const requests = Math.max(r.requests, 1)
  return {
    requests: r.requests,
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    cpu: (after[0] - before[0]) / requests,
    d1Cpu: (after[1] - before[1]) / requests,
    cache: r.cache,
    errors: r.errors,
  }
}

/** Runs one load in a child process (load-child.ts) and waits for its result. */
async function loadInChild(order: LoadOrder): Promise<LoadResult> {
  const child = fork(join(import.meta.dirname, 'load-child.ts'), {
    execArgv: ['--import', 'tsx'],
  })
  const result = once(child, 'message') as Promise<[LoadResult]>
  child.send(order)
  const [measured] = await Promise.race([
    result,
    once(child, 'exit').then(([code]) => {
      throw new Error(`bench: the load process exited with ${String(code)}`)
    }),
  ])
  return measured
}
