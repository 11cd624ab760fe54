// The worker as `npm run bench` serves it: the real worker (src/worker.ts), plus routes that exist
// only in the benchmark configuration. Built by `wrangler deploy --dry-run` like the real one.
import { forgetHotPages } from '../../src/cache/hot-pages'
import { readGate } from '../../src/gate/gate-store'
import worker from '../../src/worker'

interface BenchEnv extends Env {
  /** Set: no Cache API (Miniflare's `cache: false`) and no page memory either. */
  BENCH_UNCACHED?: string
  /** Set: D1 is answered by another process, so this one's CPU is the worker's own. */
  D1_ELSEWHERE?: Fetcher
}

/** Baseline bodies, built once per size: the cost of serving a string, nothing else. */
const baselines = new Map<number, string>()

export default {
  async fetch(request, env: BenchEnv, ctx) {
    if (env.BENCH_UNCACHED) forgetHotPages()
    const url = new URL(request.url)
    switch (url.pathname) {
      case '/__bench/baseline': {
        const bytes = Math.min(Number(url.searchParams.get('bytes')) || 0, 10_000_000)
        const body = baselines.get(bytes) ?? baselines.set(bytes, 'x'.repeat(bytes)).get(bytes)
        return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      }
      case '/__bench/not-found':
        return new Response('Not found', { status: 404 })
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
    const db = env.D1_ELSEWHERE ? d1Elsewhere(env.D1_ELSEWHERE) : env.DB
    return worker.fetch(request, { ...env, DB: db }, ctx)
  },
  scheduled: (controller, env, ctx) => worker.scheduled(controller, env, ctx),
} satisfies ExportedHandler<BenchEnv>

/**
 * The part of D1 that page reads use (`prepare(sql).bind(...).all()`), sent over a service
 * binding to the benchmark script, which runs it on Miniflare's D1 in another workerd: like
 * production, where D1 runs elsewhere and a query costs the worker a round trip.
 */
function d1Elsewhere(service: Fetcher): D1Database {
  const prepare = (sql: string) => {
    let params: unknown[] = []
    const statement = {
      bind(...values: unknown[]) {
        params = values
        return statement
      },
      async all() {
        const res = await service.fetch('http://d1/', {
          method: 'POST',
          body: JSON.stringify({ sql, params }),
        })
        if (!res.ok) throw new Error(await res.text())
        return res.json()
      },
    }
    return statement
  }
  return { prepare } as unknown as D1Database
}
