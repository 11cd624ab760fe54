// The worker as `npm run bench` serves it: the real worker (src/worker.ts), plus routes that exist
// only in the benchmark configuration. Built by `wrangler deploy --dry-run` like the real one.
import { urlTag } from '../../src/cache/cache-key'
import { PURGE_PREFIX } from '../../src/cache/generations'
import { readGate } from '../../src/gate/gate-store'
import { memory } from '../../src/app'
import worker from '../../src/worker'

interface BenchEnv extends Env {
  /** Paths that miss on every request: see `purgedForever`. */
  BENCH_MISSES?: string[]
  /** Set: D1 is answered by another workerd, so this one's CPU is the worker's own. */
  D1_ELSEWHERE?: Fetcher
  /** Milliseconds every D1 round trip takes on top of its work: D1 far from the visitor. */
  BENCH_D1_DELAY_MS?: number
  /** Milliseconds every read of the flags and the gate from KV takes: KV answering slowly. */
  BENCH_KV_DELAY_MS?: number
}

/** Baseline bodies, built once per size: the cost of serving a string, nothing else. */
const baselines = new Map<number, string>()

export default {
  async fetch(request, env: BenchEnv, ctx) {
    const url = new URL(request.url)
    switch (url.pathname) {
      case '/__bench/baseline': {
        const bytes = Math.min(Number(url.searchParams.get('bytes')) || 0, 10_000_000)
        const body = baselines.get(bytes) ?? baselines.set(bytes, 'x'.repeat(bytes)).get(bytes)
        return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      }
      case '/__bench/not-found':
        return new Response('Not found', { status: 404 })
      case '/__bench/forget':
        // The derived reads this isolate keeps: the next page reads as a page never seen does.
        memory.derivedReads.clear()
        return new Response(null, { status: 204 })
      case '/__bench/gate': {
        // The filter's read from KV and its decoding, as a fresh isolate pays it.
        const started = performance.now()
        const gate = await readGate(env.GATE)
        return Response.json({
          ms: performance.now() - started,
          bytes: gate?.bytes().byteLength ?? 0,
        })
      }
    }
    const db = env.D1_ELSEWHERE ? d1Elsewhere(env.D1_ELSEWHERE, env.BENCH_D1_DELAY_MS ?? 0) : env.DB
    const purges = env.BENCH_MISSES ? purgedForever(env.PURGES, env.BENCH_MISSES) : env.PURGES
    const kvDelay = env.BENCH_KV_DELAY_MS ?? 0
    const flags = kvDelay ? slowKv(env.FLAGS, kvDelay) : env.FLAGS
    const gate = kvDelay ? slowKv(env.GATE, kvDelay) : env.GATE
    return worker.fetch(request, { ...env, DB: db, PURGES: purges, FLAGS: flags, GATE: gate }, ctx)
  },
  scheduled: (controller, env, ctx) => worker.scheduled(controller, env, ctx),
} satisfies ExportedHandler<BenchEnv>

/**
 * The purge records as the edge cache lists them, with one more: every page of `paths`, purged
 * at the end of time. Each copy of those pages, in the Cache API or in the isolate's memory, is
 * then older than a purge and is never served, however many requests run at once: every
 * request renders, and the rest of the cache's path (the lookup, the store) runs as on a miss.
 * (Emptying the isolate's memory at each request did not do it: under concurrent requests, a
 * render finishing between one request's emptying and its lookup was served as a hit.)
 */
function purgedForever(kv: KVNamespace, paths: readonly string[]): KVNamespace {
  const purge = {
    name: `${PURGE_PREFIX}bench`,
    metadata: { at: Number.MAX_SAFE_INTEGER, tags: paths.map(urlTag) },
  }
  return new Proxy(kv, {
    get(target, property) {
      if (property === 'list')
        return async (options?: KVNamespaceListOptions) => {
          const listed = await target.list(options)
          return options?.prefix === PURGE_PREFIX && listed.list_complete
            ? { ...listed, keys: [...listed.keys, purge] }
            : listed
        }
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function'
        ? (value as (this: KVNamespace, ...args: unknown[]) => unknown).bind(target)
        : value
    },
  })
}

/** `kv`, whose reads (`get`, `getWithMetadata`) each answer `delay` ms late. */
function slowKv(kv: KVNamespace, delay: number): KVNamespace {
  return new Proxy(kv, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property)
      if (typeof value !== 'function') return value
      const method = (value as (this: KVNamespace, ...args: unknown[]) => unknown).bind(target)
      if (property !== 'get' && property !== 'getWithMetadata') return method
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, delay))
        return method(...args)
      }
    },
  })
}

/**
 * The part of D1 that page reads use (`prepare(sql).bind(...).all()`, and `batch` of such
 * statements), sent over a service binding to the catalog's D1 in another workerd (`serveD1` in
 * harness.ts): like production, where D1 runs elsewhere and a query costs the worker a round
 * trip, not the query's work. Each round trip waits `delay` ms first, as a distant D1 would.
 */
function d1Elsewhere(service: Fetcher, delay: number): D1Database {
  const roundTrip = async (body: unknown): Promise<unknown> => {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
    const res = await service.fetch('http://d1/', { method: 'POST', body: JSON.stringify(body) })
    if (!res.ok) throw new Error(await res.text())
    return res.json()
  }
  interface Statement {
    sql: string
    params: unknown[]
  }
  const prepare = (sql: string) => {
    const statement = {
      sql,
      params: [] as unknown[],
      bind(...values: unknown[]) {
        return { ...statement, params: values }
      },
      all() {
        return roundTrip({ sql: this.sql, params: this.params })
      },
    }
    return statement
  }
  const batch = (statements: Statement[]) =>
    roundTrip({ batch: statements.map(({ sql, params }) => ({ sql, params })) })
  const db = { prepare, batch, withSession: () => db }
  return db as unknown as D1Database
}
